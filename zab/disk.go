package zab

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"zablab/zab/core"
	"zablab/zab/storage"
)

// diskJob is a broadcast Ready (it only appends entries) whose disk write
// the disk writer does while node.run goes on: later are the messages that
// must wait for it (ACKs vouch for the entries), in order per destination.
type diskJob struct {
	rd    core.Ready
	later []core.Message
	bytes int // entry data, for the bound on what waits for the disk
}

// diskDone is the writer's answer for the jobs it made durable together.
type diskDone struct {
	jobs   []*diskJob
	t0, t1 int64 // mono times around the appends and the one fsync
	err    error
}

// diskWriter appends the entries of broadcast Readys and syncs them, one
// fsync for every job waiting when it starts (group commit), so ordering,
// sending and counting ACKs go on during an fsync, as ZooKeeper's
// SyncRequestProcessor does. Jobs complete in the order they were handed in.
type diskWriter struct {
	log      storage.Log
	mu       sync.Mutex
	queue    []*diskJob // handed in, not yet taken by the writer
	kick     chan struct{}
	done     chan diskDone
	stop     chan struct{}
	exited   chan struct{}
	inflight []*diskJob // owned by node.run: handed in and not yet finished
	held     core.Held  // owned by node.run: the inflight jobs' late messages per peer
	bytes    int        // owned by node.run: entry data in the inflight jobs
}

// maxInflightBytes bounds the entry data handed to the writer and not yet
// durable: beyond it node.run waits for the disk, as it did before the
// writer, so a disk slower than the commit rate pushes back (a stalled
// peer's transport queues drop what it cannot take, and the leader
// resends) instead of memory growing. A variable for tests.
var maxInflightBytes = 8 << 20

func startDiskWriter(log storage.Log) *diskWriter {
	w := &diskWriter{log: log, kick: make(chan struct{}, 1), done: make(chan diskDone, 1),
		stop: make(chan struct{}), exited: make(chan struct{}), held: core.Held{}}
	go w.loop()
	return w
}

// close stops the writer after the write under way: jobs not yet durable
// are dropped, as a crash would, and their held messages are never sent.
func (w *diskWriter) close() {
	close(w.stop)
	<-w.exited
}

func (w *diskWriter) hand(j *diskJob) {
	w.inflight = append(w.inflight, j)
	w.held.Add(j.later)
	w.bytes += j.bytes
	w.mu.Lock()
	w.queue = append(w.queue, j)
	w.mu.Unlock()
	select {
	case w.kick <- struct{}{}:
	default: // the writer will look at the queue anyway
	}
}

// finish forgets the oldest n inflight jobs, which are durable now.
func (w *diskWriter) finish(n int) {
	for _, j := range w.inflight[:n] {
		w.bytes -= j.bytes
		w.held.Release(j.later)
	}
	w.inflight = slices.Delete(w.inflight, 0, n)
}

func (w *diskWriter) loop() {
	defer close(w.exited)
	for {
		select {
		case <-w.stop:
			return
		case <-w.kick:
		}
		w.mu.Lock()
		jobs := w.queue
		w.queue = nil
		w.mu.Unlock()
		if len(jobs) == 0 {
			continue
		}
		r := diskDone{jobs: jobs, t0: mono()}
		r.err = w.write(jobs)
		r.t1 = mono()
		select {
		case w.done <- r:
		case <-w.stop:
			return
		}
		if r.err != nil {
			return // node.run stops the peer
		}
	}
}

func (w *diskWriter) write(jobs []*diskJob) error {
	for _, j := range jobs {
		if len(j.rd.Entries) == 0 {
			continue
		}
		if err := w.log.Append(j.rd.Entries); err != nil {
			return err
		}
	}
	return w.log.Sync()
}

// pipeline carries out a broadcast Ready without waiting for the disk: the
// messages that may leave early go now (unless an older message to the
// same peer is still held), the callbacks run (they deliver what a
// quorum's durable ACKs committed before), and the entries go to the disk
// writer with the messages that must wait for them.
func (n *node) pipeline(rd core.Ready) {
	now, later := n.split.SplitBehind(rd.Messages, n.disk.held)
	n.send(now)
	j := &diskJob{rd: rd, later: slices.Clone(later), bytes: entryBytes(rd.Entries)} // Split reuses its buffers
	n.stages.ordered(rd.Entries, n.cfg.ID, n.inc, mono())
	ok := n.deliverOrStop(rd.Events)
	n.trace.events(&rd) // the application has them now, whatever the disk does
	if !ok {
		return
	}
	if len(rd.Entries) == 0 && len(n.disk.inflight) == 0 {
		n.finishJob(j) // nothing to wait for
		return
	}
	n.disk.hand(j)
	if n.disk.bytes > maxInflightBytes {
		n.drain()
	}
}

func entryBytes(es []core.Entry) (n int) {
	for i := range es {
		n += len(es[i].Data)
	}
	return n
}

// finished takes the writer's answer: the jobs are durable now.
func (n *node) finished(r diskDone) {
	if r.err != nil {
		n.failure = fmt.Errorf("%w: %w", ErrStorage, r.err)
		return
	}
	entries := 0
	for _, j := range r.jobs {
		entries += len(j.rd.Entries)
		n.stages.fsynced(j.rd.Entries, n.cfg.ID, n.inc, r.t1)
	}
	n.meter.persisted(entries, time.Duration(r.t1-r.t0))
	n.disk.finish(len(r.jobs))
	for _, j := range r.jobs {
		n.finishJob(j)
	}
}

// finishJob sends what waited for the job's entries and advances the core:
// a leader counts its own ACK for them only now.
func (n *node) finishJob(j *diskJob) {
	n.trace.persisted(&j.rd)
	n.send(j.later)
	n.core.Advance(j.rd)
	n.trace.changed(n.core)
}

// drain waits until every job handed to the writer is durable and
// finished: a Ready that is not broadcast (an epoch, a truncation, a
// snapshot) or comes outside broadcast is carried out only on top of a
// log that is all on disk, as the core's durableLast assumes.
func (n *node) drain() {
	for len(n.disk.inflight) > 0 && n.failure == nil {
		n.finished(<-n.disk.done)
	}
}

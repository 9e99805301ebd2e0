package sim

import (
	"slices"

	"zablab/zab/core"
)

// The runtime hands a broadcast Ready (one that only appends entries, in
// phase Broadcast) to a disk goroutine and goes on: its early messages
// leave, its callbacks run, and its ACKs and the leader's own Advance wait
// until the fsync is done (zab/disk.go). Schedules with seeds 2 mod 4 do
// the same: the entries sit unsynced in the log (a crash keeps a prefix of
// them) until a later step finishes every job at once, as the writer's one
// fsync does.

// diskJob is a Ready whose fsync has not happened yet.
type diskJob struct {
	rd    core.Ready
	later []core.Message
}

// pipelines reports whether this schedule's peers write as the runtime's
// disk goroutine does.
func (w *world) pipelines() bool {
	return w.opts.Seed%4 == 2 && !w.opts.Bugs.AckBeforeDurable
}

// hand carries out rd's early part and queues the rest behind the disk.
func (w *world) hand(p *peer, rd core.Ready) {
	now, later := p.split.SplitBehind(rd.Messages, p.held)
	j := diskJob{rd: rd, later: slices.Clone(later)} // Split reuses its buffers
	w.recordState(p)
	w.sendAll(now)
	p.held.Add(j.later)
	_ = p.mlog.Append(rd.Entries)
	p.jobs = append(p.jobs, j)
	w.apply(p, rd.Events)
}

// fsync finishes p's queued jobs: their entries become durable, their held
// messages leave and the core is advanced, in order.
func (w *world) fsync(p *peer) {
	if len(p.jobs) == 0 || p.core == nil {
		return
	}
	_ = p.mlog.Sync()
	jobs := p.jobs
	p.jobs = nil
	clear(p.held)
	for i := range jobs {
		w.recordReady(p, &jobs[i].rd)
		w.sendAll(jobs[i].later)
		if p.core == nil {
			return
		}
		p.core.Advance(jobs[i].rd)
		w.recordState(p)
	}
}

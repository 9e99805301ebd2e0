package server

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"zablab/mwzookeeper"
	"zablab/mwzookeeper/wire"
	"zablab/zab"
)

// Limits of one connection.
const (
	// maxInflight requests of one connection may wait for their replies;
	// the reader stops reading until one is written (ZooKeeper's
	// outstanding limit, per connection).
	maxInflight = 1024
	// softQueued bytes of replies and events waiting to be written stop
	// the reader (back pressure: a burst of large reads is fine, the
	// client just waits for the next one to be read).
	softQueued = 4 * wire.MaxFrame
	// maxQueued bytes is the hard limit: only replies to requests already
	// taken (and watch events) can push the queue there; such a client is
	// disconnected rather than buffered without bound. A client that stops
	// reading is caught earlier: a write blocked for its session timeout
	// closes the connection.
	maxQueued = 64 * wire.MaxFrame
	// keepBuf is the largest buffer a slot or the writer keeps for reuse.
	keepBuf = 64 << 10
	// writeChunk bytes are written under one write deadline.
	writeChunk = 256 << 10
)

// slot is one request of a connection, from its frame to its reply. Slots
// are reused, and so is their memory: the frame the request was decoded
// from (the Request's slices alias it) stays untouched until the reply.
type slot struct {
	c     *conn
	hdr   wire.Header
	req   mwzookeeper.Request
	frame []byte
	buf   []byte // the reply, while it waits for earlier ones
	start time.Time
	seq   uint64 // the slot's place in the connection's request order
	// timed: a write answered from inside its delivery, with its Zab
	// stages and when the Service replied (stages.go).
	timed   bool
	zab     zab.WriteStages
	applied time.Time
	zxid    int64 // the Service's reply's zxid; 0 for answers the server made
	done    bool
	last    bool // closeSession: drain the connection after this reply
	// lateZxid: a reply the server made waits behind earlier ones; its
	// header zxid is set as it leaves the FIFO (fillZxid).
	lateZxid bool

	reply func(*mwzookeeper.Response) // s.complete, bound once per slot
}

// takeSlot returns a free slot, waiting while maxInflight requests are in
// flight; nil once the connection is closed.
func (c *conn) takeSlot() *slot {
	c.mu.Lock()
	defer c.mu.Unlock()
	if full := func() bool {
		return !c.closed && (len(c.pending)-c.head >= maxInflight || c.queued > softQueued)
	}; full() {
		// The client's frames (its pings too) wait in the socket while
		// the server does not read: that time is not the client's silence.
		c.stalled.Store(true)
		since := time.Now()
		for full() {
			c.room.Wait()
		}
		c.lastRecv.Add(int64(time.Since(since)))
		c.stalled.Store(false)
	}
	if c.closed {
		return nil
	}
	if n := len(c.free); n > 0 {
		s := c.free[n-1]
		c.free = c.free[:n-1]
		return s
	}
	s := &slot{c: c}
	s.reply = s.complete
	return s
}

// enqueue puts s at the end of the reply FIFO.
func (c *conn) enqueue(s *slot) {
	c.mu.Lock()
	s.done, s.zxid = false, 0
	c.seq++
	s.seq = c.seq
	c.pending = append(c.pending, s)
	c.mu.Unlock()
}

// putBack returns a slot that was never enqueued (its frame was not a
// request that gets a reply).
func (c *conn) putBack(s *slot) {
	c.mu.Lock()
	c.free = append(c.free, s)
	c.mu.Unlock()
}

// complete is the reply function given to the Service.
func (s *slot) complete(resp *mwzookeeper.Response) {
	c := s.c
	if resp.Err != nil && resp.Err != mwzookeeper.ErrUnimplemented && errors.Is(resp.Err, mwzookeeper.ErrUnimplemented) {
		// The client sees only the code; the Service's words (a stub's
		// "TODO(A5.1) in apply.go: ...") name the code to write.
		c.log.WithError(resp.Err).WithField("op", s.req.Op.String()).Warn("answered Unimplemented")
	}
	s.stampApplied(resp) // before the lock: the board is the delivery in progress now
	c.mu.Lock()
	if s.done || c.closed {
		c.mu.Unlock()
		return // after close nothing is written; a second reply is the Service's bug
	}
	s.done = true
	if errors.Is(resp.Err, mwzookeeper.ErrConnectionLoss) {
		// ZooKeeper never sends this code: a client learns it from the
		// socket, and then reconnects and retries.
		c.mu.Unlock()
		c.close("request failed with connection loss (the replica lost its leader or is stopping)")
		return
	}
	if resp.Zxid > c.zxid {
		c.zxid = resp.Zxid
	}
	s.zxid = resp.Zxid
	syncPath := s.hdr.Op == mwzookeeper.OpSync && resp.Path == "" && resp.Err == nil
	if resp.Zxid == 0 || syncPath {
		r := *resp
		if syncPath { // ZooKeeper's SyncResponse echoes the path; Services need not
			r.Path = s.req.Path
		}
		made := r.Zxid == 0 && s.hdr.Op != mwzookeeper.OpSASL
		if made { // e.g. an answer the server made: the newest zxid given (SASL's: 0, as ZooKeeper's)
			r.Zxid = c.zxid
		}
		resp = &r
		s.lateZxid = made
	}
	dst := c.target(s)
	n := len(*dst)
	*dst = wire.AppendReply(*dst, s.hdr, resp)
	c.queued += len(*dst) - n
	c.finishLocked(s)
}

// completeErr answers s with a header only (pings, unknown ops), with the
// connection's last zxid.
func (s *slot) completeErr(err error) { s.headerOnly(err, false) }

// completeAuth answers an auth packet: ZooKeeper's reply header carries
// zxid 0 there, and a client takes any zxid above 0 for the newest it has
// seen (go-zookeeper does, for an auth sent with a plain xid).
func (s *slot) completeAuth(err error) { s.headerOnly(err, true) }

func (s *slot) headerOnly(err error, zeroZxid bool) {
	c := s.c
	c.mu.Lock()
	if s.done || c.closed {
		c.mu.Unlock()
		return
	}
	s.done = true
	dst := c.target(s)
	n := len(*dst)
	zxid := c.zxid
	if zeroZxid {
		zxid = 0
	}
	s.lateZxid = !zeroZxid
	*dst = wire.AppendError(*dst, s.hdr.Xid, zxid, err)
	c.queued += len(*dst) - n
	c.finishLocked(s)
}

// target is where s's reply is encoded: straight into the outgoing buffer
// when every earlier reply is there already and no held event may have to
// precede it, else into the slot.
func (c *conn) target(s *slot) *[]byte {
	if c.pending[c.head] == s && len(c.held) == 0 {
		return &c.out
	}
	s.buf = s.buf[:0]
	return &s.buf
}

// finishLocked moves every finished reply at the head of the FIFO to the
// outgoing buffer, recycles their slots, wakes the writer and unlocks c.mu.
// c.queued already counts the replies, wherever they wait.
func (c *conn) finishLocked(done *slot) {
	start := done.start
	sent := 0
	for c.head < len(c.pending) && c.pending[c.head].done {
		s := c.pending[c.head]
		c.pending[c.head] = nil
		c.head++
		c.releaseHeld(s, true)
		c.fillZxid(s)
		c.out = append(c.out, s.buf...)
		if s.timed {
			c.timed = append(c.timed, timedReply{read: s.start, applied: s.applied, zab: s.zab})
		}
		c.releaseHeld(s, false)
		if s.last {
			c.draining = true
		}
		c.recycle(s)
		sent++
	}
	if c.head == len(c.pending) {
		c.pending, c.head = c.pending[:0], 0
	} else if c.head > maxInflight {
		n := copy(c.pending, c.pending[c.head:])
		clear(c.pending[n:])
		c.pending, c.head = c.pending[:n], 0
	}
	over := c.queued > maxQueued
	c.mu.Unlock()
	c.sent.Add(int64(sent))
	c.srv.stats.reply(start, sent)
	c.room.Signal()
	if over {
		c.close(fmt.Sprintf("more than %d MiB of replies queued for the client", maxQueued>>20))
		return
	}
	c.wakeWriter()
}

// fillZxid gives a reply the server made, which waited in s.buf behind
// earlier replies, the newest zxid of the connection's replies now, as it
// is written after them: made when it completed, its zxid could be older
// than theirs, and clients take a reply's zxid above 0 for the newest they
// have seen (the Java client's whoAmI). ZooKeeper answers in order, each
// reply with the zxid processed by then. A reply that went straight to
// c.out had every earlier one written already.
func (c *conn) fillZxid(s *slot) {
	if s.lateZxid && len(s.buf) >= 16 {
		binary.BigEndian.PutUint64(s.buf[8:16], uint64(c.zxid)) // after the length and the xid
	}
}

// recycle resets a slot whose reply is in the outgoing buffer.
func (c *conn) recycle(s *slot) {
	s.req = mwzookeeper.Request{}
	s.last, s.timed, s.lateZxid = false, false, false
	if cap(s.buf) > keepBuf {
		s.buf = nil
	}
	s.buf = s.buf[:0]
	if cap(s.frame) > keepBuf {
		s.frame = nil
	}
	c.free = append(c.free, s)
}

// event sends a watch event ahead of every reply not yet written, except
// the replies that must precede it: a watch cannot fire before the reply
// of the read that set it, as clients (go-zookeeper, Java, kazoo) register
// a watcher only when that reply arrives and drop an event nobody waits
// for. So an event waits (is held, see heldEvent) while a read that may
// have set its watch is still in the FIFO; whether it did shows in that
// read's reply: a zxid below the event's means the read ran before the
// write, one at or above it that it ran after.
func (c *conn) event(ev mwzookeeper.WatchEvent) {
	c.mu.Lock()
	if c.closed || ev.ACL != nil && !mwzookeeper.Allowed(ev.ACL, c.ids, mwzookeeper.PermRead) {
		// The watch is used up all the same, as in ZooKeeper.
		c.mu.Unlock()
		return
	}
	var anchor uint64
	for i := len(c.pending) - 1; i >= c.head; i-- {
		if s := c.pending[i]; s.watches(ev) {
			anchor = s.seq
			break
		}
	}
	if n := len(c.held); n > 0 {
		anchor = max(anchor, c.held[n-1].anchor) // events keep their order
	}
	n := len(c.out)
	if anchor == 0 {
		c.out = wire.AppendEvent(c.out, ev)
		c.queued += len(c.out) - n
	} else {
		frame := wire.AppendEvent(nil, ev)
		c.held = append(c.held, heldEvent{frame: frame, zxid: ev.Zxid, anchor: anchor})
		c.queued += len(frame)
	}
	over := c.queued > maxQueued
	c.mu.Unlock()
	c.sent.Add(1)
	c.srv.stats.reply(time.Time{}, 1)
	if over {
		c.close(fmt.Sprintf("more than %d MiB of replies and events queued for the client", maxQueued>>20))
		return
	}
	c.wakeWriter()
}

// heldEvent is a watch event waiting in the FIFO for the reply of the read
// with sequence number anchor, the last read that may have set its watch.
// Held events keep their order, and so their anchors never decrease.
type heldEvent struct {
	frame  []byte
	zxid   int64
	anchor uint64
}

// releaseHeld moves held events to the outgoing buffer as s's reply is
// written (before: just ahead of it). Ahead of s go the events s's reply
// shows to be older than what it reflects (s ran after their write, so the
// client must see them first, and no read that set their watch comes
// later: session order keeps zxids rising); after s go the events s
// anchors, which s's reply did not show to be older.
func (c *conn) releaseHeld(s *slot, before bool) {
	i := 0
	for ; i < len(c.held); i++ {
		h := &c.held[i]
		if before && (s.zxid <= 0 || h.zxid > s.zxid) || !before && h.anchor != s.seq {
			break
		}
		c.out = append(c.out, h.frame...)
	}
	if i > 0 {
		n := copy(c.held, c.held[i:])
		clear(c.held[n:])
		c.held = c.held[:n]
	}
}

// watches says whether s is a read that leaves a watch ev fires: exists
// and getData leave data watches (created, deleted, data changed),
// getChildren a child watch (children changed, deleted).
func (s *slot) watches(ev mwzookeeper.WatchEvent) bool {
	if !s.req.Watch || s.req.Path != ev.Path {
		return false
	}
	switch s.req.Op {
	case mwzookeeper.OpGetData, mwzookeeper.OpExists:
		return ev.Type != mwzookeeper.EventNodeChildrenChanged
	case mwzookeeper.OpGetChildren, mwzookeeper.OpGetChildren2:
		return ev.Type == mwzookeeper.EventNodeChildrenChanged || ev.Type == mwzookeeper.EventNodeDeleted
	}
	return false
}

// send queues a frame the reader built (the connect response).
func (c *conn) send(frame []byte) {
	c.mu.Lock()
	c.out = append(c.out, frame...)
	c.queued += len(frame)
	c.mu.Unlock()
	c.wakeWriter()
}

func (c *conn) wakeWriter() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// drain stops taking requests; the connection closes once every reply it
// owes is written.
func (c *conn) drain() {
	c.mu.Lock()
	c.draining = true
	c.mu.Unlock()
	c.wakeWriter()
}

// writeLoop writes whatever has piled up in one write: replies are batched
// while the socket is busy.
func (c *conn) writeLoop() {
	defer c.srv.others.Done()
	for {
		c.mu.Lock()
		for len(c.out) == 0 && !c.closed && !(c.draining && c.head == len(c.pending)) {
			c.mu.Unlock()
			select {
			case <-c.wake:
			case <-c.done:
			}
			c.mu.Lock()
		}
		if c.closed {
			c.mu.Unlock()
			return
		}
		buf, timed := c.out, c.timed
		c.out, c.spare = c.spare[:0], nil
		c.timed, c.spareTmd = c.spareTmd[:0], nil
		c.queued -= len(buf)
		c.mu.Unlock()
		c.room.Signal()    // the reader may wait for the queue to shrink
		if len(buf) == 0 { // draining, nothing owed
			c.closeQuiet("session closed")
			return
		}
		if err := c.write(buf); err != nil {
			c.close("write failed: " + errText(err) + " (the client does not read)")
			return
		}
		observeStages(timed, time.Now())
		c.mu.Lock()
		if cap(buf) <= keepBuf {
			c.spare = buf[:0]
		}
		c.spareTmd = timed[:0]
		c.mu.Unlock()
	}
}

// write writes buf in pieces of writeChunk bytes, each with a deadline of
// the session timeout: a client that reads nothing for that long is gone
// or stuck and is disconnected, not waited for, but one that drains a large
// burst slowly keeps its connection.
func (c *conn) write(buf []byte) error {
	for len(buf) > 0 {
		n := min(len(buf), writeChunk)
		c.nc.SetWriteDeadline(time.Now().Add(time.Duration(c.timeout.Load()) * time.Millisecond))
		if _, err := c.nc.Write(buf[:n]); err != nil {
			return err
		}
		buf = buf[n:]
	}
	return nil
}

func errText(err error) string {
	var ne interface{ Timeout() bool }
	if errors.As(err, &ne) && ne.Timeout() {
		return "timeout"
	}
	return err.Error()
}

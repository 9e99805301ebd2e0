package server

import (
	"errors"
	"fmt"
	"time"

	"zablab/mwzookeeper"
	"zablab/mwzookeeper/wire"
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
	after []byte // watch events that must follow this reply (see event)
	start time.Time
	done  bool
	last  bool // closeSession: drain the connection after this reply

	reply func(*mwzookeeper.Response) // s.complete, bound once per slot
}

// takeSlot returns a free slot, waiting while maxInflight requests are in
// flight; nil once the connection is closed.
func (c *conn) takeSlot() *slot {
	c.mu.Lock()
	defer c.mu.Unlock()
	for !c.closed && (len(c.pending)-c.head >= maxInflight || c.queued > softQueued) {
		c.room.Wait()
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
	s.done = false
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
	if s.hdr.Op == mwzookeeper.OpSync && resp.Path == "" && resp.Err == nil {
		r := *resp // ZooKeeper's SyncResponse echoes the path; Services need not
		r.Path = s.req.Path
		resp = &r
	}
	dst := c.target(s)
	n := len(*dst)
	*dst = wire.AppendReply(*dst, s.hdr, resp)
	c.queued += len(*dst) - n
	c.finishLocked(s)
}

// completeErr answers s with a header only (pings, auth, unknown ops).
func (s *slot) completeErr(err error) {
	c := s.c
	c.mu.Lock()
	if s.done || c.closed {
		c.mu.Unlock()
		return
	}
	s.done = true
	dst := c.target(s)
	n := len(*dst)
	*dst = wire.AppendError(*dst, s.hdr.Xid, c.zxid, err)
	c.queued += len(*dst) - n
	c.finishLocked(s)
}

// target is where s's reply is encoded: straight into the outgoing buffer
// when every earlier reply is there already, else into the slot.
func (c *conn) target(s *slot) *[]byte {
	if c.pending[c.head] == s {
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
		c.out = append(c.out, s.buf...)
		c.out = append(c.out, s.after...)
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

// recycle resets a slot whose reply is in the outgoing buffer.
func (c *conn) recycle(s *slot) {
	s.req = mwzookeeper.Request{}
	s.last = false
	if cap(s.buf) > keepBuf {
		s.buf = nil
	}
	s.buf = s.buf[:0]
	s.after = s.after[:0]
	if cap(s.frame) > keepBuf {
		s.frame = nil
	}
	c.free = append(c.free, s)
}

// event puts a watch event ahead of every reply not yet written, except
// the reply of a read still waiting here that may have left the watch the
// event answers: a watch cannot fire before it was set, and clients
// (go-zookeeper, Java, kazoo) register a watcher only when that reply
// arrives and drop an event nobody waits for. The event then follows the
// last such reply; at worst a watcher set by a later read wakes early.
func (c *conn) event(ev mwzookeeper.WatchEvent) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	dst := &c.out
	for i := len(c.pending) - 1; i >= c.head; i-- {
		if s := c.pending[i]; s.watches(ev.Path) {
			dst = &s.after
			break
		}
	}
	n := len(*dst)
	*dst = wire.AppendEvent(*dst, ev)
	c.queued += len(*dst) - n
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

// watches says whether s is a read that leaves a watch on path.
func (s *slot) watches(path string) bool {
	switch s.req.Op {
	case mwzookeeper.OpGetData, mwzookeeper.OpExists, mwzookeeper.OpGetChildren, mwzookeeper.OpGetChildren2:
		return s.req.Watch && s.req.Path == path
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
		buf := c.out
		c.out, c.spare = c.spare[:0], nil
		c.queued -= len(buf)
		c.mu.Unlock()
		c.room.Signal()    // the reader may wait for the queue to shrink
		if len(buf) == 0 { // draining, nothing owed
			c.closeQuiet("session closed")
			return
		}
		// A client that reads nothing for its whole session timeout is
		// gone or stuck: it is disconnected, not waited for.
		c.nc.SetWriteDeadline(time.Now().Add(time.Duration(c.timeout.Load()) * time.Millisecond))
		if _, err := c.nc.Write(buf); err != nil {
			c.close("write failed: " + errText(err) + " (the client does not read)")
			return
		}
		c.mu.Lock()
		if cap(buf) <= keepBuf {
			c.spare = buf[:0]
		}
		c.mu.Unlock()
	}
}

func errText(err error) string {
	var ne interface{ Timeout() bool }
	if errors.As(err, &ne) && ne.Timeout() {
		return "timeout"
	}
	return err.Error()
}

// Package transport carries the Zab protocol's messages (core.Message)
// between the peers of an ensemble. It has one small interface and two
// implementations of it:
//
//	type Transport interface {
//		Send(m core.Message)       // never blocks; drops when the peer's queue is full
//		Recv() <-chan core.Message // every message received from any peer
//		Close() error              // returns when every goroutine it started has ended
//	}
//
// TCP is for real deployments; MemNetwork hands out in-memory endpoints for
// tests of the runtime, where a partition is one call. TCP's Recv also
// carries a local core.MsgPeerLost when a connection to a peer fails (not
// when a newer one replaces it): a follower whose leader's process died
// goes LOOKING at once, as ZooKeeper's follower does when the socket fails.
//
// # Using it
//
// The runtime goroutine that owns the Zab core feeds it what arrives and
// sends what its Ready says to send:
//
//	tr, err := transport.NewTCP(transport.TCPConfig{
//		ID:     1,
//		Peers:  map[uint64]string{1: "127.0.0.1:2881", 2: "127.0.0.1:2882", 3: "127.0.0.1:2883"},
//		Logger: log,
//	})
//	if err != nil {
//		return err
//	}
//	defer tr.Close()
//	for {
//		select {
//		case m := <-tr.Recv():
//			c.Step(m, now())
//		case <-ticker.C:
//			c.Tick(now())
//		}
//		rd := c.Ready()
//		// ... persist what rd says to persist, then:
//		for _, m := range rd.Messages {
//			tr.Send(m)
//		}
//		c.Advance(rd)
//	}
//
// The transport listens on Peers[ID] (or on TCPConfig.Listen, or on a
// listener handed in: tests listen on 127.0.0.1:0 first, so they know every
// address before any peer starts; Addr reports the port the kernel chose).
//
// # Framing
//
// Every frame is a 4-byte big-endian length followed by that many bytes of
// payload. A message's payload starts with a version byte (Version, 1) and
// the message type; then a byte of flags packs the booleans and says
// whether a Snapshot and Entries follow; every number is a varint, so the
// many zero fields of a typical message cost a byte each and a PING or an
// ACK is about 25 bytes. AppendMessage documents the exact layout.
//
// The decoder trusts nothing. It refuses an unknown version (ErrVersion), a
// length above MaxFrame, 256 MiB, or the connection's smaller limit
// (ErrTooLarge), and everything else that is not exactly one well-formed
// message: an unknown type, role or mode, unknown flag bits, a length or an
// entry count the remaining bytes cannot hold, trailing bytes (ErrMalformed).
// It never panics and never allocates more than the input could fill; it
// is fuzzed. The limit is generous because a SNAP carries the whole
// application state in one message.
//
// # Handshake, and who dials whom
//
// Each pair of peers shares one TCP connection, used in both directions.
// The peer with the lower id dials; the higher one only accepts. So there
// is never a pair of crossing connections to choose between, and no tie to
// break. The dialer's first frame is a handshake:
//
//	"ZABT" version dialer's-id target's-id
//
// and the acceptor answers with the mirror image before any message flows.
// The acceptor closes, and logs at WARN, a connection whose handshake is
// garbage, of another version, from an unknown id, from an id that should
// have been dialed instead, or meant for another peer (a peer map pointing
// at the wrong port). A handshake must arrive within HandshakeTimeout, so a
// silent stranger cannot hold on to a goroutine.
//
// A dialer that loses its connection, or fails to connect, tries again
// after a backoff: MinBackoff (10 ms) doubling up to MaxBackoff (1 s). The
// acceptor keeps the newest connection from each peer and closes the older
// one: a peer that dials again has given up on the old connection, for
// instance because it restarted. TCP keep-alive (Go's default) finds
// connections to hosts that vanished without a word.
//
// # Backpressure
//
// Each peer has a send queue of QueueLen messages (4096). Send puts the
// message in the queue, or, if the queue is full, drops it and counts the
// drop (Stats). It never blocks and the queue never grows: the core's
// goroutine must not stall behind one slow or dead follower, and Zab does
// not need a reliable transport, because the core retransmits what matters
// on its ticks and restarts a follower's session after a gap.
//
// One goroutine per connection writes the queue through a 64 KiB
// bufio.Writer and flushes only when the queue is empty (or after 1024
// messages), so a burst of PROPOSEs and ACKs shares a syscall while a lone
// PING still leaves at once; Nagle's algorithm is off (TCP_NODELAY), since
// the writer does its own batching. A message larger than MaxFrame is
// dropped and logged at ERROR instead of sent: the receiver would refuse it.
//
// Another goroutine per connection reads. When Recv's queue (also QueueLen)
// is full it waits, the kernel's buffers fill, the sender's writes stall,
// and the sender's queue fills and drops: the pressure ends where dropping
// is safe. A malformed or oversized frame, or a message whose From and To
// do not match the connection, closes that connection only, with an ERROR
// naming the peer and the remote address; the dialer reconnects.
//
// Messages queued while a peer is unreachable wait in its queue and go out
// after the reconnect; messages in flight when a connection breaks are
// lost. Each peer's messages arrive in the order it sent them.
//
// # Logging
//
// Entries carry the fields peer (the other peer's id) and remote (its
// address). Connecting, disconnecting and the first failure to connect are
// INFO, rejected connections WARN, bad frames ERROR; repeated dial failures
// and dropped messages only DEBUG: nothing per message above DEBUG.
//
// # In-memory network
//
// MemNetwork connects endpoints without sockets or goroutines. Endpoint(id)
// returns peer id's Transport (a fresh one after Close: a restart), Cut and
// Heal break and mend one direction of one pair, Partition splits the
// ensemble into groups. Messages pass through the codec, so a test sees
// exactly what TCP would deliver.
package transport

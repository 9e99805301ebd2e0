// Package trace records what a Zab peer does — its roles, every message
// it sends and receives, what it logs and delivers, its starts, stops and
// crashes — as a sequence of small events, so that a run can be drawn as
// a timeline (package zab/trace/timeline) and stepped through.
//
// Two sources write the same events. The simulator (zab/sim) records a
// whole ensemble in one sequence, in the order things happened, with the
// world's events (partitions, heals, the violation an invariant check
// found) between the peers'. A real peer writes its own trace file when
// its properties name one (trace.file; see package zab): one JSON line
// per event (AppendJSON, Writer), appended across restarts, bounded in
// size, flushed once per batch of work and never synced.
//
// The files of the peers of one run are put together by Merge, which
// orders them by their messages, not by the peers' clocks: a receipt is
// matched to its send by the link (from, to), the message's fingerprint
// and the link's FIFO order, every event comes after its predecessor on
// its peer and every receipt after its send, and each event gets a
// Lamport clock. cmd/zab-trace does that and draws the result:
//
//	zab-trace --html run.html data/trace/peer1.trace data/trace/peer2.trace data/trace/peer3.trace
//
// docs/pictures.md shows the pictures and how to read them.
package trace

// Command zab-trace merges the trace files of an ensemble's peers (written
// when their properties set trace.file) into one timeline page:
//
//	zab-trace --html run.html data/trace/peer1.trace data/trace/peer2.trace data/trace/peer3.trace
//
// The events are ordered by their messages — every receipt after its
// send, matched by link, fingerprint and FIFO order — not by the peers'
// clocks (package zab/trace). A peer killed with -9 and started again
// shows a crash where its trace ends without a stop record. make run
// TRACE=1 writes the traces; make trace-html draws them.
package main

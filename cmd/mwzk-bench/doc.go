// Command mwzk-bench measures our 3-server ensemble side by side with
// Apache ZooKeeper's on the same machine: the same go-zookeeper load
// generator, the same tick settings (ZooKeeper's defaults: tickTime 2000,
// initLimit 10, syncLimit 5), fresh ensembles, the systems alternating.
//
// For every load (writes and reads of 1 KiB values with 1, 32 and 128
// closed-loop clients, 90 % reads, create+delete, 8 requests pipelined per
// client, 64 KiB values, a watch load with 1,024 watches standing) it
// measures operations per second, p50/p99/p999 latency and the servers'
// CPU time per operation (from /proc); then each server's RSS, the time
// from kill -9 of a follower, and of the leader (on fresh ensembles), to
// the next write a client acknowledges. Everything runs twice by default,
// so the table shows the noise of two identical runs beside each ratio.
//
// The results go to a JSON file (--out); --baseline compares a run with an
// earlier one. make bench builds the server and runs it; Apache ZooKeeper
// comes from Debian's zookeeper package (.ci/run installs it).
package main

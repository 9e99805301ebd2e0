// Command mwzk-server runs one MWZooKeeper peer: a Service (the reference
// solution or the student's) behind ZooKeeper's client protocol, configured
// by the peer's properties file.
//
//	mwzk-server --config peer1.properties [--impl solution|assignment] [--trace-dir DIR]
//
// --impl picks the Service: the reference solution (the default where the
// tree has it) or the student's stubs in assignments/aufgabe5. --trace-dir
// has the peer's Zab write its trace to DIR/<config name>.trace (the
// trace.file key; zab-trace draws the traces of an ensemble).
//
// The file holds Zab's keys (myid, peer<i>, dataLogDir, tickTime, ...), the
// logging keys (log.level, log.file, log.format) and the server's:
// clientPort (required), clientPortAddress (default 127.0.0.1),
// maxClientCnxns (per client IP, default 60, 0 = unlimited),
// minSessionTimeout and maxSessionTimeout (ms, default 2 and 20 ticks).
// SIGTERM or SIGINT stops the peer cleanly (sessions are left to expire
// or to move to another peer) and it exits 0. A bad configuration is one
// error line naming the file, the line and the key, and exit code 2. A
// start that fails on something outside the file (a port or a data folder
// another process holds) names the key too and exits 1, as a failure
// while running does: the same command may succeed later.
package main

// Package interop runs Debian's real ZooKeeper clients against an
// MWZooKeeper ensemble: the proof that the server speaks ZooKeeper's
// client protocol well enough for software nobody wrote for it.
//
// The package has no code, only tests. Each test starts a 3-peer ensemble
// of the reference Service (solutions/aufgabe5) behind server.Server in
// this process, on free ports of 127.0.0.1, and drives one client:
//
//   - zkCli.sh, ZooKeeper's Java shell (Debian package zookeeper), fed
//     a batch of commands on standard input: create (plain, -e, -s),
//     get -s, set (also with a wrong -v), stat, ls, delete, sync, and the
//     errors ZooKeeper prints for them;
//   - cli_mt, ZooKeeper's C client (package zookeeper-bin), driven one
//     command at a time: create (plain, +e, +s), get, set, ls, exists,
//     sync, delete, and its error codes;
//   - kazoo, the Python client (package python3-kazoo, run with
//     /usr/bin/python3): create, get, set, children, delete, versions,
//     ephemerals and their owner, sequential names, data and child watches.
//
// Every check writes on one peer and reads on another (after a sync), so
// it also checks replication. A test whose client is missing is skipped
// and says which package to install; with ZABLAB_INTEROP_REQUIRED=1 (CI's
// .ci/run sets it, after installing the packages) it fails instead.
//
// The expectations are ZooKeeper's own: ZABLAB_INTEROP_TARGET=zookeeper
// runs the same tests against Debian's ZooKeeper server (one standalone
// server, started with java) instead of ours, which is how they were
// checked:
//
//	go test ./interop -v
//	ZABLAB_INTEROP_TARGET=zookeeper go test ./interop -v
//
// In a tree without solutions/ (a student's handout) there is no
// reference to run and the tests skip. ZABLAB_LOG=debug shows the peers'
// logs.
package interop

// Package zktest starts a server that speaks ZooKeeper's client protocol
// for the tests of the client, its recipes and the CLI.
//
// By default the server is the project's own (package server running the
// reference service, one peer in this process). With ZABLAB_REAL_ZK=1 it
// is Apache ZooKeeper from Debian's zookeeper package, started as a Java
// process, so the same tests cross-check the semantics against the real
// thing; the tests skip with a clear message where Java or ZooKeeper is
// missing. A tree without solutions/ (the student's handout) uses Apache
// ZooKeeper where it is installed.
//
// A test package shares one server (start it lazily with Addrs, stop it in
// TestMain with Main); each test works under its own root node (Root) so
// tests do not see each other's nodes.
package zktest

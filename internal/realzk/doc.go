// Package realzk starts Debian's Apache ZooKeeper (a JVM) for tests: one
// standalone server (Start, or StartT in a test) or an ensemble
// (StartEnsemble). Each JVM is ours: it is killed by its PID, never by
// name, and dies with the test binary (Pdeathsig). Where java or the jars
// are missing the functions return an error that wraps ErrMissing, and
// StartT skips the test.
//
// ZABLAB_ZK_CLASSPATH replaces the class path of Debian's jars for other
// layouts; ZABLAB_REALZK_ADDR makes StartT use a server already running
// there instead of starting one.
package realzk

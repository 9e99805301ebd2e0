// Package procs starts the child processes of tests so that none outlives
// its test.
//
// A test that runs a server, a JVM or a shell script must not leave it
// behind when the test fails, times out, panics or is interrupted: an
// orphaned mwzk-server holds its ports and data folder and makes the next
// run fail in a confusing way. Start puts the child in a process group of
// its own (so its own children, such as the java that zkCli.sh starts, go
// with it), asks Linux to kill it when the test binary dies (a parent-death
// signal, which also covers go test's timeout panic, where cleanups do not
// run), and registers a t.Cleanup that kills the whole group and reaps it.
//
// The parent-death signal fires when the thread that started the child
// exits; Go's runtime keeps its threads alive unless a goroutine locked to
// one ends, which these tests never do.
//
// The other way round, StopWithGoRun keeps a command started through
// `go run` (the grader, the handout's builder) from outliving the go
// command when only that is killed.
package procs

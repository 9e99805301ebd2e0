// Command mwzk-run starts a whole MWZooKeeper ensemble in the foreground:
// one mwzk-server process per peer file of a folder, with every line a
// peer prints prefixed by its name.
//
//	mwzk-run --ensemble testdata/ensemble3 [--bin bin/mwzk-server] [--impl solution|assignment]
//
// For each file peerN.properties of the folder it runs
//
//	<bin> --config <folder>/peerN.properties [--impl <impl>]
//
// Without --impl the server runs its own default: the reference where it is
// compiled in (cmd/mwzk-server's impls_solution.go), else the student's
// Service, as in the student's handout, which has no reference.
//
// prints "[peerN] " before each line of that process's standard output and
// error, and then a banner that says how to connect (make cli, Debian's
// zkCli.sh, the four-letter word ruok through nc). Ctrl-C or SIGTERM is
// forwarded once to every peer; a second one kills them. mwzk-run waits for
// all peers and exits 0 when they all stopped cleanly.
//
// A peer that exits while no stop was asked for (it crashed, or someone
// ran kill -9 on it to watch a failover) is reported with its exit status
// and the command that restarts it; the others keep running unless
// --stop-on-failure is given. mwzk-run then exits 1 when it is stopped.
//
// It runs built binaries, never `go run`: the peer's PID is the server's
// own, so signals and kill -9 reach the server itself. `make run` builds
// bin/mwzk-server and bin/mwzk-run and starts testdata/ensemble3.
package main

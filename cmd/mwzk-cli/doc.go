// Command mwzk-cli is a zkCli-like shell for MWZooKeeper (and any
// ZooKeeper):
//
//	mwzk-cli [-server host:port[,host:port...]] [-timeout ms] [command args...]
//
// Without a command it reads commands from standard input, with a prompt
// when that is a terminal; with one it runs it and exits, non-zero if it
// failed. MWZK_CLI_CONNECT_TIMEOUT (a Go duration, default 10s) bounds
// the wait for a session. The shell itself is package zablab/client/shell.
package main

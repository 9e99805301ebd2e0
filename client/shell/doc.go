// Package shell is mwzk-cli's command interpreter: a zkCli-like shell on
// a client.MWZooKeeper. It reads commands line by line (interactively
// with a prompt, or from a pipe, or one command given as arguments) and
// prints what zkCli prints, so what a student learns on one works on the
// other:
//
//	[mwzk: 127.0.0.1:13181(CONNECTED) 0] create /app hello
//	Created /app
//	[mwzk: 127.0.0.1:13181(CONNECTED) 1] get -s /app
//	hello
//	cZxid = 0x100000002
//	ctime = Mon Nov 23 10:36:42 UTC 2026
//	...
//	[mwzk: 127.0.0.1:13181(CONNECTED) 2] delete /nope
//	Node does not exist: /nope
//
// Errors go to the error stream with zkCli's wording for each ZooKeeper
// code; Exec returns them, so a script knows a command failed. Watches
// (get -w, stat -w, ls -w) print zkCli's WATCHER:: block when they fire,
// unless printwatches is off.
package shell

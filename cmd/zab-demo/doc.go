// Command zab-demo is a Zab peer whose application state is the list of
// delivered lines. It proposes every line read from standard input and
// prints what the library tells it:
//
//	DELIVER <zxid> <timestamp RFC3339Nano> <proposer-id> <message>
//	STATUS <LOOKING|FOLLOWING|LEADING> <leader>
//	SYNC <zxid>
//	RESTORE <zxid> <lines>                (SetState: a snapshot was installed)
//	STATE <lines> <sha256 of the lines>   (answer to the input line "!state")
//
// Zxids print as 0x followed by hex digits, as in the library's log. The
// input line "!sync" calls Sync instead of proposing. While there is no
// leader a typed line waits (up to 30 s) and the demo says so on standard
// error. The library logs at WARN unless --log-level or the log.level key
// says otherwise, so its lines do not drown the DELIVER output. It runs
// until SIGINT or SIGTERM.
package main

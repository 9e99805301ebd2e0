package main

import (
	"strconv"
	"strings"
	"syscall"
)

// Commands typed while the ensemble runs (one per line): the fault demos
// of the course without a second terminal, and a restart that keeps the
// peer under the launcher (its output prefixed, Ctrl-C stopping it).
const commandHelp = `commands: kill N (kill -9 peer N), restart N (start peer N again), help`

// command carries out one typed line.
func (sv *supervisor) command(line string) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return
	}
	con := sv.l.con
	// A line not understood is named, so that the operator sees it was
	// read and what was wrong with it.
	switch {
	case f[0] == "help":
		con.say("%s", commandHelp)
		return
	case f[0] != "kill" && f[0] != "restart":
		con.say("%q is not a command; %s", strings.TrimSpace(line), commandHelp)
		return
	case len(f) != 2:
		con.say("%q needs one peer number; %s", strings.TrimSpace(line), commandHelp)
		return
	}
	i, ok := sv.peerIndex(f[1])
	if !ok {
		con.say("%s %s: no such peer (1..%d); %s", f[0], f[1], len(sv.kids), commandHelp)
		return
	}
	c := sv.kids[i]
	switch {
	case sv.stopping:
		con.say("stopping: %s ignored", line)
	case f[0] == "kill" && !c.running:
		con.say("%s is not running; restart %d starts it", c.name, i+1)
	case f[0] == "kill":
		con.say("kill -9 %s (pid %d)", c.name, c.cmd.Process.Pid)
		c.cmd.Process.Signal(syscall.SIGKILL) //nolint:errcheck // its exit is reported
	case c.running:
		con.say("%s runs (pid %d): kill %d first", c.name, c.cmd.Process.Pid, i+1)
	default:
		sv.restart(i)
	}
}

// peerIndex reads "2" or "peer2".
func (sv *supervisor) peerIndex(s string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimPrefix(s, "peer"))
	if err != nil || n < 1 || n > len(sv.kids) {
		return 0, false
	}
	return n - 1, true
}

func (sv *supervisor) restart(i int) {
	c, err := sv.l.startOne(i, sv.l.peers[i])
	if err != nil {
		sv.l.con.say("restart: %v", err)
		return
	}
	sv.kids[i] = c
	sv.live++
	sv.watch(c)
	sv.l.con.say("restarted %s (pid %d)", c.name, c.cmd.Process.Pid)
}

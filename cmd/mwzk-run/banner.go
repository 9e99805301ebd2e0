package main

import (
	"fmt"
	"os/exec"
	"strings"
)

// zkCli is where Debian's zookeeper package puts ZooKeeper's own shell.
const zkCli = "/usr/share/zookeeper/bin/zkCli.sh"

// banner says what runs and how to connect to it.
func (l *launcher) banner(kids []*child) {
	var pids, addrs []string
	for _, c := range kids {
		pids = append(pids, fmt.Sprintf("%s=%d", c.name, c.cmd.Process.Pid))
		if c.clientPort > 0 {
			addrs = append(addrs, fmt.Sprintf("127.0.0.1:%d", c.clientPort))
		}
	}
	l.con.say("started %d peers (%s); Ctrl-C stops them all", len(kids), strings.Join(pids, " "))
	if len(addrs) == 0 {
		l.con.say("no peer file has a clientPort key: clients cannot connect")
		return
	}
	l.con.say("connect with:")
	l.con.say("  make cli                                  (another terminal: the shell, on all peers)")
	l.con.say("  ./bin/mwzk-cli -server %s", strings.Join(addrs, ","))
	if _, err := exec.LookPath(zkCli); err == nil {
		l.con.say("  %s -server %s", zkCli, addrs[0])
	} else {
		l.con.say("  zkCli.sh -server %s   (Debian: apt-get install zookeeper)", addrs[0])
	}
	if _, err := exec.LookPath("nc"); err == nil {
		l.con.say("  echo ruok | nc %s              (a four-letter word; srvr, stat, mntr too)", strings.Replace(addrs[0], ":", " ", 1))
	}
}

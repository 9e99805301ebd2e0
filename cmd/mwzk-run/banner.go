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
	l.con.say("started %s (%s); Ctrl-C stops them all", plural(len(kids), "peer"), strings.Join(pids, " "))
	if len(addrs) == 0 {
		l.con.say("no peer file has a clientPort key: clients cannot connect")
		return
	}
	l.con.say("connect with:")
	if strings.Join(addrs, ",") == defaultServers {
		l.con.say("  make cli                                  (another terminal: the shell, on all peers)")
	} else {
		l.con.say("  make cli SERVER=%s   (another terminal: the shell, on all peers)", strings.Join(addrs, ","))
	}
	l.con.say("  ./bin/mwzk-cli -server %s", strings.Join(addrs, ","))
	if _, err := exec.LookPath(zkCli); err == nil {
		l.con.say("  %s -server %s", zkCli, addrs[0])
	} else {
		l.con.say("  zkCli.sh -server %s   (Debian: apt-get install zookeeper)", addrs[0])
	}
	if _, err := exec.LookPath("nc"); err == nil {
		l.con.say("  echo ruok | nc %s              (a four-letter word; srvr, stat, mntr too)", strings.Replace(addrs[0], ":", " ", 1))
	}
	l.operatorURLs(kids)
	l.con.say("%s", "type "+commandHelp)
}

// defaultServers are make cli's default SERVER (mk/run.mk): the client
// ports of testdata/ensemble3.
const defaultServers = "127.0.0.1:13181,127.0.0.1:13281,127.0.0.1:13381"

// operatorURLs lists the admin API and metrics of the peers that have
// them.
func (l *launcher) operatorURLs(kids []*child) {
	for _, c := range kids {
		var urls []string
		if c.adminPort > 0 {
			urls = append(urls, fmt.Sprintf("http://127.0.0.1:%d/commands", c.adminPort))
		}
		if c.metrics > 0 {
			urls = append(urls, fmt.Sprintf("http://127.0.0.1:%d/metrics", c.metrics))
		}
		if len(urls) > 0 {
			l.con.say("  %s: %s", c.name, strings.Join(urls, "  "))
		}
	}
}

// plural writes "1 peer", "3 peers".
func plural(n int, what string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, what)
	}
	return fmt.Sprintf("%d %ss", n, what)
}

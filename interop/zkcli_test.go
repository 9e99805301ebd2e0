package interop

import (
	"regexp"
	"testing"
	"time"
)

// zkCli runs ZooKeeper's Java shell against addr with a batch of commands
// on standard input: one JVM for many commands. Its JVM flags trade peak
// speed for a quicker start.
func zkCli(t *testing.T, addr, commands string) string {
	t.Helper()
	t.Setenv("CLIENT_JVMFLAGS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto")
	out, _ := run(t, 60*time.Second, commands+"quit\n", zkCliPath, "-server", addr)
	return out
}

// TestZkCli: Debian's zkCli.sh creates, reads, updates and deletes znodes
// on one peer and sees the result on another, and prints ZooKeeper's
// messages for a wrong version, an existing node, a non-empty node and a
// missing one.
func TestZkCli(t *testing.T) {
	need(t, "ZooKeeper's zkCli.sh and java", "zookeeper", func() error {
		if err := executable("java")(); err != nil {
			return err
		}
		return executable(zkCliPath)()
	})
	addrs := startTarget(t)
	out := zkCli(t, addrs[0], `create /zkcli hello
create -e /zkcli/eph e
create -s /zkcli/seq- s
get -s /zkcli
set /zkcli world
stat /zkcli
ls /zkcli
get -s /zkcli/eph
set -v 0 /zkcli again
create /zkcli dup
delete /zkcli
delete /missing
`)
	inOrder(t, "zkCli.sh on peer1", out,
		"Created /zkcli\n", "Created /zkcli/eph\n", "Created /zkcli/seq-0000000001\n",
		"hello\n", "cversion = 2\n", "dataVersion = 0\n", "ephemeralOwner = 0x0\n", "dataLength = 5\n", "numChildren = 2\n",
		"dataVersion = 1\n", "dataLength = 5\n", // stat after set
		"[eph, seq-0000000001]\n",
		"e\n", "cversion = 0\n", "ephemeralOwner = 0x", "dataLength = 1\n",
		"version No is not valid : /zkcli\n",
		"Node already exists: /zkcli\n",
		"Node not empty: /zkcli\n",
		"Node does not exist: /missing\n")
	if m := regexp.MustCompile(`ephemeralOwner = (0x[0-9a-f]+)\n`).FindAllStringSubmatch(out, -1); len(m) != 3 || m[2][1] == "0x0" {
		t.Fatalf("zkCli.sh: want the ephemeral's owner (a session id) in the third stat, got %q; output:\n%s", m, out)
	}
	// The first shell has quit, closing its session: its ephemeral is gone
	// on every peer; after a sync the third peer has the update too.
	out = zkCli(t, addrs[2], `sync /zkcli
ls /zkcli
get /zkcli
delete /zkcli/seq-0000000001
delete /zkcli
ls /zkcli
`)
	inOrder(t, "zkCli.sh on peer3", out,
		"Sync is OK\n", "[seq-0000000001]\n", "world\n", "Node does not exist: /zkcli\n")
}

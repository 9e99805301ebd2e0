package shell_test

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"zablab/client/internal/zktest"
	"zablab/client/shell"
	"zablab/internal/realzk"
	"zablab/mwzookeeper"
)

// onBoth runs compare on Debian's ZooKeeper 3.8 and on the package's
// server (zktest.Shared, the reference, which checks ACLs as ZooKeeper):
// zkCli and our shell must print the same on each.
func onBoth(t *testing.T, compare func(t *testing.T, addr string)) {
	t.Run("zookeeper", func(t *testing.T) { compare(t, realzk.StartT(t)) })
	t.Run("ours", func(t *testing.T) { compare(t, zktest.Shared(t).Addrs[0]) })
}

// sameAsZkCli feeds script (ROOT standing for a root of its own) to zkCli
// and to our shell on addr, and fails unless they print the same, stat
// values normalized and bracketed lists sorted (ZooKeeper answers
// getEphemerals from a hash set).
func sameAsZkCli(t *testing.T, addr, script string) {
	t.Helper()
	zkcli, err := zktest.ZkCliCommand(addr)
	if err != nil {
		t.Skip(err)
	}
	ours, theirs := zktest.Root(t)+"-ours", zktest.Root(t)+"-zkcli"
	zkcli.Stdin = strings.NewReader(strings.ReplaceAll(script, "ROOT", theirs) + "quit\n")
	var zkOut bytes.Buffer
	zkcli.Stdout, zkcli.Stderr = &zkOut, &zkOut
	if err := zkcli.Start(); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(60*time.Second, func() { zkcli.Process.Kill() })
	zkcli.Wait() // zkCli exits non-zero after a failed command: not our concern
	timer.Stop()
	out := &syncBuffer{}
	sh := shell.New(addr, shell.Options{Out: out, Err: out, ConnectTimeout: 20 * time.Second})
	if err := sh.Connect(); err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	sh.Run(strings.NewReader(strings.ReplaceAll(script, "ROOT", ours)+"quit\n"), false)
	clean := func(s, root string) string {
		return eventsLast(sortLists(normalize(zkCliNoise.ReplaceAllString(strings.ReplaceAll(s, root, "R"), ""))))
	}
	if got, want := clean(out.String(), ours), clean(zkOut.String(), theirs); got != want {
		t.Fatalf("mwzk-cli and zkCli differ on %s.\nmwzk-cli:\n%s\nzkCli:\n%s\n%s", addr, got, want, firstDiff(got, want))
	}
}

// eventsLast moves the WatchedEvent lines, in their order, after the
// others: both shells print an event when it comes, racing the output of
// the command typed next, so only the order of the events among
// themselves and of the other lines among themselves is compared.
func eventsLast(s string) string {
	var other, events []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "WatchedEvent ") {
			events = append(events, l)
		} else {
			other = append(other, l)
		}
	}
	return strings.Join(append(other, events...), "\n")
}

var bracketed = regexp.MustCompile(`(?m)^\[(.*)\]$`)

func sortLists(s string) string {
	return bracketed.ReplaceAllStringFunc(s, func(l string) string {
		items := strings.Split(l[1:len(l)-1], ", ")
		slices.Sort(items)
		return "[" + strings.Join(items, ", ") + "]"
	})
}

// TestACLCommandsLikeZkCli: getAcl, setAcl (versions, -R, bad letters,
// bad entries, bad schemes), addauth, create with an ACL, whoami.
func TestACLCommandsLikeZkCli(t *testing.T) {
	if testing.Short() {
		t.Skip("starts JVMs")
	}
	hash := mwzookeeper.DigestOf("ada:secret")
	onBoth(t, func(t *testing.T, addr string) { aclScript(t, addr, hash) })
}

func aclScript(t *testing.T, addr, hash string) {
	sameAsZkCli(t, addr, strings.ReplaceAll(`create ROOT ""
create ROOT/a one
getAcl ROOT/a
getAcl -s ROOT/a
setAcl ROOT/a world:anyone:rw
getAcl ROOT/a
setAcl -v 7 ROOT/a world:anyone:cdrwa
setAcl -s -v 1 ROOT/a world:anyone:cdrwa
setAcl ROOT/a world:anyone:rxz
setAcl ROOT/a nonsense
setAcl ROOT/a foo:bar:r
setAcl ROOT/nope world:anyone:r
getAcl ROOT/nope
create ROOT/ip i ip:127.0.0.1/8:r
getAcl ROOT/ip
set ROOT/ip x
create ROOT/d d digest:HASH:cdrwa,world:anyone:r
get ROOT/d
set ROOT/d x
getAcl ROOT/d
create ROOT/m m auth::cdrwa
whoami
addauth digest ada:secret
whoami
set ROOT/d x
getAcl ROOT/d
create ROOT/m m auth::cdrwa
getAcl ROOT/m
create ROOT/e e nonsense
getAcl
setAcl ROOT/a
`, "HASH", hash))
}

// TestModesAndBeyondLikeZkCli: create -c and -t with zkCli's checks,
// getEphemerals, getAllChildrenNumber, addWatch and removewatches. Events
// are triggered by commands that print nothing (set, delete): zkCli
// prints events on a thread of its own, racing the next command's output.
func TestModesAndBeyondLikeZkCli(t *testing.T) {
	if testing.Short() {
		t.Skip("starts JVMs")
	}
	onBoth(t, modesScript)
}

// TestSubtreeCommandsLikeZkCli: ls -R and deleteall on a tree with a node
// that cannot be listed: zkCli lists the whole subtree first, prints
// nothing of it, and names that node.
func TestSubtreeCommandsLikeZkCli(t *testing.T) {
	if testing.Short() {
		t.Skip("starts JVMs")
	}
	onBoth(t, func(t *testing.T, addr string) {
		sameAsZkCli(t, addr, `create ROOT ""
create ROOT/a a
create ROOT/a/b b
create ROOT/n n ip:10.0.0.0/8:r
create ROOT/z z
ls -R ROOT
deleteall ROOT
ls -R ROOT/a
deleteall ROOT/a
ls ROOT
ls -R ROOT/nope
deleteall ROOT/nope
`)
	})
}

func modesScript(t *testing.T, addr string) {
	sameAsZkCli(t, addr, `create ROOT ""
create -c ROOT/box
create ROOT/box/x x
create -t 10000 ROOT/ttl t
create -s -t 10000 ROOT/ttl- t
create -t abc ROOT/t2
create -e -t 100 ROOT/t3
create -c -s ROOT/t4
create -c -t 5 ROOT/t5
create -t 0 ROOT/t6
getAllChildrenNumber ROOT
getAllChildrenNumber ROOT/nope
create -e ROOT/e1
create -e ROOT/box/e2
getEphemerals ROOT
getEphemerals ROOT/box
getEphemerals
addWatch ROOT/box
set ROOT/box/x two
delete ROOT/box/e2
addWatch -m PERSISTENT ROOT/ttl
set ROOT/ttl t2
addWatch -m NOPE ROOT/ttl
removewatches ROOT/box
removewatches ROOT/box
get -w ROOT/box/x
removewatches ROOT/box/x -d
ls -w ROOT/box
removewatches ROOT/box -c
set ROOT/box/x three
`)
}

// TestSetAclRecursive: setAcl -R sets the ACL of a node and of every node
// below it. Debian's zkCli 3.8 lists -R in its usage but rejects it
// ("Unrecognized option: -R"), so this is checked against ZooKeeper's
// answers, not zkCli's text.
func TestSetAclRecursive(t *testing.T) {
	out := &syncBuffer{}
	sh := shell.New(zktest.Shared(t).Addrs[0], shell.Options{Out: out, Err: out, ConnectTimeout: 20 * time.Second})
	if err := sh.Connect(); err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	r := zktest.Root(t)
	for _, cmd := range []string{"create " + r, "create " + r + "/b", "create " + r + "/b/c", "create " + r + "/d",
		"setAcl -R " + r + "/b world:anyone:r"} {
		if _, err := sh.Exec(cmd); err != nil {
			t.Fatalf("%s: %v\n%s", cmd, err, out)
		}
	}
	for node, want := range map[string]string{"/b": ": r\n", "/b/c": ": r\n", "/d": ": cdrwa\n"} {
		out.Reset()
		if _, err := sh.Exec("getAcl " + r + node); err != nil || out.String() != "'world,'anyone\n"+want {
			t.Errorf("getAcl %s: %v, printed %q, want %q", node, err, out, want)
		}
	}
}

package shell_test

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"zablab/client/internal/zktest"
	"zablab/client/shell"
)

// zkCliNoise are the lines zkCli prints that are not a command's output:
// its banner, the connect event, and log lines.
var zkCliNoise = regexp.MustCompile(`(?m)^(Connecting to .*|Welcome to ZooKeeper!|JLine support is .*|\[main\].*|WATCHER::|WatchedEvent state:SyncConnected type:None path:null|WatchedEvent state:Closed type:None path:null|)\n`)

// TestSameOutputAsZkCli feeds one script to Debian's zkCli.sh and to our
// shell, each under its own root on the same server, and compares what
// they print (stat values that differ between the two runs normalized).
func TestSameOutputAsZkCli(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a JVM")
	}
	srv := zktest.Shared(t)
	zkcli, err := zktest.ZkCliCommand(srv.Addrs[0])
	if errors.Is(err, zktest.ErrSkip) {
		t.Skip(err)
	}
	script := func(r string) string {
		return strings.ReplaceAll(`create R hello
create R/a one
create R/a x
create -s R/a/s- d
create -e R/e
create R/e/c
get R/a
get -s R/a
stat R/a
ls R
ls -s R/a
set R/a two
set -v 7 R/a w
delete R/a
delete R/nope
delete -v 5 R/e
sync R/a
ls R/nope
get nope
deleteall R/a
ls R
quit
`, "R", r)
	}
	ours, theirs := zktest.Root(t)+"-ours", zktest.Root(t)+"-zkcli"
	zkcli.Stdin = strings.NewReader(script(theirs))
	var zkOut bytes.Buffer
	zkcli.Stdout, zkcli.Stderr = &zkOut, &zkOut
	done := make(chan error, 1)
	if err := zkcli.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- zkcli.Wait() }()
	select {
	case <-done: // zkCli exits non-zero after a failed command: not our concern
	case <-time.After(60 * time.Second):
		zkcli.Process.Kill()
		t.Fatalf("zkCli did not finish within 60s:\n%s", zkOut.String())
	}

	out := &syncBuffer{}
	sh := shell.New(srv.Addrs[0], shell.Options{Out: out, Err: out, ConnectTimeout: 20 * time.Second})
	if err := sh.Connect(); err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	sh.Run(strings.NewReader(script(ours)), false)

	want := normalize(zkCliNoise.ReplaceAllString(strings.ReplaceAll(zkOut.String(), theirs, "R"), ""))
	got := normalize(zkCliNoise.ReplaceAllString(strings.ReplaceAll(out.String(), ours, "R"), ""))
	if got != want {
		t.Fatalf("mwzk-cli and zkCli differ on %s (%s).\nmwzk-cli:\n%s\nzkCli:\n%s\n%s",
			srv.Addrs[0], srv.Kind, got, want, firstDiff(got, want))
	}
}

func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) && i < len(lb); i++ {
		if la[i] != lb[i] {
			return fmt.Sprintf("first difference, line %d: %q vs %q", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("one output is longer: %d vs %d lines", len(la), len(lb))
}

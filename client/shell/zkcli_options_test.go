package shell_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"zablab/client/internal/zktest"
	"zablab/client/shell"
)

// TestOptionsAfterPathLikeZkCli: zkCli 3.8 parses its commands with
// commons-cli's DefaultParser, which takes options anywhere on the line
// ("get /a -s", "ls /a -s"); the shell takes them only before the path.
func TestOptionsAfterPathLikeZkCli(t *testing.T) {
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
get R/a -s
ls R -s
stat R/nope
delete R
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
	case <-done:
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
		t.Fatalf("mwzk-cli and zkCli differ (%s).\nmwzk-cli:\n%s\nzkCli:\n%s\n%s", srv.Kind, got, want, firstDiff(got, want))
	}
}

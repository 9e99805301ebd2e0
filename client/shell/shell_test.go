package shell_test

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"zablab/client"
	"zablab/client/internal/zktest"
	"zablab/client/shell"
	"zablab/internal/wait"
)

func TestMain(m *testing.M) { zktest.Main(m) }

// syncBuffer is the shell's output; watch goroutines write to it too.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func (s *syncBuffer) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b.Reset()
}

// newShell connects a shell to the package's server; output and errors
// both go to the returned buffer, in order.
func newShell(t *testing.T, events bool) (*shell.Shell, *syncBuffer, string) {
	t.Helper()
	srv := zktest.Shared(t)
	out := &syncBuffer{}
	sh := shell.New(strings.Join(srv.Addrs, ","), shell.Options{Out: out, Err: out,
		SessionTimeout: 4 * time.Second, ConnectTimeout: 20 * time.Second, SessionEvents: events})
	if err := sh.Connect(); err != nil {
		t.Fatalf("connect to %s (%s): %v", srv.Addrs, srv.Kind, err)
	}
	t.Cleanup(sh.Close)
	return sh, out, srv.Addrs[0]
}

// Stat lines whose values differ between servers and runs.
var volatile = regexp.MustCompile(`(?m)^(cZxid|mZxid|pZxid|ctime|mtime|ephemeralOwner) = .*$`)

func normalize(s string) string { return volatile.ReplaceAllString(s, "$1 = *") }

const statOf5Bytes1Child = `cZxid = *
ctime = *
mZxid = *
mtime = *
pZxid = *
cversion = 1
dataVersion = 0
aclVersion = 0
ephemeralOwner = *
dataLength = 5
numChildren = 1
`

// TestTranscript runs a session of commands and compares what the shell
// prints with what zkCli prints for the same commands.
func TestTranscript(t *testing.T) {
	sh, out, _ := newShell(t, false)
	r := zktest.Root(t)
	steps := []struct {
		cmd, want string
		fails     bool
	}{
		{"create " + r, "Created " + r + "\n", false},
		{"create " + r + "/a hello", "Created " + r + "/a\n", false},
		{"create " + r + "/a x", "Node already exists: " + r + "/a\n", true},
		{"create -s " + r + "/a/s- d", "Created " + r + "/a/s-0000000000\n", false},
		{"create -e " + r + "/e", "Created " + r + "/e\n", false},
		{"create " + r + "/e/c", "Ephemerals cannot have children: " + r + "/e/c\n", true},
		{"create " + r + "/b ''", "Created " + r + "/b\n", false},
		{"get " + r + "/a", "hello\n", false},
		{"get -s " + r + "/a", "hello\n" + statOf5Bytes1Child, false},
		{"get " + r + "/b", "\n", false},
		{"stat " + r + "/a", statOf5Bytes1Child, false},
		{"ls " + r, "[a, b, e]\n", false},
		{"ls -s " + r + "/a", "[s-0000000000]\n" + statOf5Bytes1Child, false},
		{"set " + r + "/a world", "", false},
		{"set -v 7 " + r + "/a w", "version No is not valid : " + r + "/a\n", true},
		{"delete " + r + "/a", "Node not empty: " + r + "/a\n", true},
		{"delete " + r + "/nope", "Node does not exist: " + r + "/nope\n", true},
		{"delete -v 5 " + r + "/b", "version No is not valid : " + r + "/b\n", true},
		{"stat " + r + "/nope", "Node does not exist: " + r + "/nope\n", true},
		{"sync " + r + "/a", "Sync is OK\n", false},
		{"ls " + r + "/nope", "Node does not exist: " + r + "/nope\n", true},
		{"get nope", "Path must start with / character\n", true},
		{"set " + r + "/a 'hello world'", "", false},
		{"get " + r + "/a", "hello world\n", false},
		{"ls -R " + r + "/a", r + "/a\n" + r + "/a/s-0000000000\n", false},
		{"deleteall " + r + "/a", "", false},
		{"ls " + r, "[b, e]\n", false},
		{"create", "create [-s] [-e] [-c] [-t ttl] path [data] [acl]\n", true},
		{"delete -x /a", "delete [-v version] path\n", true},
		{"printwatches", "printwatches is on\n", false},
		{"printwatches maybe", "printwatches on|off\n", true},
		{"", "", false},
	}
	for _, s := range steps {
		out.Reset()
		quit, err := sh.Exec(s.cmd)
		if quit {
			t.Fatalf("%q asked to quit", s.cmd)
		}
		if got := normalize(out.String()); got != s.want {
			t.Errorf("%q printed\n%s\nwant\n%s", s.cmd, got, s.want)
		}
		if (err != nil) != s.fails {
			t.Errorf("%q returned %v, want failure %v", s.cmd, err, s.fails)
		}
	}
	out.Reset()
	_, err := sh.Exec("frobnicate /a")
	if err == nil || !strings.HasSuffix(out.String(), "Command not found: frobnicate\n") ||
		!strings.Contains(out.String(), "\tget [-s] [-w] path\n") {
		t.Errorf("unknown command: %v, printed\n%s", err, out)
	}
	// mwzk-cli "get -s /a" arrives as one word (an instructor's trial).
	out.Reset()
	if _, err := sh.Exec(`"get -s /a"`); err == nil || !strings.Contains(out.String(), "as separate words") {
		t.Errorf("a command in one word: %v, printed\n%s", err, out)
	}
}

func TestWatchesPrinted(t *testing.T) {
	sh, out, _ := newShell(t, false)
	r := zktest.Root(t)
	other, err := client.Connect(zktest.Shared(t).Addrs, 4*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	for _, cmd := range []string{"create " + r, "create " + r + "/b", "get -w " + r + "/b", "ls -w " + r, "stat -w " + r + "/c"} {
		if _, err := sh.Exec(cmd); err != nil && !strings.HasPrefix(cmd, "stat") {
			t.Fatalf("%s: %v", cmd, err)
		}
	}
	if _, err := other.SetData(r+"/b", []byte("changed"), -1); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Create(r+"/c", nil, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"\nWATCHER::\n\nWatchedEvent state:SyncConnected type:NodeDataChanged path:" + r + "/b\n",
		"\nWATCHER::\n\nWatchedEvent state:SyncConnected type:NodeChildrenChanged path:" + r + "\n",
		"\nWATCHER::\n\nWatchedEvent state:SyncConnected type:NodeCreated path:" + r + "/c\n",
	} {
		wait.For(t, fmt.Sprintf("%q in the output", want), 10*time.Second, func() bool {
			return strings.Contains(out.String(), want)
		})
	}
	if n := strings.Count(out.String(), "WATCHER::"); n != 3 {
		t.Fatalf("%d WATCHER blocks, want 3:\n%s", n, out)
	}
}

func TestSessionEventsAndClose(t *testing.T) {
	sh, out, addr := newShell(t, true)
	if want := "\nWATCHER::\n\nWatchedEvent state:SyncConnected type:None path:null\n"; out.String() != want {
		t.Fatalf("after connect: %q, want %q", out, want)
	}
	if p, want := sh.Prompt(), fmt.Sprintf("[mwzk: %s(CONNECTED) 0] ", addr); p != want {
		t.Fatalf("prompt %q, want %q", p, want)
	}
	out.Reset()
	if _, err := sh.Exec("close"); err != nil {
		t.Fatal(err)
	}
	if want := "\nWATCHER::\n\nWatchedEvent state:Closed type:None path:null\n"; out.String() != want {
		t.Fatalf("after close: %q, want %q", out, want)
	}
	out.Reset()
	if _, err := sh.Exec("ls /"); err == nil || out.String() != "Not connected\n" {
		t.Fatalf("ls after close: %v, printed %q", err, out)
	}
	if p := sh.Prompt(); !strings.Contains(p, "(CLOSED) 2]") {
		t.Fatalf("prompt after close: %q", p)
	}
	if _, err := sh.Exec("connect " + addr); err != nil {
		t.Fatalf("reconnect: %v", err)
	}
	if _, err := sh.Exec("ls /"); err != nil {
		t.Fatalf("ls after reconnect: %v", err)
	}
}

// TestRun feeds commands through a pipe, as scripts do: the exit status
// says whether any failed, and nothing after quit runs.
func TestRun(t *testing.T) {
	sh, out, _ := newShell(t, false)
	r := zktest.Root(t)
	script := fmt.Sprintf("create %s x\nget %s\n", r, r)
	if err := sh.Run(strings.NewReader(script), false); err != nil {
		t.Fatalf("a good script: %v\n%s", err, out)
	}
	if got := out.String(); got != "Created "+r+"\nx\n" {
		t.Fatalf("a good script printed %q", got)
	}
	out.Reset()
	script = fmt.Sprintf("get %s/nope\nquit\ncreate %s/late\n", r, r)
	if err := sh.Run(strings.NewReader(script), true); !errors.Is(err, shell.ErrFailed) {
		t.Fatalf("a failing script: %v, want ErrFailed", err)
	}
	if strings.Contains(out.String(), "late") || !strings.Contains(out.String(), "(CONNECTED) 3] ") {
		t.Fatalf("script output:\n%s", out)
	}
	// A line longer than any command (an operator's 1.1 MB set) ends the
	// script with an error that says so, not a bare exit status.
	long := "set " + r + " " + strings.Repeat("y", 1100<<10) + "\n"
	if err := sh.Run(strings.NewReader(long), false); err == nil || !strings.Contains(err.Error(), "a line longer than") {
		t.Fatalf("a script with a 1.1 MB line: %v, want an error naming the line's length", err)
	}
}

// TestRepeatedWatchesPrintOnce: a watch left twice (get -w twice, then
// stat -w: all data watches; addWatch twice) prints its event once, as
// zkCli's one default watcher does.
func TestRepeatedWatchesPrintOnce(t *testing.T) {
	sh, out, _ := newShell(t, false)
	r := zktest.Root(t)
	other, err := client.Connect(zktest.Shared(t).Addrs, 4*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	for _, cmd := range []string{"create " + r, "create " + r + "/b", "create " + r + "/d", "get -w " + r + "/b",
		"get -w " + r + "/b", "stat -w " + r + "/b", "addWatch -m PERSISTENT " + r + "/d", "addWatch -m PERSISTENT " + r + "/d"} {
		if _, err := sh.Exec(cmd); err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
	}
	for _, p := range []string{r + "/b", r + "/d"} {
		if _, err := other.SetData(p, []byte("changed"), -1); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := sh.Exec("stat -w " + r + "/last"); err == nil {
		t.Fatal("stat of a missing node succeeded")
	}
	if _, err := other.Create(r+"/last", nil, false); err != nil {
		t.Fatal(err)
	}
	last := "type:NodeCreated path:" + r + "/last\n"
	wait.For(t, "the last event", 10*time.Second, func() bool { return strings.Contains(out.String(), last) })
	for _, p := range []string{r + "/b", r + "/d"} {
		if n := strings.Count(out.String(), "type:NodeDataChanged path:"+p+"\n"); n != 1 {
			t.Errorf("NodeDataChanged of %s printed %d times, want once:\n%s", p, n, out)
		}
	}
}

// TestRepeatedAddWatchTakesNewMode: addWatch -m PERSISTENT then
// addWatch -m PERSISTENT_RECURSIVE on the same path leaves the server's
// watch recursive (ZooKeeper's WatchManager replaces the mode), so
// zkCli's default watcher prints a child's creation below the path. The
// shell must print it too, once.
func TestRepeatedAddWatchTakesNewMode(t *testing.T) {
	sh, out, _ := newShell(t, false)
	r := zktest.Root(t)
	other, err := client.Connect(zktest.Shared(t).Addrs, 4*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	for _, cmd := range []string{"create " + r, "create " + r + "/d",
		"addWatch -m PERSISTENT " + r + "/d", "addWatch -m PERSISTENT_RECURSIVE " + r + "/d"} {
		if _, err := sh.Exec(cmd); err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
	}
	if _, err := other.Create(r+"/d/x", nil, false); err != nil {
		t.Fatal(err)
	}
	if _, err := other.SetData(r+"/d", []byte("changed"), -1); err != nil {
		t.Fatal(err)
	}
	wait.For(t, "the event on the path itself", 10*time.Second, func() bool {
		return strings.Contains(out.String(), "type:NodeDataChanged path:"+r+"/d\n")
	})
	if n := strings.Count(out.String(), "type:NodeCreated path:"+r+"/d/x\n"); n != 1 {
		t.Errorf("NodeCreated of %s/d/x printed %d times, want once (the watch is recursive now):\n%s", r, n, out)
	}
}

// TestGetWAgainRightAfterItsEvent: a one-shot watch that fired must not
// keep the next get -w of the same path from printing, however soon it
// comes after the event.
func TestGetWAgainRightAfterItsEvent(t *testing.T) {
	sh, out, _ := newShell(t, false)
	r := zktest.Root(t)
	if _, err := sh.Exec("create " + r + " v"); err != nil {
		t.Fatal(err)
	}
	const rounds = 1000
	for i := 0; i < rounds; i++ {
		for _, cmd := range []string{"get -w " + r, "set " + r + " v"} {
			if _, err := sh.Exec(cmd); err != nil {
				t.Fatalf("%s: %v", cmd, err)
			}
		}
	}
	ev := "type:NodeDataChanged path:" + r + "\n"
	wait.For(t, fmt.Sprintf("%d events printed", rounds), 5*time.Second, func() bool {
		return strings.Count(out.String(), ev) >= rounds
	})
	if n := strings.Count(out.String(), ev); n != rounds {
		t.Errorf("%d rounds of get -w and set printed %d events, want %d", rounds, n, rounds)
	}
}

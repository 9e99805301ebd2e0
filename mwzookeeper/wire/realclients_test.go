package wire

import (
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
	"zablab/internal/procs"

	"zablab/internal/wait"
	mw "zablab/mwzookeeper"
)

// Debian's C client (cli_mt) and Java client (zkCli.sh) against the fake
// server: both send the readOnly byte, the Java client auth with xid -4,
// and zkCli.sh is what most users will poke the service with.

const (
	cliMt = "/usr/lib/zookeeper/bin/cli_mt"
	zkCli = "/usr/share/zookeeper/bin/zkCli.sh"
)

// lockedBuffer collects a process's output while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// runClient runs a client process that talks to s and answers the
// exchanges in order. The commands go to its stdin at once, but "quit" only
// once every exchange but the last (closeSession) was answered and the
// client printed lastOutput: the C client sends requests without waiting
// for replies and would close the session under them. It returns what the
// process printed.
func runClient(t *testing.T, s *fakeServer, exchanges []exchange, commands, lastOutput string,
	name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*exchangeMax)
	defer cancel()
	// zkCli.sh starts java as its child: the whole process group goes, and
	// Wait does not wait for pipes a killed child's children might hold.
	cmd := procs.CommandContext(ctx, name, args...)
	cmd.WaitDelay = time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	failed := func(format string, args ...any) {
		cancel()
		cmd.Wait() // the output is complete only once the process is gone
		t.Fatalf(format+"; the client printed:\n%s", append(args, out.String())...)
	}
	if _, err := io.WriteString(stdin, commands); err != nil {
		failed("writing commands: %v", err)
	}
	for i, ex := range exchanges {
		if i == len(exchanges)-1 {
			wait.For(t, "the client to print "+lastOutput, exchangeMax,
				func() bool { return strings.Contains(out.String(), lastOutput) })
			io.WriteString(stdin, "quit\n")
			stdin.Close()
		}
		s.steps <- ex
		select {
		case err := <-s.results:
			if err != nil {
				failed("request %d: %v", i, err) // the rest would not line up
			}
		case <-ctx.Done():
			failed("request %d never came", i)
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, out.String())
	}
	cr := <-s.connects
	if !cr.HasReadOnly || cr.Timeout != 30000 || len(cr.Password) != 16 || cr.SessionID != 0 {
		t.Errorf("connect request = %+v, want the readOnly byte, timeout 30000, session 0, a 16-byte password", cr)
	}
	return out.String()
}

// authExchange expects digest u:p with xid -4, as the C and Java clients send it.
func authExchange() exchange {
	return exchange{check: kazooExchanges()[0].check, resp: mw.Response{Zxid: fakeZxid}}
}

func requireFile(t *testing.T, path, pkg string) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		t.Skipf("%s is missing (Debian package %s): %v", path, pkg, err)
	}
}

func expectOutput(t *testing.T, out string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(out, w) {
			t.Errorf("the client's output lacks %q:\n%s", w, out)
		}
	}
}

func TestCClient(t *testing.T) {
	requireFile(t, cliMt, "zookeeper-bin")
	s := startFakeServer(t)
	ok := mw.Response{Zxid: fakeZxid, Stat: testStat}
	exchanges := []exchange{
		{want: &mw.Request{Op: mw.OpCreate, Path: "/a", Data: []byte("new"), Mode: mw.Persistent},
			resp: mw.Response{Zxid: fakeZxid, Path: "/a"}},
		{want: &mw.Request{Op: mw.OpCreate, Path: "/q/", Data: []byte("new"), Mode: mw.EphemeralSequential},
			resp: mw.Response{Zxid: fakeZxid, Path: "/q/0000000004"}},
		{want: &mw.Request{Op: mw.OpGetData, Path: "/a", Watch: true},
			resp: mw.Response{Zxid: fakeZxid, Data: []byte("payload"), Stat: testStat}},
		{want: &mw.Request{Op: mw.OpGetChildren, Path: "/", Watch: true},
			resp: mw.Response{Zxid: fakeZxid, Children: []string{"child-a", "child-b"}}},
		{want: &mw.Request{Op: mw.OpSetData, Path: "/a", Data: []byte("x"), Version: -1}, resp: ok},
		{want: &mw.Request{Op: mw.OpExists, Path: "/gone", Watch: true}, resp: mw.Response{Zxid: fakeZxid, Err: mw.ErrNoNode}},
		{want: &mw.Request{Op: mw.OpDelete, Path: "/a", Version: -1}, resp: mw.Response{Zxid: fakeZxid, Err: mw.ErrNotEmpty}},
		// No addauth: the C client sends auth packets ahead of requests
		// still queued, so where it lands is up to the client's threads.
		{want: &mw.Request{Op: mw.OpCloseSession}, resp: mw.Response{Zxid: fakeZxid}},
	}
	in := "create /a\ncreate +es /q/\nget /a\nls /\nset /a x\nexists /gone\ndelete /a\n"
	out := runClient(t, s, exchanges, in, "/a: rc = -111", cliMt, s.addr)
	expectOutput(t, out, "name = /a\n", "name = /q/0000000004", "payload", "child-a", "child-b",
		"version=4", "Error -101 for /gone", "/a: rc = -111")
}

func TestJavaClient(t *testing.T) {
	requireFile(t, zkCli, "zookeeper")
	s := startFakeServer(t)
	ok := mw.Response{Zxid: fakeZxid, Stat: testStat}
	exchanges := []exchange{
		{want: &mw.Request{Op: mw.OpCreate, Path: "/a", Data: []byte("hello"), Mode: mw.Persistent},
			resp: mw.Response{Zxid: fakeZxid, Path: "/a"}},
		{want: &mw.Request{Op: mw.OpGetData, Path: "/a"}, resp: mw.Response{Zxid: fakeZxid, Data: []byte("payload"), Stat: testStat}},
		{want: &mw.Request{Op: mw.OpGetChildren2, Path: "/"}, resp: mw.Response{Zxid: fakeZxid, Children: []string{"a", "b"}}},
		{want: &mw.Request{Op: mw.OpExists, Path: "/gone"}, resp: mw.Response{Zxid: fakeZxid, Err: mw.ErrNoNode}},
		{want: &mw.Request{Op: mw.OpSetData, Path: "/a", Data: []byte("x"), Version: -1}, resp: ok},
		{want: &mw.Request{Op: mw.OpDelete, Path: "/a", Version: -1}, resp: mw.Response{Zxid: fakeZxid, Err: mw.ErrNotEmpty}},
		{want: &mw.Request{Op: mw.OpSync, Path: "/a"}, resp: mw.Response{Zxid: fakeZxid, Path: "/a"}},
		{want: &mw.Request{Op: mw.OpCreate, Path: "/e", Data: []byte("x"), Mode: mw.EphemeralSequential},
			resp: mw.Response{Zxid: fakeZxid, Path: "/e0000000009"}},
		authExchange(),
		{want: &mw.Request{Op: mw.OpCloseSession}, resp: mw.Response{Zxid: fakeZxid}},
	}
	in := "create /a hello\nget -s /a\nls /\nstat /gone\nset /a x\ndelete /a\nsync /a\ncreate -e -s /e x\naddauth digest u:p\n"
	out := runClient(t, s, exchanges, in, "Created /e0000000009", zkCli, "-server", s.addr)
	expectOutput(t, out, "Created /a", "payload", "cZxid = 0x100000001", "pZxid = 0x100000003", "dataVersion = 4",
		"[a, b]", "Node does not exist: /gone", "Node not empty: /a", "Sync is OK", "Created /e0000000009")
}

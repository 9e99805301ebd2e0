package client_test

import (
	"io"
	"net"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"zablab/client"
	"zablab/client/internal/zktest"
	"zablab/internal/wait"
)

// TestConnectSaysWhetherAServerAnswered: a connect that gets no session
// says whether a server took the connection and refused the handshake
// (its log says why; the protocol has no error code for it) or nothing
// answered at all.
func TestConnectSaysWhetherAServerAnswered(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() { // takes every connection and closes it, as a server refusing the session
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	// Nothing listens there now; 127.0.0.2 (loopback too) keeps a listener
	// another test opens on 127.0.0.1 meanwhile from answering.
	nobody := net.JoinHostPort("127.0.0.2", strings.TrimPrefix(closed.Addr().String(), "127.0.0.1:"))
	closed.Close()
	for addr, want := range map[string]string{
		ln.Addr().String(): "a server took the connection but gave no session",
		nobody:             "no server answered (last: dial tcp " + nobody,
	} {
		_, err := client.Connect([]string{addr}, 5*time.Second, client.WithConnectTimeout(time.Second))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Connect(%s) = %v, want an error saying %q", addr, err, want)
		}
	}
}

// TestDialErrorsOnlyWhileConnecting: WithDialErrors reports failed connects
// while Connect waits for the first session, not the reconnects after it
// (the state callback tells of those; a shell would say "trying again for
// up to 10s" long after its connect).
func TestDialErrorsOnlyWhileConnecting(t *testing.T) {
	px := newProxy(t, zktest.Shared(t).Addrs[0])
	var reported atomic.Int32
	logs := &lineHook{}
	l := logrus.New()
	l.SetLevel(logrus.DebugLevel)
	l.SetOutput(io.Discard)
	l.AddHook(logs)
	z, err := client.Connect([]string{px.addr()}, 10*time.Second, client.WithLogger(l),
		client.WithDialErrors(func(string, error) { reported.Add(1) }))
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	px.ln.Close() // later connects are refused
	px.cut(true)
	wait.For(t, "a failed reconnect in go-zk's log", 10*time.Second, func() bool { return logs.has("failed to connect to") })
	if n := reported.Load(); n != 0 {
		t.Errorf("WithDialErrors reported %d failed reconnects after the session was up", n)
	}
}

// lineHook keeps the messages of the log lines it sees.
type lineHook struct {
	mu    sync.Mutex
	lines []string
}

func (h *lineHook) Levels() []logrus.Level { return logrus.AllLevels }

func (h *lineHook) Fire(e *logrus.Entry) error {
	h.mu.Lock()
	h.lines = append(h.lines, e.Message)
	h.mu.Unlock()
	return nil
}

func (h *lineHook) has(sub string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.ContainsFunc(h.lines, func(l string) bool { return strings.Contains(l, sub) })
}

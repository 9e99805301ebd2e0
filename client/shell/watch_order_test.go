package shell

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"testing"
	"time"

	"zablab/client/internal/zktest"
)

// The events one command implies reach the handle in the server's order
// (deleteall deletes /r/a8 ... /r/a1 one by one, each NodeDeleted arrives
// before the next delete's reply). zkCli prints them in that order; a
// review found them printed in Go's map order.
func TestFlushedEventsKeepTheirOrder(t *testing.T) {
	t.Run("goroutines held back", func(t *testing.T) { flushedInOrder(t, true) })
	t.Run("goroutines racing", func(t *testing.T) { flushedInOrder(t, false) })
}

func flushedInOrder(t *testing.T, holdBack bool) {
	s, out := heldBackShell(t, holdBack)
	r := zktest.Root(t)
	s.Exec("create " + r)
	var want []string
	for i := 1; i <= 8; i++ {
		s.Exec(fmt.Sprintf("create %s/a%d", r, i))
	}
	for i := 1; i <= 8; i++ {
		s.Exec(fmt.Sprintf("get -w %s/a%d", r, i))
	}
	for i := 8; i >= 1; i-- {
		want = append(want, fmt.Sprintf("%s/a%d", r, i))
	}
	got, printed := deleteallEvents(s, out, r)
	if !slices.Equal(got, want) {
		t.Fatalf("deleteall's NodeDeleted events printed in the order\n%v\nthe server sent them in\n%v\noutput:\n%s", got, want, printed)
	}
}

// heldBackShell is a shell connected to the shared test ensemble, writing
// to out, closed when the test ends. With holdBack its watch goroutines
// wait until then (beforeEventWait), so that an event prints only when
// Exec flushes it: the goroutines lose every race.
func heldBackShell(t *testing.T, holdBack bool) (s *Shell, out *bytes.Buffer) {
	t.Helper()
	out = new(bytes.Buffer)
	s = New(zktest.Shared(t).Addrs[0], Options{Out: out, Err: out, ConnectTimeout: 20 * time.Second})
	if err := s.Connect(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if holdBack {
		hold := make(chan struct{})
		t.Cleanup(func() { close(hold) }) // before Close: the goroutines then find their events taken
		s.beforeEventWait = func() { <-hold }
	}
	return s, out
}

// deleteallEvents runs "deleteall r" and returns the paths of the
// NodeDeleted events it printed, in the order printed, and all it printed;
// the "ls /" after it is answered after every notification of the deletes.
func deleteallEvents(s *Shell, out *bytes.Buffer, r string) (paths []string, printed string) {
	s.mu.Lock()
	out.Reset()
	s.mu.Unlock()
	s.Exec("deleteall " + r)
	s.Exec("ls /")
	s.mu.Lock()
	printed = out.String()
	s.mu.Unlock()
	for _, m := range regexp.MustCompile(`type:NodeDeleted path:(\S+)`).FindAllStringSubmatch(printed, -1) {
		paths = append(paths, m[1])
	}
	return paths, printed
}

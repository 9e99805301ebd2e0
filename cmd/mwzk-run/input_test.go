package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// script is a reader that plays its steps in turn: text to read, or an
// error to return once.
type script struct {
	steps []any
}

func (s *script) Read(p []byte) (int, error) {
	if len(s.steps) == 0 {
		return 0, io.EOF
	}
	switch v := s.steps[0].(type) {
	case error:
		s.steps = s.steps[1:]
		return 0, v
	case string:
		n := copy(p, v)
		if n == len(v) {
			s.steps = s.steps[1:]
		} else {
			s.steps[0] = v[n:]
		}
		return n, nil
	}
	panic(fmt.Sprintf("script step %T", s.steps[0]))
}

// said collects what the input says, in order.
type said struct {
	mu    sync.Mutex
	lines []string
}

func (s *said) say(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lines = append(s.lines, fmt.Sprintf(format, args...))
}

func drain(ch <-chan string) []string {
	var got []string
	for line := range ch {
		got = append(got, line)
	}
	return got
}

// TestBackgroundInputWaitsForTheForeground: a read that fails with EIO
// (the terminal is another job's) is said, and reading goes on once the
// launcher is in the foreground again; the input's end is said too.
func TestBackgroundInputWaitsForTheForeground(t *testing.T) {
	asked := 0
	var out said
	in := input{
		r:   &script{steps: []any{"kill 1\n", syscall.EIO, "restart 1\n"}},
		say: out.say,
		foreground: func() (bool, error) {
			asked++
			return asked == 3, nil
		},
		poll: time.Millisecond,
	}
	if diff := cmp.Diff([]string{"kill 1", "restart 1"}, drain(in.commands())); diff != "" {
		t.Errorf("lines read (-want +got):\n%s", diff)
	}
	if asked != 3 {
		t.Errorf("asked for the foreground %d times, want 3 (until it was)", asked)
	}
	wantStarts := []string{"running in the background", "in the foreground: " + commandHelp, "standard input ended"}
	if len(out.lines) != len(wantStarts) {
		t.Fatalf("said %q, want lines starting with %q", out.lines, wantStarts)
	}
	for i, w := range wantStarts {
		if !strings.HasPrefix(out.lines[i], w) {
			t.Errorf("said line %d %q, want it to start with %q", i, out.lines[i], w)
		}
	}
}

// TestInputErrorsAreSaid: where the foreground cannot be asked, or the
// read fails otherwise, typed commands end with a word why.
func TestInputErrorsAreSaid(t *testing.T) {
	for _, tc := range []struct {
		name       string
		err        error
		foreground func() (bool, error)
		want       string
	}{
		{"EIO, no terminal to ask", syscall.EIO, nil, "standard input: input/output error: typed commands are off"},
		{"another error", syscall.EBADF, func() (bool, error) { return true, nil }, "standard input: bad file descriptor: typed commands are off"},
		{"terminal gone", syscall.EIO, func() (bool, error) { return false, syscall.ENOTTY }, "terminal: inappropriate ioctl for device: typed commands are off"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out said
			in := input{r: &script{steps: []any{tc.err}}, say: out.say, foreground: tc.foreground, poll: time.Millisecond}
			drain(in.commands())
			last := out.lines[len(out.lines)-1]
			if !strings.HasPrefix(last, tc.want) {
				t.Errorf("said %q, want the last line to start with %q", out.lines, tc.want)
			}
		})
	}
}

// TestBackgroundNoteComesAfterTheBanner: the note that typed commands
// wait for fg came first and scrolled away under the banner, whose last
// line asked to type them (a review's test). The input starts only once
// the banner is out.
func TestBackgroundNoteComesAfterTheBanner(t *testing.T) {
	var bannerFirst bool
	h := launchWith(t, 2, func(l *launcher) func() <-chan string {
		in := input{r: &script{steps: []any{syscall.EIO}}, say: l.con.say,
			foreground: func() (bool, error) { return false, nil }, poll: 10 * time.Millisecond}
		return func() <-chan string {
			bannerFirst = strings.Contains(l.con.w.(*syncBuffer).String(), "mwzk-run: type commands: ")
			return in.commands()
		}
	})
	h.waitMatch(`mwzk-run: running in the background: .*`, `mwzk-run: type commands: .*`)
	h.sigs <- os.Interrupt
	h.exitCode()
	if !bannerFirst {
		t.Errorf("the input started before the banner's \"type commands\" was out:\n%s", h.out.String())
	}
}

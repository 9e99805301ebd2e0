package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// Hand-ins that cheat the runs themselves: through output they share with
// the suite, and through the Host the suite hands them.

// fakeTimeoutProbe is graded code (allowed imports only: fmt) whose init
// prints the first line of Go's test-timeout panic, outside every test.
// It does not time out; the suite runs to its end and every test passes.
// (It used log.SetFlags(0) and stderr, which graded code may no longer
// call: the standard logger is the whole process's.)
const fakeTimeoutProbe = `package aufgabe5

import "fmt"

func init() {
	fmt.Println("panic: test timed out after 1h0m0s")
}
`

// TestFakeTimeoutLineDoesNotCutTheRepeats: a hand-in that merely prints
// "panic: test timed out after ..." on stderr, the output it shares with
// the suite, made the grader take the run for timed out (a review): it
// stopped after run 1 and credited the tests that passed in that one run,
// so REPEAT=n, which must catch a flaky solution, was cut to one run by
// the hand-in itself, and the report said "timeout".
func TestFakeTimeoutLineDoesNotCutTheRepeats(t *testing.T) {
	root := testRoot(t, true)
	files := inFolder("", folderFiles(t, root, "solutions/aufgabe5"))
	files[gradedDir+"zz_fake_timeout.go"] = fakeTimeoutProbe
	dir := t.TempDir()
	writeTree(t, dir, files)
	const repeat = 3
	rep := gradeFolder(t, root, dir, options{part: "A5.1", repeat: repeat})
	t.Logf("status %s, required %d/%d, problems %q", rep.Status, rep.Required.Earned, rep.Required.Possible, rep.Problems)
	for _, p := range rep.Parts {
		for _, tg := range p.Tests {
			if tg.Earned > 0 && tg.Runs != repeat {
				t.Errorf("%s/%s earned %d points from %d run(s) of the %d asked for (status %s)",
					p.ID, tg.Name, tg.Earned, tg.Runs, repeat, rep.Status)
			}
		}
	}
	if rep.Status != "graded" || rep.Required.Earned != rep.Required.Possible {
		t.Errorf("status %s, %d of %d points; want graded with every point, as the reference earns",
			rep.Status, rep.Required.Earned, rep.Required.Possible)
	}
}

// unskewProbe: graded code that looks for a SetSkew method on the Host the
// suite hands to Start (a type assertion to an anonymous interface needs
// no import) and keeps every replica's clock skew at 0 while the A5.4
// tests skew them. Until the suite handed over only the Host's interface
// (svctest's ForService), it found the suite's *svctest.Host there.
const unskewProbe = `package aufgabe5

import (
	"time"

	"zablab/mwzookeeper"
)

func unskew(h mwzookeeper.Host) {
	sk, ok := h.(interface{ SetSkew(time.Duration) })
	if !ok {
		return
	}
	go func() {
		tick := time.NewTicker(200 * time.Microsecond)
		defer tick.Stop()
		for end := time.Now().Add(40 * time.Second); time.Now().Before(end); <-tick.C {
			sk.SetSkew(0)
		}
	}()
}
`

// TestGradedCodeCannotUndoTheClockSkew: the known-bad variant
// local-clock (timestamps from the applying replica's own clock) loses
// A5.4's points; with one line in Start that keeps the Host's skew at 0
// it earned them back (a review: 12 more points).
func TestGradedCodeCannotUndoTheClockSkew(t *testing.T) {
	root := testRoot(t, true)
	v, err := checkoutSubmission(root, options{impl: "solution", variant: filepath.Join(root, "solutions", "variants", "local-clock.diff")})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for n, d := range v.Files {
		files[n] = string(d)
	}
	grade := func(name string, files map[string]string) *Report {
		dir := t.TempDir()
		writeTree(t, dir, inFolder("", files))
		rep := gradeFolder(t, root, dir, options{part: "A5.4"})
		for _, p := range rep.Parts {
			for _, tg := range p.Tests {
				t.Logf("%s: %s/%s %s %d/%d %q", name, p.ID, tg.Name, tg.Status, tg.Earned, tg.Points, tg.Failure)
			}
		}
		return rep
	}
	plain := grade("local-clock", files)
	start := "func (s *Service) Start(p *properties.Properties, host mwzookeeper.Host) error {\n"
	if !strings.Contains(files["service.go"], start) {
		t.Fatalf("no %q in service.go", start)
	}
	files["service.go"] = strings.Replace(files["service.go"], start, start+"\tunskew(host)\n", 1)
	files["unskew.go"] = unskewProbe
	cheat := grade("local-clock+unskew", files)
	if points(cheat) > points(plain) {
		t.Errorf("A5.4: the local-clock variant earns %d points, with the Host's skew undone by the graded code %d", points(plain), points(cheat))
	}
}

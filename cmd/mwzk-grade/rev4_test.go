package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeTimeoutProbe is graded code (allowed imports only: log) whose init
// prints the first line of Go's test-timeout panic to stderr. It does not
// time out; the suite runs to its end and every test passes.
const fakeTimeoutProbe = `package aufgabe5

import "log"

func init() {
	log.SetFlags(0)
	log.Print("panic: test timed out after 1h0m0s")
}
`

// TestRev4FakeTimeoutLineSkipsTheRepeats: a hand-in that merely prints
// "panic: test timed out after ..." on stderr makes runSuite mark the run
// timedOut (findStuck reads the graded code's own stderr), gradeInTree
// stops after run 1 and gradeTest credits a test that passed in that one
// run with its full points: REPEAT=n, which must catch a flaky solution,
// is cut to one run by the hand-in itself.
func TestRev4FakeTimeoutLineSkipsTheRepeats(t *testing.T) {
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
	if strings.Contains(strings.Join(rep.Problems, "\n"), "time ran out") {
		t.Logf("the report claims a timeout that never happened")
	}
}

// TestRev4HandInNamedGradebookCsvLosesTheGradebook: a hand-in whose file
// is called gradebook.csv.zip (the name a student gave the upload) gets
// its report folder OUT/gradebook.csv/, and the batch can then not write
// OUT/gradebook.csv: every other student's line is lost and the batch
// fails, again on every rerun.
func TestRev4HandInNamedGradebookCsvLosesTheGradebook(t *testing.T) {
	root := testRoot(t, false)
	class, out := filepath.Join(t.TempDir(), "class"), filepath.Join(t.TempDir(), "out")
	// alice: refused at once (no assignments/aufgabe5), which is enough
	// for a gradebook line and needs no compiling.
	writeTree(t, filepath.Join(class, "alice"), map[string]string{"README": "no code\n"})
	writeZip(t, filepath.Join(class, "gradebook.csv.zip"), map[string]string{"README": "no code\n"})
	o := options{impl: "assignment", submissions: class, out: out, jobs: 1, repeat: 1, part: "A5.1", timeout: 25 * time.Second}
	var log bytes.Buffer
	err := gradeBatch(context.Background(), root, o, &log)
	t.Logf("batch: %v\n%s", err, log.String())
	if err != nil {
		t.Fatalf("the batch failed because of one hand-in's name: %v", err)
	}
	if fi, err := os.Stat(filepath.Join(out, "gradebook.csv")); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("no gradebook: %v", err)
	}
}

// TestRev4LongEntryNamesBypassTheUnpackBudget: the unpack budget counts
// file contents only. A .tar.gz of empty files whose (PAX) names are ~1 MiB
// each compresses ~1000:1, and every name is held in memory twice (the
// entries, then Ignored, then grade.json and report.html): a small upload
// makes the grader hold far more than maxTotalSize, before any timeout
// runs (loading is not under the per-hand-in time limit), and a large one
// takes the batch's grader down with it.
func TestRev4LongEntryNamesBypassTheUnpackBudget(t *testing.T) {
	root := testRoot(t, false)
	ents := []tarEntry{}
	for n, d := range folderFiles(t, root, "assignments/aufgabe5") {
		ents = append(ents, tarEntry{name: gradedDir + n, data: d})
	}
	long := strings.Repeat("a", 1<<20-600)
	const n = 80 // 80 MiB of names > maxTotalSize (64 MiB)
	for i := range n {
		ents = append(ents, tarEntry{name: fmt.Sprintf("junk/%d/%s", i, long)})
	}
	file := filepath.Join(t.TempDir(), "eve.tar.gz")
	writeTarGz(t, file, ents)
	fi, _ := os.Stat(file)
	sub, err := loadSubmission(file, "")
	if err != nil {
		t.Logf("refused: %v", err)
		return
	}
	kept := 0
	for _, s := range sub.Ignored {
		kept += len(s)
	}
	t.Logf("archive %d bytes; the grader keeps %d bytes of entry names in Ignored (limit on contents: %d)", fi.Size(), kept, maxTotalSize)
	if kept > maxTotalSize {
		t.Errorf("a %d-byte archive made the grader keep %d MiB of names, past the %d MiB unpack budget", fi.Size(), kept>>20, maxTotalSize>>20)
	}
}

// unskewProbe: the Host the suite hands to Start is a *svctest.Host, and
// graded code reaches its test-only methods with an anonymous interface
// assertion (no import needed): here it keeps every replica's clock skew
// at 0 while the A5.4 tests skew them.
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
		for end := time.Now().Add(40 * time.Second); time.Now().Before(end); time.Sleep(200 * time.Microsecond) {
			sk.SetSkew(0)
		}
	}()
}
`

// TestRev4GradedCodeUndoesTheSuitesClockSkew: the known-bad variant
// local-clock (timestamps from the applying replica's own clock) loses
// A5.4's points; the same code plus one line in Start that keeps the
// Host's skew at 0 (through SetSkew, a method of the suite's Host the
// graded code is not meant to have) earns them back.
func TestRev4GradedCodeUndoesTheSuitesClockSkew(t *testing.T) {
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

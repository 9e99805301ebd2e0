package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// classFolder writes the five submissions of the batch test into dir: the
// reference packed as a student would (a file renamed, a helper added), the
// untouched stubs, code that does not compile, a Service whose Start never
// returns, and a known-bad variant.
func classFolder(t *testing.T, root, dir string) {
	t.Helper()
	ref := folderFiles(t, root, "solutions/aufgabe5")
	ref["queue.go"] = ref["order.go"]
	delete(ref, "order.go")
	ref["helper.go"] = "package aufgabe5\n\n// twice is a helper the student added.\nfunc twice(n int) int { return 2 * n }\n\nvar _ = twice\n"
	var ents []tarEntry
	for n, d := range ref {
		ents = append(ents, tarEntry{name: "ref/" + gradedDir + n, data: d})
	}
	writeTarGz(t, filepath.Join(dir, "ref.tar.gz"), ents)

	stubs := folderFiles(t, root, "assignments/aufgabe5")
	writeTree(t, filepath.Join(dir, "stubs"), inFolder("", stubs))

	broken := inFolder("handin", stubs) // nested, as many hand-ins are
	broken["handin/"+gradedDir+"broken.go"] = "package aufgabe5\n\nfunc broken() int { return \"not an int\" }\n"
	writeZip(t, filepath.Join(dir, "broken.zip"), broken)

	writeTree(t, filepath.Join(dir, "hang"), hangingHandIn(inFolder("", stubs)))

	o := options{impl: "solution", variant: filepath.Join(root, "solutions", "variants", "answer-early.diff")}
	v, err := checkoutSubmission(root, o)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for n, d := range v.Files {
		files[n] = string(d)
	}
	writeTree(t, filepath.Join(dir, "variant"), inFolder("", files))
}

// TestBatchGradesAClass: a folder of five submissions gives a gradebook
// with the expected statuses and points, in bounded time, with no process
// or temporary folder left; a second run grades none of them again.
func TestBatchGradesAClass(t *testing.T) {
	root := testRoot(t, true)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // the grading copies go here, to be counted
	class, out := filepath.Join(t.TempDir(), "class"), filepath.Join(t.TempDir(), "out")
	os.MkdirAll(class, 0o755)
	classFolder(t, root, class)
	// Part A5.1 keeps the test short; the hanging Start needs the timeout.
	o := options{impl: "assignment", submissions: class, out: out, jobs: 1, repeat: 1, part: "A5.1", timeout: 25 * time.Second}
	var log bytes.Buffer
	start := time.Now()
	if err := gradeBatch(context.Background(), root, o, &log); err != nil {
		t.Fatalf("batch: %v\n%s", err, log.String())
	}
	t.Logf("first batch in %v:\n%s", time.Since(start).Round(time.Second), log.String())
	if want := "gradebook.csv: 3 graded, 1 timeout, 1 compile-error\n"; !strings.HasSuffix(log.String(), want) {
		t.Errorf("the batch's last line does not end in %q", want)
	}
	if want := "] ref: graded 30/30 ("; !strings.Contains(log.String(), want) { // one part: no bonus to show
		t.Errorf("the batch's progress lacks %q", want)
	}
	want := map[string]struct{ status, total string }{
		"ref": {"graded", "30"}, "stubs": {"graded", "0"}, "broken": {"compile-error", "0"},
		"hang": {"timeout", "0"}, "variant": {"graded", "<30"},
	}
	book := readGradebook(t, filepath.Join(out, "gradebook.csv"))
	if len(book) != len(want) {
		t.Fatalf("gradebook has %d submissions, want %d: %v", len(book), len(want), book)
	}
	for name, w := range want {
		row := book[name]
		if row == nil || row[1] != w.status || (w.total == "<30" && (row[2] == "30" || row[2] == "")) || (w.total != "<30" && row[2] != w.total) {
			t.Errorf("%s: gradebook row %q, want status %s and total %s", name, row, w.status, w.total)
		}
		if row != nil && row[4] != "" {
			t.Errorf("%s: bonus %q in a batch of part A5.1, which grades no bonus part; want it empty", name, row[4])
		}
		if row != nil && row[3] != "30" {
			t.Errorf("%s: possible %q in a batch of part A5.1; want 30, what its total is out of", name, row[3])
		}
		for _, f := range []string{"grade.json", "report.txt", "report.html"} {
			if _, err := os.Stat(filepath.Join(out, name, f)); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
	if text := readFile(t, filepath.Join(out, "broken", "report.txt")); !strings.Contains(text, "DOES NOT COMPILE") || !strings.Contains(text, "handin/"+gradedDir+"broken.go:3") {
		t.Errorf("the compile error's report does not lead with the compiler's message:\n%s", text)
	}
	// Why a submission earned nothing the usual way is in the gradebook's last column.
	for name, want := range map[string]string{"broken": "broken.go:3", "hang": "time ran out before any test started (an init that never returns?)", "ref": ""} {
		if note := book[name][len(book[name])-1]; !strings.Contains(note, want) || (want == "" && note != "") {
			t.Errorf("%s: gradebook note %q, want one with %q", name, note, want)
		}
	}
	if text := readFile(t, filepath.Join(out, "stubs", "report.txt")); !strings.Contains(text, "make grade-a5.7 RACE=0 (in the hand-in's own checkout") {
		t.Errorf("a hand-in's report offers make grade-a5.N without saying where it runs:\n%s", text)
	}
	// The hanging init: the suite's own time limit stopped it (the calls of
	// a Service have deadlines of their own: TestStartThatNeverReturnsIsGradedWithinMinutes).
	text := readFile(t, filepath.Join(out, "hang", "report.txt"))
	for _, want := range []string{"the run was stopped: the submission's time was up", "TIMEOUT"} {
		if !strings.Contains(text, want) {
			t.Errorf("the hanging submission's report lacks %q:\n%s", want, text)
		}
	}
	checkNothingLeft(t, tmp)

	log.Reset()
	if err := gradeBatch(context.Background(), root, o, &log); err != nil {
		t.Fatalf("second batch: %v", err)
	}
	if n := strings.Count(log.String(), "not graded again"); n != len(want) {
		t.Errorf("second run skipped %d of %d:\n%s", n, len(want), log.String())
	}
	if again := readGradebook(t, filepath.Join(out, "gradebook.csv")); len(again) != len(book) || again["ref"][2] != "30" {
		t.Errorf("second gradebook %v, want the first's %v", again, book)
	}
}

// readGradebook reads gradebook.csv by submission, checking its header.
func readGradebook(t *testing.T, file string) map[string][]string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) == 0 {
		t.Fatalf("%s: %v", file, err)
	}
	if strings.Join(rows[0], ",") != "submission,status,total,possible,bonus,A5.1,A5.2,A5.3,A5.4,A5.5,A5.6,A5.7,sha256,seconds,note" {
		t.Fatalf("header %q", rows[0])
	}
	out := map[string][]string{}
	for _, r := range rows[1:] {
		out[r[0]] = r
	}
	return out
}

// checkNothingLeft fails if a grading copy under tmp is left, or a process
// runs from one.
func checkNothingLeft(t *testing.T, tmp string) {
	t.Helper()
	if left, _ := filepath.Glob(filepath.Join(tmp, "mwzk-grade-*")); len(left) > 0 {
		t.Errorf("grading copies left behind: %v", left)
	}
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err == nil && bytes.Contains(b, []byte(tmp)) {
			t.Errorf("a process of the batch is still running: %s: %q", p, bytes.ReplaceAll(b, []byte{0}, []byte{' '}))
		}
	}
}

// TestGradebookCellsAreNoFormulas: a hand-in named like a formula, or a
// note that starts like one (a compiler line), gets a leading ' in
// gradebook.csv, so a spreadsheet program shows it as text.
func TestGradebookCellsAreNoFormulas(t *testing.T) {
	var items []batchItem
	for _, n := range []string{`=HYPERLINK("http://x","y")`, "+1", "-2", "@SUM(A1)", "\tx", "\rx", "plain"} {
		items = append(items, batchItem{name: n, rep: &Report{Status: "compile-error", Compile: []string{"=1+1 " + n}}})
	}
	file := filepath.Join(t.TempDir(), "gradebook.csv")
	if err := writeGradebook(file, items); err != nil {
		t.Fatal(err)
	}
	book := readGradebook(t, file)
	if len(book) != len(items) {
		t.Fatalf("%d rows, want %d", len(book), len(items))
	}
	for first, row := range book {
		for i, cell := range row {
			if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
				t.Errorf("row %q, column %s: %q starts a formula", first, gradebookHeader[i], cell)
			}
		}
	}
	if book["plain"] == nil || book["'=HYPERLINK(\"http://x\",\"y\")"] == nil {
		t.Errorf("rows %q, want plain as it is and the formula with a leading '", slices.Collect(maps.Keys(book)))
	}
}

// TestHandInNamedLikeTheGradebook: a hand-in called gradebook.csv.zip
// (the name a student gave the upload) got its report folder
// OUT/gradebook.csv/, and the batch could then not write OUT/gradebook.csv:
// every other student's line was lost, again on every rerun (a review).
// Its reports now go to "gradebook.csv (hand-in)".
func TestHandInNamedLikeTheGradebook(t *testing.T) {
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
	book := readFile(t, filepath.Join(out, "gradebook.csv"))
	for _, want := range []string{"\nalice,", "\ngradebook.csv (hand-in),"} {
		if !strings.Contains(book, want) {
			t.Errorf("the gradebook has no line starting %q:\n%s", want[1:], book)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "gradebook.csv (hand-in)", "report.txt")); err != nil {
		t.Errorf("the hand-in's report: %v", err)
	}
}

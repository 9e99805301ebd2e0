package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// escapeProbe is graded code whose init writes a file through the logger
// (log.file may name any path) and reads one through the properties
// reader, then panics with what came of it: the panic's text reaches the
// report, as a failure message reaches a student's.
func escapeProbe(target, secret string) string {
	return fmt.Sprintf(`package aufgabe5

import (
	"fmt"

	"zablab/logging"
	"zablab/properties"
)

func init() {
	p, _ := properties.LoadString("log.file=%s\n")
	_, _, werr := logging.New(p)
	s, rerr := properties.LoadFile(%q)
	got := ""
	if rerr == nil {
		got = s.String("token", "")
	}
	panic(fmt.Sprintf("ESCAPE-PROBE write=%%v read=%%v token=%%s", werr, rerr, got))
}
`, target, secret)
}

// TestSandboxKeepsGradedCodeIn: graded code cannot write a file of the
// grader's machine nor read one, although the allowed logger and
// properties reader take any path. The same hand-in run unconfined (with
// --no-sandbox) does both, which shows the probe works.
func TestSandboxKeepsGradedCodeIn(t *testing.T) {
	root := testRoot(t, false)
	needSandbox(t, "the grader refuses hand-ins here without --no-sandbox")
	for _, c := range []struct {
		name      string
		noSandbox bool
	}{{"sandbox", false}, {"unconfined", true}} {
		t.Run(c.name, func(t *testing.T) {
			outside := t.TempDir()
			target := filepath.Join(outside, "written-by-hand-in.log")
			secret := filepath.Join(outside, "secret.properties")
			if err := os.WriteFile(secret, []byte("token=s3cr3t-4711\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			files := inFolder("", folderFiles(t, root, "assignments/aufgabe5"))
			files[gradedDir+"escape.go"] = escapeProbe(target, secret)
			dir := t.TempDir()
			writeTree(t, dir, files)
			rep := gradeFolder(t, root, dir, options{part: "A5.1", noSandbox: c.noSandbox, sharedUnchecked: true})
			problems := strings.Join(rep.Problems, "\n")
			if !strings.Contains(problems, "ESCAPE-PROBE") {
				t.Fatalf("the probe's panic is not in the report: %q", rep.Problems)
			}
			if !slices.IsSorted(rep.Files) || len(rep.Files) < 2 {
				t.Errorf("grade.json's files are not sorted: %q", rep.Files)
			}
			if rep.Unconfined != c.noSandbox {
				t.Errorf("report says unconfined %v, want %v", rep.Unconfined, c.noSandbox)
			}
			_, statErr := os.Stat(target)
			wrote, read := statErr == nil, strings.Contains(problems, "token=s3cr3t-4711")
			if wrote != c.noSandbox || read != c.noSandbox {
				t.Errorf("graded code wrote %s: %v, read %s: %v; want %v for both\n%s", target, wrote, secret, read, c.noSandbox, problems)
			}
		})
	}
}

// TestSandboxPolicy: where no sandbox can be made, a hand-in is not graded
// unless --no-sandbox says so, and one's own code is, with a note.
func TestSandboxPolicy(t *testing.T) {
	saved, savedUnconfined := sandboxCheck, testsUnconfined
	defer func() { sandboxCheck, testsUnconfined = saved, savedUnconfined }()
	testsUnconfined = false
	sandboxCheck = func() error { return errors.New("user namespaces not allowed") }
	var notes []string
	note := func(s string) { notes = append(notes, s) }
	for _, o := range []options{{submission: "ada.tar.gz"}, {submissions: "hand-ins"}} {
		if jailed, err := sandboxPolicy(&o, note); jailed || !errors.Is(err, errNoSandbox) || !strings.Contains(err.Error(), "--no-sandbox") {
			t.Errorf("%+v: jailed %v, err %v; want refused, naming --no-sandbox", o, jailed, err)
		}
	}
	if jailed, err := sandboxPolicy(&options{submission: "ada.tar.gz", noSandbox: true}, note); jailed || err != nil {
		t.Errorf("--no-sandbox: jailed %v, err %v; want unconfined", jailed, err)
	}
	if jailed, err := sandboxPolicy(&options{impl: "assignment"}, note); jailed || err != nil || len(notes) != 1 {
		t.Errorf("own code: jailed %v, err %v, notes %q; want unconfined with one note", jailed, err, notes)
	}
	sandboxCheck = func() error { return nil }
	if jailed, err := sandboxPolicy(&options{submission: "ada.tar.gz"}, note); !jailed || err != nil {
		t.Errorf("with a sandbox: jailed %v, err %v; want jailed", jailed, err)
	}
}

// TestUnconfinedGradeIsGradedAgain: a batch's grade made with --no-sandbox
// is not reused by a later run with the sandbox, and says so in its report.
func TestUnconfinedGradeIsGradedAgain(t *testing.T) {
	root := testRoot(t, false)
	sub, out := stubsSubmission(t, root), t.TempDir()
	tree, err := graderTreeHash(root, "")
	if err != nil {
		t.Fatal(err)
	}
	o := options{repeat: 1, part: "A5.1"}
	rep := &Report{SHA256: sub.sha256(), Repeat: 1, Part: "A5.1", GraderTree: tree, Status: "graded", Unconfined: true}
	if err := writeJSON(rep, filepath.Join(out, "grade.json")); err != nil {
		t.Fatal(err)
	}
	if _, ok := upToDate(root, o, out, sub); ok {
		t.Errorf("an unconfined grade counts as up to date for a sandboxed run")
	}
	o.noSandbox = true
	if _, ok := upToDate(root, o, out, sub); !ok {
		t.Errorf("an unconfined grade is not up to date for another --no-sandbox run")
	}
	var text strings.Builder
	printReport(&text, rep)
	if !strings.Contains(text.String(), "Graded without a sandbox") {
		t.Errorf("the report does not say it was graded without a sandbox:\n%s", text.String())
	}
}

// memoryProbe is graded code whose init takes memory in 16 MiB slices up to
// 1.5 GiB and keeps it, then panics: it reaches the panic only where
// nothing caps its memory. The slices are never written, so even then the
// machine gives it little real memory.
const memoryProbe = `package aufgabe5

func init() {
	var hoard [][]byte
	for i := 0; i < 96; i++ {
		hoard = append(hoard, make([]byte, 16<<20))
	}
	panic("MEMORY-PROBE took 1.5 GiB" + string(rune('0'+len(hoard)%10)))
}
`

// TestSandboxCapsMemory: graded code that takes memory without end is
// stopped at the sandbox's cap, and the report says so and names the cap.
func TestSandboxCapsMemory(t *testing.T) {
	root := testRoot(t, false)
	needSandbox(t, "the memory cap is the sandbox's")
	saved := jailMemory
	defer func() { jailMemory = saved }()
	jailMemory = 512 << 20 // the suite itself needs under 128 MiB
	files := inFolder("", folderFiles(t, root, "assignments/aufgabe5"))
	files[gradedDir+"hoard.go"] = memoryProbe
	dir := t.TempDir()
	writeTree(t, dir, files)
	rep := gradeFolder(t, root, dir, options{part: "A5.1"})
	problems := strings.Join(rep.Problems, "\n")
	if strings.Contains(problems, "MEMORY-PROBE") {
		t.Fatalf("the graded code took 1.5 GiB under a cap of 512 MiB:\n%s", problems)
	}
	if !strings.Contains(problems, "ran out of memory") || !strings.Contains(problems, "512 MiB") {
		t.Errorf("the report does not say the run ran out of its 512 MiB:\n%s", problems)
	}
	// Where the memory went, in the student's code, not the runtime's
	// frames; the gradebook's note says it too, and the report lists no
	// test with a command to replay it, since none ran (an instructor's
	// trial).
	if !strings.Contains(problems, "hoard.go:") {
		t.Errorf("the report does not name the graded code's frame (hoard.go):\n%s", problems)
	}
	if n := reportNote(rep); !strings.HasPrefix(n, "the run ran out of memory") {
		t.Errorf("gradebook note %q, want the out-of-memory problem", n)
	}
	var text strings.Builder
	printReport(&text, rep)
	if !strings.Contains(text.String(), "No test ran") || strings.Contains(text.String(), "Tests that earned no points") {
		t.Errorf("the report lists tests that never ran:\n%s", text.String())
	}
}

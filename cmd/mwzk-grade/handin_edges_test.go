package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"
)

// TestBatchItemHashLeavesTheWholeHandInsFolder: gradeItem grades with
// o.forHandIn(path), which empties o.submissions, so gradeSubmission's
// hash (and buildTree's copy) leaves only this item, not the hand-ins
// folder: the other students' folders are copied and hashed, and
// upToDate (which leaves the whole folder) never matches: every re-run
// regrades the class.
func TestBatchItemHashLeavesTheWholeHandInsFolder(t *testing.T) {
	root, o, it := brokenHandIn(t, map[string]string{"hand-ins/carol/assignments/aufgabe5/service.go": "package aufgabe5\n"})
	rep, skipped := gradeItem(context.Background(), root, o, it)
	if skipped || rep.Status != "compile-error" {
		t.Fatalf("first grade: status %q skipped %v (%v), want compile-error", rep.Status, skipped, rep.Problems)
	}
	want, _ := graderTreeHash(root, "", o.leave()...)
	if rep.GraderTree != want {
		t.Errorf("the report's grader hash includes the other hand-ins (carol's folder): %s, batch hash %s", rep.GraderTree, want)
	}
	if _, skipped := gradeItem(context.Background(), root, o, it); !skipped {
		t.Errorf("a second run with nothing changed graded bob again")
	}
}

// TestCompilerCrashNotClaimedForAStudentsString: compilerCrash looks
// for "fatal error: " anywhere in the compiler's output, and the output
// quotes the hand-in's own expressions: an ordinary type error is
// reported as the compiler crashing out of memory.
func TestCompilerCrashNotClaimedForAStudentsString(t *testing.T) {
	msg := compileHandIn(t, func(f map[string]string) {
		f["oops.go"] = "package aufgabe5\n\nfunc die(n int) string { return \"fatal error: \" + n }\n"
	})
	if strings.Contains(msg, "crashed") || strings.Contains(msg, "out of memory") {
		t.Errorf("an ordinary type error is reported as a compiler crash:\n%s", msg)
	}
}

// TestLineCutKeepsRunesWhole: the cut at n bytes lands inside a
// multi-byte rune (a German identifier or string in a compiler message)
// and leaves invalid UTF-8 in the report.
func TestLineCutKeepsRunesWhole(t *testing.T) {
	var b bytes.Buffer
	c := &lineCut{w: &b, n: 5}
	c.Write([]byte("Größe Größe\n"))
	if !utf8.Valid(b.Bytes()) {
		t.Errorf("lineCut left invalid UTF-8: %q", b.String())
	}
}

// TestFolderWithLargeUploadIsGraded: a platform folder is read by
// dirEntries, whose per-file limit (4 MiB, meant for unpacked files)
// applies to the upload archive itself: a 5 MiB zip graded directly is
// accepted, the same zip in its student's folder is refused.
func TestFolderWithLargeUploadIsGraded(t *testing.T) {
	class := t.TempDir()
	big := make([]byte, 3<<20)
	rand.Read(big)
	big2 := make([]byte, 3<<20)
	rand.Read(big2)
	files := map[string]string{
		"assignments/aufgabe5/service.go": "package aufgabe5\n",
		"data/a.bin":                      string(big),
		"data/b.bin":                      string(big2),
	}
	zipFile := filepath.Join(class, "direct.zip")
	writeZip(t, zipFile, files)
	if fi, _ := os.Stat(zipFile); fi.Size() <= maxFileSize {
		t.Fatalf("the test zip has %d bytes, needs more than %d", fi.Size(), maxFileSize)
	}
	if _, err := loadSubmission(zipFile, ""); err != nil {
		t.Fatalf("the zip itself: %v", err)
	}
	dave := filepath.Join(class, "Dave Miller_1234_assignsubmission_file_")
	os.MkdirAll(dave, 0o755)
	writeZip(t, filepath.Join(dave, "abgabe.zip"), files)
	if _, err := loadSubmission(dave, ""); err != nil {
		t.Errorf("the same zip in a platform folder: %v", err)
	}
}

// TestSoleArchiveIgnoresHiddenFiles: listSubmissions leaves hidden
// entries out, soleArchive counts them: macOS's AppleDouble "._abgabe.zip"
// next to the upload makes the folder "two archives" and refused.
func TestSoleArchiveIgnoresHiddenFiles(t *testing.T) {
	dave := filepath.Join(t.TempDir(), "Dave Miller_1234_assignsubmission_file_")
	os.MkdirAll(dave, 0o755)
	writeZip(t, filepath.Join(dave, "abgabe.zip"), platformHandIn)
	os.WriteFile(filepath.Join(dave, "._abgabe.zip"), []byte("\x00\x05\x16\x07"), 0o644)
	if _, err := loadSubmission(dave, ""); err != nil {
		t.Errorf("folder with abgabe.zip and its AppleDouble ._abgabe.zip: %v", err)
	}
}

// TestVisibleEscapesRawC1Bytes: unsafeRune names C1 controls, but
// visible ranges over runes, so a raw byte 0x9b (8-bit CSI) is invalid
// UTF-8, decodes as U+FFFD and passes unescaped.
func TestVisibleEscapesRawC1Bytes(t *testing.T) {
	if got := visible("x\x9b2Jy"); strings.ContainsRune(got, 0x9b) || strings.Contains(got, "\x9b") {
		t.Errorf("visible(%q) = %q: the raw C1 byte passed", "x\x9b2Jy", got)
	}
}

// TestLeaveThroughASymlinkedPath: skipper compares paths made
// absolute but not resolved: the checkout reached through a symbolic link
// (cwd /home/x/zablab -> /data/zablab) and SUBMISSIONS given by its real
// path keeps the hand-ins in the grader's files. (Here root is the real
// path and SUBMISSIONS the link's: a root given by its link is walked not
// at all by graderFiles outside git, an older matter.)
func TestLeaveThroughASymlinkedPath(t *testing.T) {
	real := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(real))
	writeTree(t, real, map[string]string{
		"go.mod": "module zablab\n",
		"hand-ins/bob/assignments/aufgabe5/service.go": "package aufgabe5\n",
	})
	link := filepath.Join(t.TempDir(), "zablab")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	files, err := graderFiles(real, filepath.Join(link, "hand-ins"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(files, []string{"go.mod"}) {
		t.Errorf("graderFiles(root by its real path, hand-ins through a link to it) = %q, want only go.mod", files)
	}
}

// TestWarmCacheFailureSaysWhy: warmCache's failure line shows the
// first line of go build's output, which is always the package header
// ("# zablab/dep"), never the error; go list's failure shows only "exit
// status 1" (its stderr is in the ExitError, not printed).
func TestWarmCacheFailureSaysWhy(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"go.mod":                         "module zablab\n\ngo 1.22\n",
		"assignments/aufgabe5/a.go":      "package aufgabe5\n",
		"assignments/aufgabe5/a_test.go": "package aufgabe5\n\nimport _ \"zablab/dep\"\n",
		"dep/dep.go":                     "package dep\n\nvar x int = \"s\"\n",
	})
	var b bytes.Buffer
	warmCache(context.Background(), root, false, &b)
	if !strings.Contains(b.String(), "dep.go") {
		t.Errorf("a failed warm-up names no error: %q", b.String())
	}
	b.Reset()
	bad := t.TempDir() // a broken go.mod (a TempDir may sit inside a module: make test's TMPDIR)
	writeTree(t, bad, map[string]string{"go.mod": "module zablab\n\ngo banana\n"})
	warmCache(context.Background(), bad, false, &b)
	if !strings.Contains(b.String(), "go.mod") {
		t.Errorf("a failed go list names no reason: %q", b.String())
	}
}

// TestSingleRefusalShowsControlCharactersAsEscapes: make grade
// SUBMISSION=x.zip of a refused archive ends in main's "mwzk-grade: "+err
// on the terminal; the refusal names the archive's entries (two graded
// folders) as they are, ESC sequences and all: the escaping of reports
// and progress lines does not reach it.
func TestSingleRefusalShowsControlCharactersAsEscapes(t *testing.T) {
	zipFile := filepath.Join(t.TempDir(), "eve.zip")
	writeZip(t, zipFile, map[string]string{
		"a\x1b]0;owned\x07\x1b[2J/assignments/aufgabe5/x.go": "package aufgabe5\n",
		"b/assignments/aufgabe5/y.go":                        "package aufgabe5\n",
	})
	err := mainErr(context.Background(), []string{"--submission", zipFile, "--json", "-"}, io.Discard)
	if err == nil {
		t.Fatal("a hand-in with two graded folders was not refused")
	}
	if i := strings.IndexFunc(err.Error(), unsafeRune); i >= 0 {
		t.Errorf("main prints a control character %U to the terminal: %q", []rune(err.Error()[i:])[0], err.Error())
	}
}

// TestNamedPipeNamedLikeAnArchiveIsRefused: a FIFO called "anna.zip" in
// the class folder was opened as a zip archive, and the open blocked the
// whole batch for good; it is now a refused row like any other non-file.
func TestNamedPipeNamedLikeAnArchiveIsRefused(t *testing.T) {
	p := filepath.Join(t.TempDir(), "anna.zip")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := loadSubmission(p, ""); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, errRefused) || !strings.Contains(err.Error(), "is a named pipe (FIFO)") || !strings.Contains(err.Error(), p) {
			t.Errorf("loading a named pipe called anna.zip: %v; want a refusal naming it and saying it is a named pipe", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("loading a named pipe called anna.zip did not end within 30 s")
	}
}

// brokenHandIn is a grader's tree of go.mod alone (compiling fails
// fast) with the hand-in bob, which does not compile, and the other files
// given; the options and batch item to grade bob in it.
func brokenHandIn(t *testing.T, more map[string]string) (string, options, *batchItem) {
	t.Helper()
	root := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(root))
	files := map[string]string{
		"go.mod": "module zablab\n\ngo 1.22\n",
		"hand-ins/bob/assignments/aufgabe5/service.go": "package aufgabe5\n\nfunc x() int { return \"broken\" }\n",
	}
	for k, v := range more {
		files[k] = v
	}
	writeTree(t, root, files)
	o := withDefaults(options{submissions: filepath.Join(root, "hand-ins"), out: filepath.Join(root, "out")})
	return root, o, &batchItem{name: "bob", path: filepath.Join(root, "hand-ins", "bob")}
}

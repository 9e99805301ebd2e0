package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReplayTimeoutIsPerRecordedRun: --timeout is per run, and mainErr
// multiplies it by the command line's --repeat (1 for a replay) before
// replay takes the recorded repeat: a grading of REPEAT=8 is replayed with
// one run's time for all eight, and times out where the original did not.
func TestReplayTimeoutIsPerRecordedRun(t *testing.T) {
	g := recordedGrade(t, Report{Status: "graded", Repeat: 8})
	var log strings.Builder
	mainErr(context.Background(), []string{"--replay", g, "--timeout", "1ms"}, &log)
	if !strings.Contains(log.String(), "grading did not finish within 8ms") {
		t.Errorf("a replay of 8 recorded runs with --timeout 1ms (per run) did not get 8ms:\n%s", log.String())
	}
}

// TestCompilerCrashNotClaimedForAQuotedType: errorAtLine leaves out only
// lines starting with file:line, but a type error continues on indented
// have/want lines that quote the hand-in's types, struct tags included:
// an ordinary type error is reported as a compiler crash.
func TestCompilerCrashNotClaimedForAQuotedType(t *testing.T) {
	msg := compileHandIn(t, func(f map[string]string) {
		f["oops.go"] = "package aufgabe5\n\ntype crashI interface{ M(struct{ A int \"x\" }) }\ntype crashT struct{}\n\n" +
			"func (crashT) M(struct{ A int \"fatal error: SIGSEGV\" }) {}\n\nvar _ crashI = crashT{}\n"
	})
	if strings.Contains(msg, "crashed") || strings.Contains(msg, "out of memory") {
		t.Errorf("an ordinary type error (have/want lines) is reported as a compiler crash:\n%s", msg)
	}
}

// TestLineDirectivesAreRefused: a //line directive names the file of the
// errors after it ("out of memory:1: ..."), so that an ordinary type error
// read as the compiler running out of memory (a review's failing test),
// and stack traces could blame the suite's files: graded code may not use
// one.
func TestLineDirectivesAreRefused(t *testing.T) {
	for _, d := range []string{"//line out of memory:1", "/*line conformance_test.go:1*/"} {
		files := map[string][]byte{"oops.go": []byte("package aufgabe5\n\n" + d + "\nvar oops int = 1\n")}
		_, err := checkFiles(files, func(n string) string { return gradedDir + n }, true)
		if !errors.Is(err, errRefused) || !strings.Contains(err.Error(), "is not allowed in graded code") {
			t.Errorf("%s: %v, want a refusal", d, err)
		}
	}
}

// TestSoleArchiveIgnoresMacMetadataFolders: pick ignores __MACOSX/, but
// soleArchive takes a __MACOSX/.../assignments/aufgabe5 folder for the
// graded one: a platform folder with the upload and the Finder copy of its
// unpacked metadata is refused ("no assignments/aufgabe5/ folder") instead
// of graded as its zip.
func TestSoleArchiveIgnoresMacMetadataFolders(t *testing.T) {
	dave := filepath.Join(t.TempDir(), "dave")
	os.MkdirAll(dave, 0o755)
	writeZip(t, filepath.Join(dave, "abgabe.zip"), platformHandIn)
	writeTree(t, dave, map[string]string{"__MACOSX/aufgabe5/assignments/aufgabe5/._service.go": "\x00\x05\x16\x07"})
	if _, err := loadSubmission(dave, ""); err != nil {
		t.Errorf("a platform folder with abgabe.zip and a __MACOSX folder: %v", err)
	}
}

// TestTimeoutTimesRepeatDoesNotOverflow: o.timeout *= repeat is not
// checked: a long per-run limit times a few runs wraps to a negative
// limit, and every hand-in then times out at once.
func TestTimeoutTimesRepeatDoesNotOverflow(t *testing.T) {
	class, out := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(class, "gina.rar"), []byte("Rar!"), 0o644)
	var log strings.Builder
	err := mainErr(context.Background(), []string{"--submissions", class, "--out", out, "--repeat", "3", "--timeout", "1000000h"}, &log)
	if err == nil && strings.Contains(log.String(), " -") {
		t.Errorf("--repeat 3 --timeout 1000000h was taken with an overflowed limit:\n%s", log.String())
	}
}

package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestFailedStepNamesTheFailingTests (a new user's trial): a failed make
// test showed "..." and the output's last 60 lines, which were the
// packages that passed after the failing one, so the error named no test.
// The failing tests, packages and panics now come first, from the whole
// output, before the tail.
func TestFailedStepNamesTheFailingTests(t *testing.T) {
	script := `echo "=== RUN   TestX"; echo "    --- FAIL: TestX/sub (0.10s)"; echo "--- FAIL: TestX (0.20s)"
echo "panic: boom [recovered]"; printf 'FAIL\tzablab/server\t3.1s\n'
i=0; while [ $i -lt 100 ]; do printf 'ok  \tzablab/pkg%d\t0.1s\n' $i; i=$((i+1)); done; exit 1`
	_, err := run(context.Background(), t.TempDir(), step{"make test", []string{"sh", "-c", script}}, 0, io.Discard)
	if !errors.Is(err, errCheck) {
		t.Fatalf("run: %v, want errCheck", err)
	}
	msg := err.Error()
	for _, want := range []string{"--- FAIL: TestX/sub (0.10s)", "--- FAIL: TestX (0.20s)", "panic: boom", "FAIL\tzablab/server", "ok  \tzablab/pkg99"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error lacks %q:\n%s", want, msg)
		}
	}
	if i, j := strings.Index(msg, "--- FAIL: TestX ("), strings.Index(msg, "zablab/pkg99"); i < 0 || j < i {
		t.Errorf("the failing tests come after the tail:\n%s", msg)
	}
	if got := failureReport("a\nb\n"); got != "a\nb" {
		t.Errorf("failureReport of output naming no failure = %q, want its tail alone", got)
	}
}

// TestFailedCheckKeepsFolderAndMovesArchive (a new user's trial): a
// failed check removed its unpacked copy, where the failure could be
// looked at, and left handout/aufgabe5.tar.gz in place as if it were good.
// The copy is now kept and named, and the archive renamed *.failed.
func TestFailedCheckKeepsFolderAndMovesArchive(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	var buf bytes.Buffer
	broken := []file{
		{path: "go.mod", data: []byte("module broken\n\ngo 1.21\n")},
		{path: "x.go", data: []byte("package broken\n\nfunc F() { undefinedHere() }\n")},
	}
	if err := writeTar(&buf, broken, time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "aufgabe5.tar.gz")
	if err := os.WriteFile(out+uncheckedSuffix, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	err := verify(t.TempDir(), options{out: out}, nil, io.Discard)
	if !errors.Is(err, errCheck) || !strings.Contains(err.Error(), "undefinedHere") {
		t.Fatalf("verify of a handout that does not build: %v, want errCheck naming undefinedHere", err)
	}
	kept := regexp.MustCompile(`kept in (\S+)`).FindStringSubmatch(err.Error())
	if kept == nil || !strings.HasPrefix(kept[1], filepath.Join(tmp, "mwzk-handout-")) {
		t.Fatalf("the error names no kept folder under %s:\n%v", tmp, err)
	}
	if _, err := os.Stat(filepath.Join(kept[1], "aufgabe5", "x.go")); err != nil {
		t.Errorf("the unpacked handout is gone: %v", err)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s is still there after its check failed (%v)", out, err)
	}
	if _, err := os.Stat(out + uncheckedSuffix); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s is still there after its check failed (%v)", out+uncheckedSuffix, err)
	}
	if _, err := os.Stat(out + ".failed"); err != nil {
		t.Errorf("%s.failed: %v", out, err)
	}
	if !strings.Contains(err.Error(), "it is now "+out+".failed") {
		t.Errorf("the error does not say where the archive went:\n%v", err)
	}
}

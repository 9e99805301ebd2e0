package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// compileHandIn compiles the stubs, changed by change, handed in under
// handin/, and returns the compiler's message as the report has it.
func compileHandIn(t *testing.T, change func(map[string]string)) string {
	t.Helper()
	files := folderFiles(t, testRoot(t, false), "assignments/aufgabe5")
	change(files)
	tr, sub := handInTree(t, inFolder("handin", files))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	_, err := compileSuite(ctx, tr, sub, false)
	if err == nil {
		t.Fatal("the changed stubs compiled; the test needs a compile error")
	}
	return err.Error()
}

// handInTree is the grading copy of the hand-in files (paths in the
// hand-in), removed when the test ends.
func handInTree(t *testing.T, files map[string]string) (*tree, *submission) {
	t.Helper()
	root := testRoot(t, false)
	dir := t.TempDir()
	writeTree(t, dir, files)
	sub, err := loadSubmission(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := buildTree(root, sub, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tr.remove)
	return tr, sub
}

// TestCompileErrorsNameEveryGradedFileInTheHandIn: a redeclaration names
// its second file on an indented line; both files are named where the
// hand-in has them.
func TestCompileErrorsNameEveryGradedFileInTheHandIn(t *testing.T) {
	msg := compileHandIn(t, func(f map[string]string) {
		f["dup.go"] = "package aufgabe5\n\nfunc flush(out []outReply) {}\n"
	})
	named := 0
	for _, l := range strings.Split(msg, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, gradedDir) {
			t.Errorf("a line names the grading copy's path, not the hand-in's: %q", l)
		}
		if strings.HasPrefix(l, "handin/"+gradedDir) {
			named++
		}
	}
	if named < 2 {
		t.Errorf("%d lines name a file of the hand-in, want both of the redeclaration's:\n%s", named, msg)
	}
}

// TestCompileErrorsKeepTheGradersFiles: the grader's conformance_test.go,
// broken by a changed API, is not put where the hand-in's ignored copy
// would be.
func TestCompileErrorsKeepTheGradersFiles(t *testing.T) {
	const newFunc = "func New() mwzookeeper.Service { return &Service{} }"
	msg := compileHandIn(t, func(f map[string]string) {
		if !strings.Contains(f["service.go"], newFunc) {
			t.Fatalf("the stubs' service.go has no %q", newFunc)
		}
		f["service.go"] = strings.Replace(f["service.go"], newFunc, "func New(int) mwzookeeper.Service { return &Service{} }", 1)
	})
	if !strings.Contains(msg, "\n"+gradedDir+"conformance_test.go:") || strings.Contains(msg, "handin/"+gradedDir+"conformance_test.go") {
		t.Errorf("the grader's conformance_test.go is not named as the grading copy's file:\n%s", msg)
	}
}

// TestMissingSuiteFileIsNamed: a tree without the grader's test file (a
// student deleted it from their own checkout) compiles to no binary at all;
// the grader says which file is missing instead of failing to start one.
func TestMissingSuiteFileIsNamed(t *testing.T) {
	tr, sub := handInTree(t, inFolder("", folderFiles(t, testRoot(t, false), "assignments/aufgabe5")))
	if err := os.Remove(filepath.Join(tr.dir, gradedDir, graderTestFile)); err != nil {
		t.Fatal(err)
	}
	_, err := compileSuite(context.Background(), tr, sub, false)
	if !errors.Is(err, errNoSuite) || !strings.Contains(err.Error(), gradedDir+graderTestFile) {
		t.Fatalf("compileSuite without %s: %v; want errNoSuite naming the file", graderTestFile, err)
	}
}

// staleDeps lists which of pkgs need a rebuild for the suite's binary
// (compileSuite's mode), as go list sees the build cache.
func staleDeps(t *testing.T, root string, pkgs ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-trimpath", "-tags", "mwzk_extra", "-f", "{{if .Stale}}{{.ImportPath}}{{end}}"}, pkgs...)...)
	cmd.Dir, cmd.Env = root, append(os.Environ(), "GOWORK=off", "CGO_ENABLED=0")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	return strings.Fields(string(out))
}

// TestWarmCacheFillsAColdCache: on a cold build cache (a fresh machine,
// CI) the suite's dependencies are compiled before a hand-in's clock
// starts, so the first hand-in's compile is not a timeout (a batch with a
// 25 s limit graded a compile error as "time ran out" on a fresh machine).
func TestWarmCacheFillsAColdCache(t *testing.T) {
	root := testRoot(t, false)
	t.Setenv("GOCACHE", t.TempDir())
	deps := []string{"zablab/mwzookeeper/conformance", "zablab/internal/svctest", "github.com/go-zookeeper/zk"}
	if got := staleDeps(t, root, deps...); len(got) != len(deps) {
		t.Fatalf("a fresh GOCACHE should hold none of %v; stale are only %v", deps, got)
	}
	var log strings.Builder
	warmCache(context.Background(), root, false, &log)
	if got := staleDeps(t, root, deps...); len(got) != 0 {
		t.Errorf("after warmCache these still need compiling: %v\nits output:\n%s", got, log.String())
	}
}

// TestMissingProvidedFileIsNamed: a hand-in without one of the handout's
// files (a student's trial: zabpeer.go left out of the archive) showed only
// the compiler's "undefined: ..." lines; the report names the file too.
func TestMissingProvidedFileIsNamed(t *testing.T) {
	msg := compileHandIn(t, func(f map[string]string) {
		if _, ok := f["zabpeer.go"]; !ok {
			t.Fatal("the stubs have no zabpeer.go to leave out")
		}
		delete(f, "zabpeer.go")
	})
	if !strings.Contains(msg, "the hand-in has no zabpeer.go of the handout's handin/"+strings.TrimSuffix(gradedDir, "/")) {
		t.Errorf("the missing zabpeer.go is not named:\n%s", msg)
	}
	ok := compileHandIn(t, func(f map[string]string) { f["extra.go"] = "package aufgabe5\n\nvar x int = \"s\"\n" })
	if strings.Contains(ok, "the hand-in has no") {
		t.Errorf("a hand-in with every file is said to lack one:\n%s", ok)
	}
}

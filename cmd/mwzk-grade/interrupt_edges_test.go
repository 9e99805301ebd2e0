package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// TestInterruptKeepsOnlyAGradeItCannotHaveChanged: an interrupt that
// lands after a hand-in's grading ended threw the finished grade away as
// if the run had been cut short. A grade the interrupt cannot have
// changed (graded, or a compile error: a run or compile it cut is made a
// timeout) is now kept; a refusal is not (git, which some checks ask, may
// have died of the same Ctrl-C), nor a timeout or an error.
func TestInterruptKeepsOnlyAGradeItCannotHaveChanged(t *testing.T) {
	live, canceled := context.Background(), func() context.Context {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		return ctx
	}()
	for _, c := range []struct {
		status string
		cut    bool
	}{{"graded", false}, {"compile-error", false}, {"refused", true}, {"timeout", true}, {"error", true}, {"", true}} {
		if got := cutShort(canceled, &Report{Status: c.status}); got != c.cut {
			t.Errorf("status %q after an interrupt: cut short %v, want %v", c.status, got, c.cut)
		}
		if cutShort(live, &Report{Status: c.status}) {
			t.Errorf("status %q without an interrupt: cut short", c.status)
		}
	}
	if !cutShort(canceled, nil) {
		t.Errorf("no report after an interrupt: not cut short")
	}
}

// TestCtrlCKillingGitRecordsNoRefusal (a review's failing test): a
// Ctrl-C reaches the whole foreground process group, and git, which the
// check of an older handout's grader files asks, died of it: the hand-in
// was refused, the refusal kept although the batch was interrupted, and
// the next run skipped the hand-in as unchanged. Here a git that kills
// itself with SIGINT once the test has cancelled stands in for it.
func TestCtrlCKillingGitRecordsNoRefusal(t *testing.T) {
	stubsRoot := testRoot(t, false)
	const rel = "mwzookeeper/conformance/a51_tree.go"
	root := graderHistory(t, rel)
	hands := filepath.Join(t.TempDir(), "hand-ins")
	files := inFolder("", folderFiles(t, stubsRoot, "assignments/aufgabe5"))
	files[rel] = "package conformance // plain\n" // an earlier version: not refused
	writeTree(t, filepath.Join(hands, "bob"), files)
	realGit, err := exec.LookPath("git")
	if err != nil {
		t.Fatalf("git, which grading a repository needs: %v", err)
	}
	bin := t.TempDir()
	hit, goOn := filepath.Join(bin, "hit"), filepath.Join(bin, "go-on")
	for _, f := range []string{hit, goOn} {
		if err := syscall.Mkfifo(f, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// hash-object: tell the test, wait for its cancel (the grader's
	// signal handler), then die of SIGINT.
	script := "#!/bin/sh\ncase \" $* \" in *\" hash-object \"*) printf x > '" + hit + "'; read _ < '" + goOn +
		"'; kill -INT $$;; esac\nexec '" + realGit + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	path := os.Getenv("PATH")
	t.Setenv("PATH", bin+string(os.PathListSeparator)+path)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		if _, err := os.ReadFile(hit); err == nil {
			cancel()
			os.WriteFile(goOn, []byte("\n"), 0)
		}
	}()
	o := withDefaults(options{submissions: hands, out: filepath.Join(t.TempDir(), "out")})
	it := &batchItem{name: "bob", path: filepath.Join(hands, "bob")}
	rep, _ := gradeItem(ctx, root, o, it)
	if f, err := os.OpenFile(hit, os.O_RDWR, 0); err == nil { // unblock the reader if git never ran
		f.Close()
	}
	if ctx.Err() == nil {
		t.Fatal("git hash-object never ran")
	}
	if rep != nil {
		t.Errorf("an interrupt killed git mid-check, yet the hand-in was recorded: %q %q; want nothing recorded", rep.Status, rep.Problems)
	}
	t.Setenv("PATH", path) // the same command again, git intact
	if again, skipped := gradeItem(context.Background(), root, o, it); skipped && again.Status == "refused" {
		t.Errorf("the rerun keeps the interrupt's refusal: skipped %v, status %q", skipped, again.Status)
	}
}

// TestKilledGraderLeavesThePicturesOfTheLastGrade: grading a hand-in
// moves its last grade's pictures to pictures.last and starts a new
// pictures folder; a grader killed then (SIGKILL) recorded nothing, so the
// last grade stayed, but its pictures sat in pictures.last for good (the
// next run found the hand-in unchanged and skipped it), and its report's
// links were dead. The next run now puts them back.
func TestKilledGraderLeavesThePicturesOfTheLastGrade(t *testing.T) {
	root, o, it := brokenHandIn(t, nil)
	if rep, _ := gradeItem(context.Background(), root, o, it); rep == nil || rep.Status != "compile-error" {
		t.Fatalf("first grade: %+v, want a compile error", rep)
	}
	// What a grader killed in the middle of the next grading leaves.
	pics := filepath.Join(o.out, "bob", "pictures")
	writeTree(t, pics+".last", map[string]string{"A5.1_TestX/failure.html": "the last grade's"})
	writeTree(t, pics, map[string]string{"A5.1_TestY/failure.html": "the killed run's, partial"})
	if _, skipped := gradeItem(context.Background(), root, o, it); !skipped {
		t.Fatalf("the unchanged hand-in was graded again")
	}
	if _, err := os.Stat(filepath.Join(pics, "A5.1_TestX", "failure.html")); err != nil {
		t.Errorf("the last grade's picture is not back in pictures/: %v", err)
	}
	if _, err := os.Stat(filepath.Join(pics, "A5.1_TestY")); err == nil {
		t.Errorf("the killed run's partial picture is still there")
	}
	if _, err := os.Stat(pics + ".last"); err == nil {
		t.Errorf("pictures.last is still there")
	}
}

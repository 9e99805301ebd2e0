package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// gitRepo makes dir a git repository with files committed.
func gitRepo(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH: this test makes a hand-in repository with it")
	}
	writeTree(t, dir, files)
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-q", "-m", "hand-in"}} {
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// TestBigGitBlobIsRefusedWhileStreaming: a graded file over the size
// limit is refused from its tar header, before its bytes are read into
// memory (git archive's output was read whole first: a 2 GiB blob took
// 8.4 GB); one outside the graded folder is skipped unread, as in every
// other form of hand-in (TestWholeTreeWithBuildOutputIsGraded).
func TestBigGitBlobIsRefusedWhileStreaming(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "carol")
	const big = 64 << 20
	gitRepo(t, dir, map[string]string{gradedDir + "a.go": "package aufgabe5\n", "big.bin": strings.Repeat("\x00", big),
		gradedDir + "big.go": strings.Repeat("\x00", big)})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := loadSubmission(dir, "")
	runtime.ReadMemStats(&after)
	if !errors.Is(err, errRefused) || !strings.Contains(err.Error(), `"`+gradedDir+`big.go" has 67108864 bytes`) || !strings.Contains(err.Error(), dir) {
		t.Errorf("loading a repository with a 64 MiB blob: %v, want it refused, naming the blob", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > big/4 {
		t.Errorf("loading allocated %d bytes: the blob (%d bytes) was read before its refusal", got, big)
	}
}

// TestGitArchiveFailureIsNamed: a git archive that fails halfway (a blob
// is missing) names the submission and says what git said, not only that
// the tar stream broke off.
func TestGitArchiveFailureIsNamed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dave")
	gitRepo(t, dir, map[string]string{gradedDir + "a.go": "package aufgabe5\n", gradedDir + "b.go": "package aufgabe5 // b\n"})
	blob, err := gitOut(dir, "rev-parse", "HEAD:"+gradedDir+"b.go")
	if err != nil {
		t.Fatal(err)
	}
	blob = strings.TrimSpace(blob)
	if err := os.Remove(filepath.Join(dir, ".git", "objects", blob[:2], blob[2:])); err != nil {
		t.Fatal(err)
	}
	_, _, err = repoEntries(dir, gitDir(dir), "")
	if err == nil || !strings.Contains(err.Error(), "git archive") || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), blob) {
		t.Errorf("git archive with a missing blob: %v, want git's error naming %s and the blob", err, dir)
	}
}

// TestGitFileIsNotFollowed: a hand-in folder whose .git is a file pointing
// at another repository (another student's) is graded by its own files,
// and the report says the .git file was not used; REF is refused.
func TestGitFileIsNotFollowed(t *testing.T) {
	subs := t.TempDir()
	gitRepo(t, filepath.Join(subs, "alice"), map[string]string{gradedDir + "a.go": "package aufgabe5 // alice\n"})
	mallory := filepath.Join(subs, "mallory")
	writeTree(t, mallory, map[string]string{".git": "gitdir: ../alice/.git\n", gradedDir + "a.go": "package aufgabe5 // mallory\n"})
	s, err := loadSubmission(mallory, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := string(s.Files["a.go"]); !strings.Contains(got, "mallory") || s.Ref != "" {
		t.Errorf("graded a.go %q at commit %q, want mallory's own file and no commit", got, s.Ref)
	}
	if len(s.Ignored) != 1 || !strings.Contains(s.Ignored[0], `.git: a file pointing elsewhere ("gitdir: ../alice/.git")`) {
		t.Errorf("ignored %q, want one line saying the .git file was not used", s.Ignored)
	}
	if _, err := loadSubmission(mallory, "HEAD"); err == nil || !strings.Contains(err.Error(), ".git: a file") {
		t.Errorf("REF=HEAD on a folder with a .git file: %v, want refused naming the .git file", err)
	}
}

// TestGitRepoReachingOutsideIsRefused: a .git link, a .git folder that
// takes its refs from another repository (commondir), and a folder that
// only looks like a bare repository (git would go on to a parent folder's
// repository) are never graded at another repository's commit.
func TestGitRepoReachingOutsideIsRefused(t *testing.T) {
	subs := t.TempDir()
	gitRepo(t, subs, map[string]string{gradedDir + "a.go": "package aufgabe5 // course\n"})
	alice := filepath.Join(subs, "alice")
	gitRepo(t, alice, map[string]string{gradedDir + "a.go": "package aufgabe5 // alice\n"})
	mine := map[string]string{gradedDir + "a.go": "package aufgabe5 // mine\n"}
	link := filepath.Join(subs, "link")
	writeTree(t, link, mine)
	if err := os.Symlink(filepath.Join(alice, ".git"), filepath.Join(link, ".git")); err != nil {
		t.Fatal(err)
	}
	common := filepath.Join(subs, "common")
	writeTree(t, common, mine)
	head, err := os.ReadFile(filepath.Join(alice, ".git", "HEAD"))
	if err != nil {
		t.Fatal(err)
	}
	writeTree(t, filepath.Join(common, ".git"), map[string]string{"HEAD": string(head), "commondir": "../../alice/.git\n", "objects/x": "", "refs/x": ""})
	fake := filepath.Join(subs, "fake")
	writeTree(t, fake, map[string]string{"HEAD": "not a ref\n", "objects/x": "", "refs/x": "", gradedDir + "a.go": "package aufgabe5 // fake\n"})
	for _, dir := range []string{link, common, fake} {
		s, err := loadSubmission(dir, "")
		if err == nil && (strings.Contains(string(s.Files["a.go"]), "alice") || strings.Contains(string(s.Files["a.go"]), "course")) {
			t.Errorf("%s: graded another repository's a.go %q", filepath.Base(dir), s.Files["a.go"])
		}
		if err != nil && !strings.Contains(err.Error(), dir) {
			t.Errorf("%s: %v, want the error to name the hand-in", filepath.Base(dir), err)
		}
	}
	// git must not resolve HEAD in the parent folder's repository.
	if _, err := loadSubmission(fake, ""); err == nil || !strings.Contains(err.Error(), `no commit "HEAD"`) {
		t.Errorf("fake: %v, want refused for having no commit", err)
	}
}

// TestHandInGitConfigRunsNothing: a repository whose own configuration
// names a filter command for every file (a smudge that git archive would
// run) is read without running it: the grader reads refs and objects
// through a repository of its own.
func TestHandInGitConfigRunsNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mallory")
	gitRepo(t, dir, map[string]string{gradedDir + "a.go": "package aufgabe5\n"})
	ran := filepath.Join(t.TempDir(), "ran")
	cfg := fmt.Sprintf("[filter \"pwn\"]\n\tsmudge = \"touch %s && cat\"\n", ran)
	appendFile(t, filepath.Join(dir, ".git", "config"), cfg)
	os.MkdirAll(filepath.Join(dir, ".git", "info"), 0o755)
	appendFile(t, filepath.Join(dir, ".git", "info", "attributes"), "* filter=pwn\n")
	// The filter works where git reads the hand-in's configuration.
	if out, err := exec.Command("git", "-C", dir, "archive", "--format=tar", "HEAD").CombinedOutput(); err != nil {
		t.Fatalf("git archive in the hand-in: %v: %s", err, out)
	}
	if _, err := os.Stat(ran); err != nil {
		t.Fatalf("the planted filter did not run even in the hand-in's own repository (%v): the test proves nothing", err)
	}
	os.Remove(ran)
	sub, err := loadSubmission(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := sub.Files["a.go"]; !ok {
		t.Errorf("the hand-in's a.go was not read: %v", sub.Files)
	}
	if _, err := os.Stat(ran); err == nil {
		t.Errorf("loading the hand-in ran the filter command of its .git/config")
	}
}

func appendFile(t *testing.T, file, text string) {
	t.Helper()
	f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

// TestFIFOInRepositoryDoesNotHang: a hand-in whose .git/HEAD or
// packed-refs is a FIFO made the grader wait forever (past its timeout,
// deaf to Ctrl-C); loading it now ends at once, graded or refused.
func TestFIFOInRepositoryDoesNotHang(t *testing.T) {
	for _, name := range []string{"HEAD", "packed-refs"} {
		dir := filepath.Join(t.TempDir(), "fifo")
		gitRepo(t, dir, map[string]string{gradedDir + "a.go": "package aufgabe5\n"})
		p := filepath.Join(dir, ".git", name)
		os.Remove(p)
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { _, err := loadSubmission(dir, ""); done <- err }()
		select {
		case err := <-done:
			t.Logf("%s a FIFO: %v", name, err)
		case <-time.After(30 * time.Second):
			t.Fatalf("loading a hand-in whose .git/%s is a FIFO did not end within 30 s", name)
		}
	}
}

// TestRepositoriesOfEitherHashAreRead: the clean repository takes the
// hand-in's object format, so a sha256 repository is read, and a sha1 one
// too where the grader's git defaults to sha256 (both were refused with
// "no commit HEAD").
func TestRepositoriesOfEitherHashAreRead(t *testing.T) {
	sha256 := filepath.Join(t.TempDir(), "erin")
	writeTree(t, sha256, map[string]string{gradedDir + "a.go": "package aufgabe5\n"})
	for _, args := range [][]string{{"init", "-q", "--object-format=sha256"}, {"add", "."}, {"commit", "-q", "-m", "hand-in"}} {
		cmd := exec.Command("git", append([]string{"-C", sha256, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if sub, err := loadSubmission(sha256, ""); err != nil || len(sub.Files) == 0 {
		t.Errorf("a sha256 repository: %v, files %v", err, sub)
	}
	sha1 := filepath.Join(t.TempDir(), "frank")
	gitRepo(t, sha1, map[string]string{gradedDir + "a.go": "package aufgabe5\n"})
	t.Setenv("GIT_DEFAULT_HASH", "sha256")
	if sub, err := loadSubmission(sha1, ""); err != nil || len(sub.Files) == 0 {
		t.Errorf("a sha1 repository with GIT_DEFAULT_HASH=sha256: %v, files %v", err, sub)
	}
}

// TestGitAlternatesAreRefusedWithTheFix: a clone made with --shared keeps
// no objects of its own, only objects/info/alternates naming the
// repository it was cloned from: graded through it, its commit's files
// came from elsewhere on the instructor's machine (another student's
// hand-in, say). It is refused with the file named and the fix, and the
// fix makes it gradable.
func TestGitAlternatesAreRefusedWithTheFix(t *testing.T) {
	subs := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(subs))
	alice := filepath.Join(subs, "alice")
	gitRepo(t, alice, map[string]string{gradedDir + "a.go": "package aufgabe5 // alice\n"})
	bob := filepath.Join(subs, "bob")
	git := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("clone", "-q", "--shared", alice, bob)
	alt := filepath.Join(bob, ".git", "objects", "info", "alternates")
	if _, err := os.Stat(alt); err != nil {
		t.Fatalf("git clone --shared made no alternates file: %v", err)
	}
	_, err := loadSubmission(bob, "")
	if !errors.Is(err, errRefused) || !strings.Contains(err.Error(), alt) || !strings.Contains(err.Error(), "git repack -a -d") {
		t.Fatalf("a hand-in borrowing its objects through %s: %v; want refused, naming the file and git repack -a -d", alt, err)
	}
	git("-C", bob, "repack", "-q", "-a", "-d")
	if err := os.Remove(alt); err != nil {
		t.Fatal(err)
	}
	s, err := loadSubmission(bob, "")
	if err != nil || !strings.Contains(string(s.Files["a.go"]), "alice") {
		t.Fatalf("after git repack -a -d and removing %s: %v; want its commit graded", alt, err)
	}
}

// TestGraderIgnoresTheInstructorsGitVariables: the grader's own git calls
// inherited the instructor's environment, so GIT_ALTERNATE_OBJECT_DIRECTORIES
// set there (for some other work in that shell) let a hand-in whose
// objects are missing be graded from another repository's objects. Bob's
// clone here lost its alternates file without a repack: it holds no
// objects of its own, and must not be graded from alice's.
func TestGraderIgnoresTheInstructorsGitVariables(t *testing.T) {
	subs := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(subs))
	alice := filepath.Join(subs, "alice")
	gitRepo(t, alice, map[string]string{gradedDir + "a.go": "package aufgabe5 // alice\n"})
	bob := filepath.Join(subs, "bob")
	if out, err := exec.Command("git", "clone", "-q", "--shared", alice, bob).CombinedOutput(); err != nil {
		t.Fatalf("git clone --shared: %v\n%s", err, out)
	}
	if err := os.Remove(filepath.Join(bob, ".git", "objects", "info", "alternates")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_ALTERNATE_OBJECT_DIRECTORIES", filepath.Join(alice, ".git", "objects"))
	if s, err := loadSubmission(bob, ""); err == nil {
		t.Fatalf("bob's repository has no objects, yet it was graded (a.go: %q): the instructor's GIT_ALTERNATE_OBJECT_DIRECTORIES lent it alice's", s.Files["a.go"])
	}
}

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"zablab/internal/procs"
)

// TestVersionEntryNamesTheCommit: the handout's HANDOUT-VERSION holds the
// packed commit, with -dirty only when a tracked file differs from it, and
// --rev's commit whatever the working tree holds.
func TestVersionEntryNamesTheCommit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skipf("git is not installed: %v", err)
	}
	dir := t.TempDir()
	gitIn := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.org"}, args...)...)
		out, err := procs.Run(cmd, 30*time.Second)
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	gitIn("init", "-q")
	f := filepath.Join(dir, "a.txt")
	write := func(s string) {
		if err := os.WriteFile(f, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("one\n")
	gitIn("add", "a.txt")
	gitIn("commit", "-q", "-m", "one")
	head := gitIn("rev-parse", "HEAD")
	for _, c := range []struct {
		name, content, rev, want string
	}{
		{"clean tree", "one\n", "", head},
		{"changed tracked file", "two\n", "", head + "-dirty"},
		{"--rev ignores the tree", "two\n", "HEAD", head},
	} {
		write(c.content)
		e, err := versionEntry(dir, c.rev)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if e.path != versionFile || string(e.data) != c.want+"\n" {
			t.Errorf("%s: %s holds %q, want %q", c.name, e.path, e.data, c.want+"\n")
		}
	}
	if _, err := versionEntry(dir, "no-such-rev"); err == nil || !strings.Contains(err.Error(), "no-such-rev") {
		t.Errorf("an unknown --rev: %v, want an error naming it", err)
	}
}

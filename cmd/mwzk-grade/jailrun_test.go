package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOnlyTheSuitesPagesLeaveTheSandbox: of what a sandboxed run left in
// its pictures folder, only <test folder>/<page>.html regular files that
// the suite vouched for, with the content it vouched for, reach the real
// pictures folder; a page the graded code wrote beside it, one it changed
// after the suite wrote it, a Go file (which a later go test ./... in the
// instructor's module would run), a link, a page in a linked folder and
// anything elsewhere are dropped and counted.
func TestOnlyTheSuitesPagesLeaveTheSandbox(t *testing.T) {
	src, dst := t.TempDir(), filepath.Join(t.TempDir(), "pictures")
	write := func(rel, text string) {
		p := filepath.Join(src, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("TestConformance_A5.2_Linearizable/history.html", "<html>page</html>")
	write("TestConformance_A5.2_Linearizable/passed.html", "<html>all tests passed</html>")
	write("TestConformance_A5.1_Session/history.html", "<html>changed after</html>")
	vouched := map[string]string{
		"TestConformance_A5.2_Linearizable/history.html": sha256Hex("<html>page</html>"),
		"TestConformance_A5.1_Session/history.html":      sha256Hex("<html>as the suite wrote it</html>"),
	}
	write("TestConformance_A5.2_Linearizable/planted_test.go", "package pictures")
	write("planted_test.go", "package pictures")
	write("a/b/deep.html", "<html>deep</html>")
	if err := os.Symlink("/etc/passwd", filepath.Join(src, "TestConformance_A5.2_Linearizable", "link.html")); err != nil {
		t.Fatal(err)
	}
	elsewhere := t.TempDir()
	if err := os.WriteFile(filepath.Join(elsewhere, "report.html"), []byte("another's"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(src, "linked")); err != nil {
		t.Fatal(err)
	}
	problems := keepPages(src, dst, vouched)
	var got []string
	filepath.WalkDir(dst, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dst, p)
			got = append(got, rel)
		}
		return nil
	})
	if want := filepath.Join("TestConformance_A5.2_Linearizable", "history.html"); len(got) != 1 || got[0] != want {
		t.Errorf("kept %q, want only %s", got, want)
	}
	if len(problems) != 1 || !strings.HasPrefix(problems[0], "7 file(s)") {
		t.Errorf("problems %q, want one counting the 7 entries dropped (the folder link among them)", problems)
	}
}

// TestJailEnvKeepsOnlyTheProjectsVariables: a sandboxed suite gets the
// project's variables and Go's runtime settings, not the rest.
func TestJailEnvKeepsOnlyTheProjectsVariables(t *testing.T) {
	got := jailEnv([]string{"HOME=/root", "MWZK_SEED=4", "AWS_SECRET=x", "GOMAXPROCS=2", "PATH=/bin", "ZABLAB_ARTIFACTS=/p", "GOPATH=/go"})
	want := []string{"MWZK_SEED=4", "GOMAXPROCS=2", "ZABLAB_ARTIFACTS=/p"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("jailEnv = %q, want %q", got, want)
	}
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

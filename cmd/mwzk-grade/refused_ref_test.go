package main

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// TestRefusedRepositoryAgainLineKeepsRef: make grade SUBMISSION=bob
// REF=abgabe, where bob's repository has no commit "abgabe" (he forgot the
// tag), is refused; its report's "again" command left REF out, so running
// it graded bob's HEAD, a commit nobody asked for (perhaps one after the
// deadline), where it should say what this grading did: the same refusal.
func TestRefusedRepositoryAgainLineKeepsRef(t *testing.T) {
	testRoot(t, false)
	dir := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", dir)
	repo := filepath.Join(dir, "bob")
	gitRepo(t, repo, map[string]string{gradedDir + "a.go": "package aufgabe5\n"})
	file := filepath.Join(dir, "grade-A5.2.json")
	err := mainErr(context.Background(), []string{"--submission", repo, "--ref", "abgabe", "--part", "A5.2", "--json", file}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), `no commit "abgabe"`) {
		t.Fatalf("grading %s at a missing REF: %v, want a refusal naming the commit", repo, err)
	}
	rep, rerr := readJSON(file)
	if rerr != nil {
		t.Fatal(rerr)
	}
	if got := againCommand(rep); !strings.Contains(got, " REF=abgabe") {
		t.Errorf("the refusal's again command %q lacks REF=abgabe: it grades the repository's HEAD", got)
	}
}

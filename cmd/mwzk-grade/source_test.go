package main

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestUnsafeArchivesAreRefusedByName: an archive that could write outside
// its folder, or carries links or devices, is refused whole, naming the
// entry; nothing of it is unpacked.
func TestUnsafeArchivesAreRefusedByName(t *testing.T) {
	good := tarEntry{name: "assignments/aufgabe5/a.go", data: "package aufgabe5\n"}
	for _, tc := range []struct {
		bad  tarEntry
		want string
	}{
		{tarEntry{name: "../x", data: "x"}, `"../x" has a .. path element`},
		{tarEntry{name: "assignments/aufgabe5/../../../x.go", data: "x"}, `.. path element`},
		{tarEntry{name: "/etc/passwd", data: "x"}, `"/etc/passwd" has an absolute path`},
		{tarEntry{name: "assignments/aufgabe5/l.go", link: "/etc/passwd", typ: tar.TypeSymlink}, `"assignments/aufgabe5/l.go" is a link`},
		{tarEntry{name: "assignments/aufgabe5/h.go", link: "assignments/aufgabe5/a.go", typ: tar.TypeLink}, `is a link`},
		{tarEntry{name: "dev", typ: tar.TypeChar}, `"dev" is not a regular file`},
		{tarEntry{name: "fifo", typ: tar.TypeFifo}, `"fifo" is not a regular file`},
	} {
		file := filepath.Join(t.TempDir(), "s.tar.gz")
		writeTarGz(t, file, []tarEntry{good, tc.bad})
		_, err := loadSubmission(file, "")
		if !errors.Is(err, errRefused) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("entry %q: %v, want refused with %q", tc.bad.name, err, tc.want)
		}
	}
}

// TestSubmissionPicksOnlyTheGradedFolder: only assignments/aufgabe5/*.go
// (not tests, not subfolders) is graded, under one top folder or none;
// everything else is listed as ignored.
func TestSubmissionPicksOnlyTheGradedFolder(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "alice.zip")
	writeZip(t, file, map[string]string{
		"alice/assignments/aufgabe5/service.go":      "package aufgabe5\n",
		"alice/assignments/aufgabe5/queue.go":        "package aufgabe5\n",
		"alice/assignments/aufgabe5/my_test.go":      "package aufgabe5\n",
		"alice/assignments/aufgabe5/sub/x.go":        "package sub\n",
		"alice/assignments/aufgabe5/notes.txt":       "x",
		"alice/README.md":                            "x",
		"alice/mwzookeeper/conformance/something.go": "package conformance\n",
	})
	s, err := loadSubmission(file, "")
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "alice" || len(s.Files) != 2 || s.Files["service.go"] == nil || s.Files["queue.go"] == nil {
		t.Fatalf("submission %q with files %v, want alice with service.go and queue.go", s.Name, keys(s.Files))
	}
	if len(s.Ignored) != 5 || !slices.IsSorted(s.Ignored) {
		t.Fatalf("ignored %q, want the 5 other entries, by path", s.Ignored)
	}
	// A renamed file changes the hash; the same files give the same hash.
	h := s.sha256()
	s.Files["order.go"] = s.Files["queue.go"]
	delete(s.Files, "queue.go")
	if s.sha256() == h {
		t.Fatal("renaming a file kept the sha256")
	}
}

// TestChangedGraderFilesAreRefused: a submission carrying a changed copy of
// the suite (or any grader file) is refused, naming the file; an unchanged
// copy is only ignored.
func TestChangedGraderFilesAreRefused(t *testing.T) {
	root := testRoot(t, false)
	suite := "mwzookeeper/conformance/a51_tree.go"
	mine := readFile(t, filepath.Join(root, suite))
	stub := "package aufgabe5\n"
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{gradedDir + "service.go": stub, suite: mine})
	s, err := loadSubmission(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.checkForeign(root); err != nil {
		t.Fatalf("an unchanged copy of %s: %v, want it ignored", suite, err)
	}
	writeTree(t, dir, map[string]string{suite: strings.Replace(mine, "package conformance", "package conformance // mine", 1)})
	s, _ = loadSubmission(dir, "")
	if err := s.checkForeign(root); !errors.Is(err, errRefused) || !strings.Contains(err.Error(), suite) {
		t.Fatalf("a changed copy of %s: %v, want refused naming it", suite, err)
	}
}

// TestGitSubmissionsAtHeadAndRef: a working clone is graded at HEAD (not
// its uncommitted files), a bare clone too, and REF picks another commit.
func TestGitSubmissionsAtHeadAndRef(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bob")
	taggedRepo(t, dir, "v1", "package aufgabe5 // v1\n", "package aufgabe5 // v2\n")
	writeTree(t, dir, map[string]string{gradedDir + "a.go": "package aufgabe5 // uncommitted\n"})
	for _, tc := range []struct{ ref, want string }{{"", "v2"}, {"v1", "v1"}} {
		s, err := loadSubmission(dir, tc.ref)
		if err != nil || !strings.Contains(string(s.Files["a.go"]), tc.want) || len(s.Ref) != 40 {
			t.Fatalf("ref %q: %v, a.go %q, commit %q; want %s", tc.ref, err, s.Files["a.go"], s.Ref, tc.want)
		}
	}
	bare := dir + ".git"
	if out, err := exec.Command("git", "clone", "-q", "--bare", dir, bare).CombinedOutput(); err != nil {
		t.Fatalf("clone --bare: %v\n%s", err, out)
	}
	s, err := loadSubmission(bare, "")
	if err != nil || s.Name != "bob" || !strings.Contains(string(s.Files["a.go"]), "v2") {
		t.Fatalf("bare clone: %v, %+v", err, s)
	}
	if _, err := loadSubmission(dir, "nosuch"); !errors.Is(err, errRefused) || !strings.Contains(err.Error(), "nosuch") {
		t.Fatalf("REF=nosuch: %v", err)
	}
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestImportRefusalListsWhatIsAllowed: the refusal is the student's only
// guide, so it names every allowed import, and the file by its path in the
// hand-in (here packed from inside the unpacked handout's folder).
func TestImportRefusalListsWhatIsAllowed(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, inFolder("aufgabe5", map[string]string{"multi.go": "package aufgabe5\n\nimport \"reflect\"\n\nvar _ = reflect.TypeOf\n"}))
	sub, err := loadSubmission(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = checkFiles(sub.Files, sub.at, true)
	if err == nil {
		t.Fatal("import \"reflect\" was not refused")
	}
	got := err.Error()
	for _, want := range append([]string{`aufgabe5/assignments/aufgabe5/multi.go:3: import "reflect" is not allowed`}, append(allowedModule, allowedStd...)...) {
		if !strings.Contains(got, want) {
			t.Errorf("refusal %q lacks %q", got, want)
		}
	}
}

// TestGraderVersionInAHandout: an unpacked handout is no checkout of the
// project, so grade.json names the handout's commit from HANDOUT-VERSION,
// also when the student put the handout under git of their own.
func TestGraderVersionInAHandout(t *testing.T) {
	dir := t.TempDir()
	// make test puts temporary folders inside the checkout: git must not
	// look above dir for a repository.
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
	if got := graderVersion(dir); got != "unknown" {
		t.Errorf("a folder without git or HANDOUT-VERSION: grader %q, want unknown", got)
	}
	if err := os.WriteFile(filepath.Join(dir, "HANDOUT-VERSION"), []byte("0123abcd\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := graderVersion(dir); got != "handout 0123abcd" {
		t.Errorf("an unpacked handout: grader %q, want %q", got, "handout 0123abcd")
	}
	// The project's checkout has the reference: a stray HANDOUT-VERSION there
	// must not hide its state ("unknown" here, as it is no git checkout).
	if err := os.MkdirAll(filepath.Join(dir, "solutions", "aufgabe5"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := graderVersion(dir); got != "unknown" {
		t.Errorf("a tree with solutions/aufgabe5 and HANDOUT-VERSION: grader %q, want unknown (not a handout)", got)
	}
}

// TestLongNamesAndManyEntriesAreRefused: the unpack budget counted file
// contents only. A .tar.gz of empty files whose (PAX) names are ~1 MiB
// each compresses ~1000:1, and every name was held in memory (the entries,
// then Ignored, then grade.json and report.html): a 113 KB upload made the
// grader hold 80 MiB before any time limit ran (a review). Names now
// count, one is at most 4096 bytes, and an archive has at most 100,000
// entries.
func TestLongNamesAndManyEntriesAreRefused(t *testing.T) {
	root := testRoot(t, false)
	ents := []tarEntry{}
	for n, d := range folderFiles(t, root, "assignments/aufgabe5") {
		ents = append(ents, tarEntry{name: gradedDir + n, data: d})
	}
	long := strings.Repeat("a", 1<<20-600)
	const n = 80 // 80 MiB of names > maxTotalSize (64 MiB)
	for i := range n {
		ents = append(ents, tarEntry{name: fmt.Sprintf("junk/%d/%s", i, long)})
	}
	file := filepath.Join(t.TempDir(), "eve.tar.gz")
	writeTarGz(t, file, ents)
	fi, _ := os.Stat(file)
	if _, err := loadSubmission(file, ""); !errors.Is(err, errRefused) || !strings.Contains(err.Error(), "at most 4096") {
		t.Errorf("a %d-byte archive with names of 1 MiB: %v; want refused, naming the limit", fi.Size(), err)
	}
	many := []tarEntry{}
	for i := range maxEntries + 1 {
		many = append(many, tarEntry{name: fmt.Sprintf("junk/%d", i)})
	}
	file = filepath.Join(t.TempDir(), "mallory.tar.gz")
	writeTarGz(t, file, many)
	if _, err := loadSubmission(file, ""); !errors.Is(err, errRefused) || !strings.Contains(err.Error(), "more than 100000 entries") {
		t.Errorf("an archive of %d entries: %v; want refused, naming the limit", len(many), err)
	}
}

// TestBatchGradesRepositoriesAtREF: make grade-all REF=tag grades each git
// repository of the class at that tag (a course's deadline), and a plain
// folder beside them as it is; REF was silently dropped before.
func TestBatchGradesRepositoriesAtREF(t *testing.T) {
	root := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(root))
	// A grader whose suite never runs: each hand-in is a compile error,
	// which keeps the report of what was graded.
	writeTree(t, root, map[string]string{"go.mod": "module zablab\n\ngo 1.22\n",
		gradedDir + graderTestFile: "package aufgabe5\n"})
	class := t.TempDir()
	repo := filepath.Join(class, "gina")
	taggedRepo(t, repo, "abgabe", "package aufgabe5 // deadline\n\nvar x int = \"s\"\n", "package aufgabe5 // late\n\nvar x int = \"s\"\n")
	writeTree(t, filepath.Join(class, "hans"), map[string]string{gradedDir + "a.go": "package aufgabe5\n"})
	o := withDefaults(options{submissions: class, out: t.TempDir(), ref: "abgabe"})
	want, err := loadSubmission(repo, "abgabe")
	if err != nil {
		t.Fatal(err)
	}
	rep, _ := gradeItem(context.Background(), root, o, &batchItem{name: "gina", path: repo})
	if rep.SHA256 != want.sha256() || rep.Ref != want.Ref {
		t.Errorf("gina graded at commit %s (files %s), want the tag's %s (%s)", rep.Ref, rep.SHA256, want.Ref, want.sha256())
	}
	rep, _ = gradeItem(context.Background(), root, o, &batchItem{name: "hans", path: filepath.Join(class, "hans")})
	if rep.Status == "refused" {
		t.Errorf("a plain folder beside the repositories was refused for REF: %v", rep.Problems)
	}
	if !slices.ContainsFunc(rep.Ignored, func(l string) bool { return strings.Contains(l, "REF=abgabe: this hand-in is no git repository") }) {
		t.Errorf("the plain folder's report does not say REF did not apply: %q", rep.Ignored)
	}
}

// gitIn runs git in dir as a test's author, failing the test on an error.
// taggedRepo makes a hand-in repository in dir whose a.go was first at
// the commit tagged tag, then at a later commit. git is needed as the
// grader needs it (README); without it gitIn fails the test.
func taggedRepo(t *testing.T, dir, tag, first, later string) {
	t.Helper()
	git := gitIn(t, dir)
	writeTree(t, dir, map[string]string{gradedDir + "a.go": first})
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "first")
	git("tag", tag)
	writeTree(t, dir, map[string]string{gradedDir + "a.go": later})
	git("commit", "-q", "-am", "later")
}

func gitIn(t *testing.T, dir string) func(args ...string) {
	return func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

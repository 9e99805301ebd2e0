package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// repoRootT is the repository this test runs in.
func repoRootT(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".git")); err != nil {
		t.Skipf("not in a git checkout (%v): nothing to pack", err)
	}
	return root
}

// TestHandoutListing packs this repository's tracked files as make handout
// does and checks what a student gets: the stubs and the sheet, never the
// reference, the variants or this builder.
func TestHandoutListing(t *testing.T) {
	root := repoRootT(t)
	files, err := trackedFiles(root, "")
	if err != nil {
		t.Fatal(err)
	}
	kept, _, err := selectFiles(files)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := writeTar(&buf, kept, time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	names, err := listTar(&buf)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"README.de.md", "Makefile", "go.mod", "go.sum", "assignments/aufgabe5/service.go"} {
		if !slices.Contains(names, want) {
			t.Errorf("handout lacks %s", want)
		}
	}
	for _, n := range names {
		for _, bad := range []string{"solutions/", "handout/", "cmd/mwzk-handout/", "mk/handout.mk"} {
			if strings.HasPrefix(n, bad) {
				t.Errorf("handout carries %s (instructor only: %s)", n, bad)
			}
		}
	}
	for _, f := range kept {
		if !strings.HasSuffix(f.path, ".go") {
			continue
		}
		imports, err := goImports(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range imports {
			if strings.HasPrefix(imp, solutionsImport) {
				t.Errorf("%s in the handout imports %s", f.path, imp)
			}
		}
	}
}

func TestSelectFiles(t *testing.T) {
	files := []file{
		{path: "README.de.md"},
		{path: "solutions/aufgabe5/service.go", data: []byte("package aufgabe5\n")},
		{path: "solutions/variants/early-reply.diff"},
		{path: "handout/aufgabe5.tar.gz"},
		{path: "mk/handout.mk"},
		{path: "mk/grade.mk"},
		{path: "cmd/mwzk-handout/main.go", data: []byte("package main\n")},
		{path: "cmd/mwzk-server/impls.go", data: []byte("package main\nimport _ \"zablab/assignments/aufgabe5\"\n")},
		{path: "cmd/mwzk-server/impls_solution.go", data: []byte("package main\nimport ref \"zablab/solutions/aufgabe5\"\nvar _ = ref.New\n")},
		{path: "cmd/mwzk-grade/solutions_test.go", data: []byte("package main\nimport \"zablab/solutions\"\n")},
		{path: "cmd/x/solutionsish.go", data: []byte("package main\nimport \"zablab/solutionsish\"\n")},
	}
	kept, left, err := selectFiles(files)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range kept {
		got = append(got, f.path)
	}
	want := []string{"README.de.md", "mk/grade.mk", "cmd/mwzk-server/impls.go", "cmd/x/solutionsish.go"}
	if !slices.Equal(got, want) {
		t.Errorf("kept %q, want %q", got, want)
	}
	if len(left) != len(files)-len(want) {
		t.Errorf("left out %v", left)
	}
	for _, d := range left {
		if d.path == "cmd/mwzk-server/impls_solution.go" && d.why != "imports zablab/solutions/aufgabe5" {
			t.Errorf("%s left out because %q", d.path, d.why)
		}
	}
	if _, _, err := selectFiles([]file{{path: "broken.go", data: []byte("package")}}); err == nil || !strings.Contains(err.Error(), "broken.go") {
		t.Errorf("a Go file that does not parse: err = %v, want one naming broken.go", err)
	}
}

func TestTarRoundTripIsReproducible(t *testing.T) {
	files := []file{
		{path: "b/run.sh", exec: true, data: []byte("#!/bin/sh\necho hi\n")},
		{path: "a.txt", data: []byte("a")},
		{path: "b/c/d.txt", data: []byte("d")},
	}
	mtime := time.Unix(1_700_000_000, 0)
	var one, two bytes.Buffer
	if err := writeTar(&one, files, mtime); err != nil {
		t.Fatal(err)
	}
	reversed := slices.Clone(files)
	slices.Reverse(reversed)
	if err := writeTar(&two, reversed, mtime); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(one.Bytes(), two.Bytes()) {
		t.Error("the same files in another order gave other bytes")
	}
	dir := t.TempDir()
	if err := extractTar(bytes.NewReader(one.Bytes()), dir); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		p := filepath.Join(dir, "aufgabe5", f.path)
		data, err := os.ReadFile(p)
		if err != nil || !bytes.Equal(data, f.data) {
			t.Errorf("%s: %q, %v; want %q", f.path, data, err, f.data)
		}
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if exec := st.Mode()&0o100 != 0; exec != f.exec {
			t.Errorf("%s: executable %v, want %v", f.path, exec, f.exec)
		}
	}
}

func TestExtractRefusesPathsOutside(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	if err := tw.WriteHeader(&tar.Header{Name: "../evil", Mode: 0o644, Size: 1, Typeflag: tar.TypeReg}); err != nil {
		t.Fatal(err)
	}
	tw.Write([]byte("x"))
	tw.Close()
	zw.Close()
	dir := t.TempDir()
	err := extractTar(&buf, filepath.Join(dir, "in"))
	if !errors.Is(err, errUnsafe) {
		t.Fatalf("extract ../evil: %v, want errUnsafe", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "evil")); err == nil {
		t.Error("../evil was written")
	}
}

func TestCheckZero(t *testing.T) {
	var rep gradeReport
	if err := json.Unmarshal([]byte(`{"required":{"earned":0,"possible":100},"bonus":{"earned":0,"possible":20},
		"parts":[{"id":"A5.1","tests":[{"name":"TreeOperations","status":"fail"}]}],
		"grader":"handout 0123abcd"}`), &rep); err != nil {
		t.Fatal(err)
	}
	if err := checkZero(rep); err != nil {
		t.Errorf("stubs failing every test: %v", err)
	}
	rep.Parts[0].Tests[0].Status = "skip"
	rep.Bonus.Earned = 2
	rep.Grader = "unknown"
	err := checkZero(rep)
	for _, want := range []string{"A5.1/TreeOperations: skip", "0 required and 2 bonus points", `grader "unknown"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("checkZero: %v, want it to say %q", err, want)
		}
	}
}

func TestLeftOutGoNamesTheUsualSuspects(t *testing.T) {
	msg := leftOutGo([]dropped{
		{"solutions/aufgabe5/tree.go", "instructor only (solutions/)"},
		{"server/ensemble_test.go", "imports zablab/solutions/aufgabe5"},
		{"cmd/mwzk-server/impls_solution.go", "imports zablab/solutions/aufgabe5"},
	})
	if !strings.Contains(msg, "server/ensemble_test.go") || !strings.Contains(msg, "impls_solution.go") || strings.Contains(msg, "tree.go") {
		t.Errorf("leftOutGo = %q", msg)
	}
	if msg := leftOutGo([]dropped{{"mk/handout.mk", "instructor only (mk/handout.mk)"}}); msg != "" {
		t.Errorf("nothing imported, yet %q", msg)
	}
}

// TestBrokenLinksAreFound: a student's Markdown link to a file or folder
// the handout leaves out is named; links to kept files and folders,
// anchors, URLs and look-alikes in code (cons's "[0](queued=0,…)") are not.
func TestBrokenLinksAreFound(t *testing.T) {
	kept := []file{
		{path: "README.md", data: []byte("[ops](docs/operations.md#top), [pics](docs/pictures/), [web](https://go.dev), [here](#x)")},
		{path: "docs/operations.md", data: []byte("see [perf](performance.md) and [zab](zab.md), " +
			"not `c[0](queued=0)`\n```\nx[1](y.md)\n```\n")},
		{path: "docs/zab.md"},
		{path: "docs/pictures/a.png"},
	}
	got := brokenLinks(kept)
	want := []string{"docs/operations.md links performance.md, which the handout leaves out"}
	if !slices.Equal(got, want) {
		t.Errorf("brokenLinks = %q, want %q", got, want)
	}
}

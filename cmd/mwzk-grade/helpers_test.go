package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// testRoot is the module root, or the test is skipped where the tree lacks
// what grading needs (go on PATH; the reference for comparisons).
func testRoot(t *testing.T, needReference bool) string {
	t.Helper()
	if testing.Short() {
		t.Skip("grades whole submissions: skipped with -short")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH: grading compiles the suite")
	}
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	if needReference {
		skipWithoutReference(t, root)
	}
	return root
}

// skipWithoutReference skips t in a tree without the reference: the
// students' handout, where a test that needs it has nothing to compare.
func skipWithoutReference(t *testing.T, root string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(refFolder))); err != nil {
		t.Skip("no " + refFolder + " in this tree (the student's handout)")
	}
}

// folderFiles are the non-test Go files of a folder of the checkout.
func folderFiles(t *testing.T, root, dir string) map[string]string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(n)] = string(b)
	}
	return out
}

// writeTree writes files (slash paths) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for rel, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// inFolder puts base-named files into assignments/aufgabe5/ under top.
func inFolder(top string, files map[string]string) map[string]string {
	out := map[string]string{}
	for n, d := range files {
		out[filepath.ToSlash(filepath.Join(top, gradedDir, n))] = d
	}
	return out
}

// tarEntry is one entry of a test archive.
type tarEntry struct {
	name, data, link string
	typ              byte
}

// writeTarGz writes a .tar.gz with the given entries.
func writeTarGz(t *testing.T, file string, ents []tarEntry) {
	t.Helper()
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	tw := tar.NewWriter(zw)
	for _, e := range ents {
		typ := e.typ
		if typ == 0 {
			typ = tar.TypeReg
		}
		h := &tar.Header{Name: e.name, Typeflag: typ, Mode: 0o644, Size: int64(len(e.data)), Linkname: e.link, ModTime: time.Unix(0, 0)}
		if typ != tar.TypeReg {
			h.Size = 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if typ == tar.TypeReg {
			tw.Write([]byte(e.data))
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	zw.Close()
	f.Close()
}

// writeZip writes a .zip of files.
func writeZip(t *testing.T, file string, files map[string]string) {
	t.Helper()
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for n, d := range files {
		w, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(d))
	}
	zw.Close()
	f.Close()
}

// gradeFolder grades a submission folder with o and returns its report.
func gradeFolder(t *testing.T, root, dir string, o options) *Report {
	t.Helper()
	o = withDefaults(o)
	sub, err := loadSubmission(dir, "")
	if err != nil {
		t.Fatalf("load %s: %v", dir, err)
	}
	rep, err := gradeSubmission(context.Background(), root, o, sub, testLog{t})
	if rep == nil || rep.Status == "" {
		t.Fatalf("grade %s: %v", dir, err)
	}
	return rep
}

func withDefaults(o options) options {
	if o.impl == "" {
		o.impl = "assignment"
	}
	if o.repeat == 0 {
		o.repeat = 1
	}
	if o.timeout == 0 {
		o.timeout = 5 * time.Minute
	}
	return o
}

// points is the total of required and bonus points.
func points(r *Report) int { return r.Required.Earned + r.Bonus.Earned }

func readFile(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// needSandbox skips t where this machine cannot build the sandbox (user
// namespaces not allowed, not Linux), saying why and what t needs it for.
// CI has it, as it has every tool the tests need: there
// (ZABLAB_INTEROP_REQUIRED=1, as for the interop tests) a missing sandbox
// fails t.
func needSandbox(t *testing.T, what string) {
	t.Helper()
	if err := sandboxCheck(); err != nil {
		msg := fmt.Sprintf("no sandbox on this machine (%v): %s", err, what)
		if os.Getenv("ZABLAB_INTEROP_REQUIRED") == "1" {
			t.Fatal(msg + " (ZABLAB_INTEROP_REQUIRED=1)")
		}
		t.Skip(msg)
	}
}

// stubsSubmission is a hand-in of the checkout's untouched stubs.
func stubsSubmission(t *testing.T, root string) *submission {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, inFolder("", folderFiles(t, root, "assignments/aufgabe5")))
	sub, err := loadSubmission(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	return sub
}

// reportHTML is report.html for rep, written to a temporary folder and
// read back.
func reportHTML(t *testing.T, rep *Report) string {
	t.Helper()
	page := filepath.Join(t.TempDir(), "report.html")
	if err := writeHTML(page, rep); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// hangingHandIn adds to files (a hand-in's, at the top) a test that never
// ends: the tests of the Service's own calls have deadlines (Start, Stop,
// every request), so what holds a run until its time limit is code that
// holds the suite's process, here a sleep in an init that never ends.
func hangingHandIn(files map[string]string) map[string]string {
	files[gradedDir+"hang.go"] = "package aufgabe5\n\nimport \"time\"\n\nfunc init() {\n\tfor {\n\t\ttime.Sleep(time.Hour) // never returns\n\t}\n}\n"
	return files
}

package main

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestStubsMatchReference is the drift check: the student's tree has the
// reference's files and top-level declarations, so diff -r between the two
// shows only the exercise.
func TestStubsMatchReference(t *testing.T) {
	root := repoRootT(t)
	if _, err := os.Stat(filepath.Join(root, refDir)); err != nil {
		t.Skipf("no reference here (%v)", err)
	}
	drift, err := parity(filepath.Join(root, stubDir), filepath.Join(root, refDir))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range drift {
		t.Errorf("drift: %s", d)
	}
	if len(drift) > 0 {
		t.Log("make the stubs follow the reference: same files, same declarations and signatures (make handout-parity)")
	}
}

func TestParityFindsDrift(t *testing.T) {
	stubs, ref := t.TempDir(), t.TempDir()
	write := func(dir, name, src string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(ref, "tree.go", `package p
type tree struct{ nodes map[string]int }
type kind byte
const a, b = 1, 2
func (t *tree) get(path string) int { return t.nodes[path] }
func helper(x, y int) (int, error) { return x + y, nil }
`)
	write(stubs, "tree.go", `package p
type tree struct{}
type kind int
const a = 1
func (t tree) get(p string) int { return 0 } // TODO
func helper(a int, b int) (int, error) { return 0, nil }
func extra() {}
`)
	write(ref, "only_ref.go", "package p\n")
	write(stubs, "only_stub.go", "package p\n")
	write(ref, "service_test.go", "package p\n") // tests are each tree's own
	drift, err := parity(stubs, ref)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"only_ref.go: only in " + ref,
		"only_stub.go: only in " + stubs,
		"tree.go: const b missing in the stubs",
		"tree.go: func (*tree) get(string) int missing in the stubs",
		"tree.go: func (tree) get(string) int not in the reference",
		"tree.go: func extra() not in the reference",
		"tree.go: type kind byte missing in the stubs",
		"tree.go: type kind int not in the reference",
	}
	if !slices.Equal(drift, want) {
		t.Errorf("drift:\n%q\nwant:\n%q", drift, want)
	}
}

// TestStubsUpToDate regenerates the stubs from the reference and the stub
// spec and compares them with assignments/aufgabe5: a change to either
// that was not carried over fails here.
func TestStubsUpToDate(t *testing.T) {
	root := repoRootT(t)
	if _, err := os.Stat(filepath.Join(root, refDir)); err != nil {
		t.Skipf("no reference here (%v)", err)
	}
	files, err := genStubs(filepath.Join(root, refDir))
	if err != nil {
		t.Fatal(err)
	}
	have, err := packageFiles(filepath.Join(root, stubDir))
	if err != nil {
		t.Fatal(err)
	}
	for name := range have {
		if _, ok := files[name]; !ok {
			t.Errorf("%s/%s is not generated from the reference", stubDir, name)
		}
	}
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(root, stubDir, name))
		if err != nil || string(got) != string(want) {
			t.Errorf("%s/%s differs from what the reference and stubspec.go give (%v)", stubDir, name, err)
		}
	}
	if t.Failed() {
		t.Log("regenerate with: go run ./cmd/mwzk-handout --stubs")
	}
}

func TestStubSpecCatchesNewFunctions(t *testing.T) {
	ref := t.TempDir()
	src := "package aufgabe5\n\nimport \"fmt\"\n\nfunc undecidedThing() { fmt.Println() }\n\nfunc New() {}\n"
	if err := os.WriteFile(filepath.Join(ref, "x.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := genStubs(ref)
	if !errors.Is(err, errStubSpec) {
		t.Fatalf("genStubs: %v, want errStubSpec", err)
	}
	for _, want := range []string{"x.go: undecidedThing is neither provided nor a TODO", "TODO body for Service.create, which the reference does not have"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), "New") && strings.Contains(err.Error(), "x.go: New") {
		t.Errorf("New is provided, yet reported:\n%v", err)
	}
}

func TestFixImports(t *testing.T) {
	src := "package p\n\nimport (\n\t\"bytes\"\n\t\"strings\"\n)\n\nfunc f() error { return fmt.Errorf(\"%s\", strings.ToUpper(\"x\")) }\n"
	got, err := fixImports("p.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := "package p\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\nfunc f() error { return fmt.Errorf(\"%s\", strings.ToUpper(\"x\")) }\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestRetag(t *testing.T) {
	body := "// TODO(A5.1): this.\n// TODO(A5.2): that.\n// TODO(A5.1): more.\n"
	for doc, want := range map[string]string{
		"// answer gives r its reply. s.mu must be held (A5.2).":        "// answer gives r its reply. s.mu must be held (A5.1, A5.2).",
		"// read executes a read (A5.1; watches). s.mu must be held.":   "// read executes a read (A5.1, A5.2). s.mu must be held.",
		"// applyMulti applies ops (optional part: multi).":             "// applyMulti applies ops (A5.1, A5.2).",
		"// existing returns the node (-1: any).":                       "// existing returns the node (-1: any).",
		"// create checks (A5.1, A5.3,\n// sequential nodes) in order.": "// create checks (A5.1, A5.2) in order.",
	} {
		if got := retag(doc, body); got != want {
			t.Errorf("retag(%q) = %q, want %q", doc, got, want)
		}
	}
	if got := retag("// x (A5.2).", "return nil"); got != "// x (A5.2)." {
		t.Errorf("a body without TODO changed the doc: %q", got)
	}
}

package main

import (
	"encoding/json"
	"strings"
	"testing"

	"zablab/mwzookeeper"
)

// TestAWriteIntoOpenACLThroughACopySaysWhy: the reference, changed to
// write into mwzookeeper.OpenACL's entry through a copy of the slice (a
// channel between the replicas of the suite's process that the source
// check cannot see), faults as soon as a tree is made, and the grade says
// where and why instead of a bare "fatal error: fault".
func TestAWriteIntoOpenACLThroughACopySaysWhy(t *testing.T) {
	if !mwzookeeper.SharedValuesReadOnly() {
		t.Skip("no read-only pages on this system: the write would go through")
	}
	root := testRoot(t, true)
	files := inFolder("", folderFiles(t, root, "solutions/aufgabe5"))
	tree := gradedDir + "tree.go"
	const at = "\tt.nodes[\"/\"] = &znode{acl: mwzookeeper.OpenACL}\n"
	if !strings.Contains(files[tree], at) {
		t.Fatalf("%s has no %q to write after", tree, at)
	}
	files[tree] = strings.Replace(files[tree], at, at+"\tif a := t.nodes[\"/\"].acl; len(a) == 1 {\n\t\ta[0].ID.ID = \"state\"\n\t}\n", 1)
	dir := t.TempDir()
	writeTree(t, dir, files)
	rep := gradeFolder(t, root, dir, options{part: "A5.1"})
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	for _, want := range []string{"fatal error: fault, in newTree (tree.go:", "a write into read-only memory", "mwzookeeper.OpenACL"} {
		if !strings.Contains(text, want) {
			t.Errorf("the grade does not say %q; it says:\n%s", want, text)
		}
	}
	if points(rep) != 0 {
		t.Errorf("%d points for a Service that crashes when it makes a tree", points(rep))
	}
}

// TestReadOnlyWriteOnEitherSystem: macOS delivers a write into a read-only
// page as SIGBUS, where Linux says SIGSEGV (a review; the Linux line is
// the one TestAWriteIntoOpenACLThroughACopySaysWhy meets for real), and a
// fault of another kind (code 0x1, an address with nothing mapped) is not
// explained as one.
func TestReadOnlyWriteOnEitherSystem(t *testing.T) {
	for line, want := range map[string]bool{
		"[signal SIGSEGV: segmentation violation code=0x2 addr=0x7f3c2a1f2000 pc=0x4f1c2c]": true,
		"[signal SIGBUS: bus error code=0x2 addr=0x104d8c000 pc=0x1029f1c2c]":               true,
		"[signal SIGSEGV: segmentation violation code=0x1 addr=0x10 pc=0x4f1c2c]":           false,
	} {
		if got := readOnlyWrite([]string{line}) != ""; got != want {
			t.Errorf("%s: explained %v, want %v", line, got, want)
		}
	}
}

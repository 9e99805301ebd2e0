package main

import (
	"errors"
	"strings"
	"testing"
)

const original = `package p

func a() int {
	return 1
}

func b() int {
	return 2
}
`

func TestApplyAHunkThatMoved(t *testing.T) {
	diff := `Variant: b returns 3.
Loses: A5.9
--- a/p/p.go
+++ b/p/p.go
@@ -5,5 +5,5 @@
 
 func b() int {
-	return 2
+	return 3
 }
`
	pre, files, err := parseDiff(diff)
	if err != nil {
		t.Fatal(err)
	}
	if len(pre) != 2 || len(files) != 1 || files[0].path != "p/p.go" {
		t.Fatalf("preamble %q, files %+v", pre, files)
	}
	// The file gained two lines above the hunk since the diff was made.
	moved := strings.Replace(original, "package p\n", "package p\n\n// moved\n", 1)
	got, err := files[0].apply(moved)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(moved, "return 2", "return 3", 1)
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestApplyRefusesAChangedContext(t *testing.T) {
	diff := "--- a/p/p.go\n+++ b/p/p.go\n@@ -7,3 +7,3 @@\n func b() int {\n-\treturn 5\n+\treturn 3\n }\n"
	_, files, err := parseDiff(diff)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := files[0].apply(original); !errors.Is(err, errPatch) || !strings.Contains(err.Error(), "p/p.go, hunk 1") {
		t.Fatalf("apply of a stale hunk: %v, want errPatch naming the file and hunk", err)
	}
}

func TestApplyTwoHunksAddingAndRemovingLines(t *testing.T) {
	diff := "--- a/p/p.go\n+++ b/p/p.go\n@@ -3,3 +3,4 @@\n func a() int {\n+\tprintln()\n \treturn 1\n }\n@@ -7,3 +8,2 @@\n func b() int {\n-\treturn 2\n }\n"
	_, files, err := parseDiff(diff)
	if err != nil {
		t.Fatal(err)
	}
	got, err := files[0].apply(original)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(strings.Replace(original, "\treturn 2\n", "", 1), "\treturn 1", "\tprintln()\n\treturn 1", 1)
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestApplyWithFuzzWhenAContextLineChanged(t *testing.T) {
	diff := "--- a/p/p.go\n+++ b/p/p.go\n@@ -7,3 +7,3 @@\n func b() int {\n-\treturn 2\n+\treturn 3\n }\n"
	_, files, err := parseDiff(diff)
	if err != nil {
		t.Fatal(err)
	}
	if h := files[0].hunks[0]; h.lead != 1 || h.trail != 1 {
		t.Fatalf("hunk context: lead %d trail %d, want 1 and 1", h.lead, h.trail)
	}
	changed := strings.Replace(original, "func b() int {", "func b() (n int) {", 1)
	got, err := files[0].apply(changed)
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(changed, "return 2", "return 3", 1); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

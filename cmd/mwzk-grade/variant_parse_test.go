package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A Loses line with a comma once read as part "A5.2," that no part
// matched, so the variant test checked nothing of A5.2 (it passed while
// the suite let the variant keep A5.2). Commas now separate too, and a
// name that is no part is an error.
func TestVariantPartLines(t *testing.T) {
	const diff = "--- a/solutions/aufgabe5/x.go\n+++ b/solutions/aufgabe5/x.go\n@@ -1,1 +1,1 @@\n-a\n+b\n"
	write := func(head string) string {
		f := filepath.Join(t.TempDir(), "v.diff")
		if err := os.WriteFile(f, []byte(head+diff), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	v, err := loadVariant(write("Variant: breaks two.\nLoses: A5.2, A5.4\nMay lose: A5.3\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(v.loses, []string{"A5.2", "A5.4"}) || !slices.Equal(v.may, []string{"A5.3"}) {
		t.Errorf("loses %q, may %q; want [A5.2 A5.4] and [A5.3]", v.loses, v.may)
	}
	v, err = loadVariant(write("Variant: breaks all of one\npart.\nLoses: A5.6\nLoses all: A5.7\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(v.loses, []string{"A5.6", "A5.7"}) || !slices.Equal(v.all, []string{"A5.7"}) || v.about != "breaks all of one part." {
		t.Errorf("loses %q, all %q, about %q; want [A5.6 A5.7], [A5.7] and the whole Variant text", v.loses, v.all, v.about)
	}
	v, err = loadVariant(write("Variant: fires a write's\nevents backwards.\nKeeps: A5.6 A5.7\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(v.keeps, []string{"A5.6", "A5.7"}) || len(v.loses) > 0 || v.about != "fires a write's events backwards." {
		t.Errorf("keeps %q, loses %q, about %q; want [A5.6 A5.7], none and the whole Variant text", v.keeps, v.loses, v.about)
	}
	for head, want := range map[string]string{
		"Variant: both.\nLoses: A5.6\nKeeps: A5.7\n": "either known-bad or allowed",
		"Variant: none.\n":                           `"Keeps: A5.x"`,
		"Variant: unknown.\nKeeps: A5.8\n":           `"A5.8"`,
	} {
		f := write(head)
		if _, err := loadVariant(f); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), f) {
			t.Errorf("preamble %q: error %v; want one naming the file and saying %s", head, err, want)
		}
	}
	f := write("Variant: breaks one.\nLoses: A5.9\n")
	if _, err := loadVariant(f); err == nil || !strings.Contains(err.Error(), `"A5.9"`) || !strings.Contains(err.Error(), f) {
		t.Errorf("a Loses line naming A5.9: error %v; want one naming the file and the part", err)
	}
}

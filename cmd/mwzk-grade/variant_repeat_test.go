package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestVariantRepeatedKindLinesAdd: a preamble that names its parts on two
// lines of the same kind ("Keeps: A5.6", then "Keeps: A5.7") kept only the
// last line's, and the variant test checked nothing of A5.6, silently: a
// suite stricter than the sheet there went unnoticed.
func TestVariantRepeatedKindLinesAdd(t *testing.T) {
	const diff = "--- a/solutions/aufgabe5/x.go\n+++ b/solutions/aufgabe5/x.go\n@@ -1,1 +1,1 @@\n-a\n+b\n"
	for _, c := range []struct {
		head string
		got  func(*variant) []string
		want []string
	}{
		{"Variant: allowed.\nKeeps: A5.6\nKeeps: A5.7\n", func(v *variant) []string { return v.keeps }, []string{"A5.6", "A5.7"}},
		{"Variant: bad.\nLoses: A5.2\nLoses: A5.4\n", func(v *variant) []string { return v.loses }, []string{"A5.2", "A5.4"}},
		{"Variant: bad.\nLoses: A5.2\nMay lose: A5.3\nMay lose: A5.4\n", func(v *variant) []string { return v.may }, []string{"A5.3", "A5.4"}},
	} {
		f := filepath.Join(t.TempDir(), "v.diff")
		if err := os.WriteFile(f, []byte(c.head+diff), 0o644); err != nil {
			t.Fatal(err)
		}
		v, err := loadVariant(f)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.got(v); !slices.Equal(got, c.want) {
			t.Errorf("preamble %q: parts %q, want %q", c.head, got, c.want)
		}
	}
}

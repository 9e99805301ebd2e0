package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDuplicateNameFallbackStaysUnique: a folder gradebook.csv/ is listed
// as "gradebook.csv (hand-in)", and a folder of that very name, coming
// after it, fell back to its whole entry name, the same one: two hand-ins
// shared one report folder, and the gradebook had one name twice.
func TestDuplicateNameFallbackStaysUnique(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"gradebook.csv", "gradebook.csv (hand-in)"} {
		if err := os.Mkdir(filepath.Join(dir, n), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	items, _, err := listSubmissions(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 || items[0].name == items[1].name {
		t.Errorf("listed as %q and %q; want two rows with different names", items[0].name, items[len(items)-1].name)
	}
}

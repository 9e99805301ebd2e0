package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The sheet's rule 6 lists the standard library packages a hand-in may
// import. It once said `encoding/…` and `hash/…` where grading takes only
// some of them, and a hand-in importing encoding/base32 was refused whole.
// The list there must be allowedStd, package for package.
func TestSheetNamesTheAllowedImports(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "README.de.md"))
	if err != nil {
		t.Fatal(err)
	}
	sheet := string(b)
	start := strings.Index(sheet, "**Keine weiteren Module, nur diese Importe.**")
	end := strings.Index(sheet[max(start, 0):], "Nicht erlaubt ist")
	if start < 0 || end < 0 {
		t.Fatal("README.de.md: rule 6 (Keine weiteren Module, nur diese Importe ... Nicht erlaubt ist) not found")
	}
	rule := sheet[start : start+end]
	var named []string
	for _, m := range regexp.MustCompile("`([a-z0-9/.…]+)`").FindAllStringSubmatch(rule, -1) {
		named = append(named, m[1])
	}
	allowed := append(slices.Clone(allowedStd), allowedModule...)
	for _, p := range named {
		if !slices.Contains(allowed, p) {
			t.Errorf("README.de.md rule 6 names `%s`, which grading refuses (allowedStd, allowedModule)", p)
		}
	}
	for _, p := range allowed {
		if !slices.Contains(named, p) {
			t.Errorf("README.de.md rule 6 does not name `%s`, which grading takes (allowedStd, allowedModule)", p)
		}
	}
}

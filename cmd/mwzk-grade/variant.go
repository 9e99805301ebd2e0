package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// A known-bad variant is a unified diff against solutions/aufgabe5 with a
// preamble that says what it breaks and which parts it must lose:
//
//	Variant: answers a write when it is proposed, before it is applied
//	(the description may go on over several lines).
//	Loses: A5.1
//	May lose: A5.2
//	Why A5.2 may lose too: ...
//	--- a/solutions/aufgabe5/service.go
//	+++ b/solutions/aufgabe5/service.go
//	@@ ...
//
// The grader applies it to copies of the files in a temporary folder and
// hands go test an overlay (go help build, -overlay), so the tree is never
// changed.

// variant is a parsed variant file.
type variant struct {
	file  string
	about string   // the Variant: line
	loses []string // the parts it must lose
	may   []string // parts it may lose too (a timing-dependent second symptom)
	files []filePatch
}

// loadVariant reads and parses a variant file.
func loadVariant(file string) (*variant, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	pre, files, err := parseDiff(string(b))
	if err != nil {
		return nil, fmt.Errorf("variant %s: %w", file, err)
	}
	v := &variant{file: file, files: files}
	about := false // inside the Variant: paragraph
	for _, l := range pre {
		if s, ok := strings.CutPrefix(l, "Variant:"); ok {
			v.about, about = strings.TrimSpace(s), true
			continue
		}
		if about && l != "" && !strings.HasPrefix(l, "Loses:") && !strings.HasPrefix(l, "May lose:") && !strings.HasPrefix(l, "Why") {
			v.about += " " + strings.TrimSpace(l)
			continue
		}
		about = false
		if s, ok := strings.CutPrefix(l, "Loses:"); ok {
			v.loses = strings.Fields(s)
		}
		if s, ok := strings.CutPrefix(l, "May lose:"); ok {
			v.may = strings.Fields(s)
		}
	}
	if len(v.loses) == 0 {
		return nil, fmt.Errorf("variant %s: no \"Loses: A5.x\" line before the diff", file)
	}
	return v, nil
}

// overlay applies v to copies of its files under dir and writes the
// overlay file go test -overlay takes; it returns that file's path.
func (v *variant) overlay(root, dir string) (string, error) {
	replace := map[string]string{}
	for k, fp := range v.files {
		orig := filepath.Join(root, filepath.FromSlash(fp.path))
		b, err := os.ReadFile(orig)
		if err != nil {
			return "", fmt.Errorf("variant %s: %w", v.file, err)
		}
		patched, err := fp.apply(string(b))
		if err != nil {
			return "", fmt.Errorf("variant %s: %w", v.file, err)
		}
		copyFile := filepath.Join(dir, fmt.Sprintf("%d-%s", k, filepath.Base(fp.path)))
		if err := os.WriteFile(copyFile, []byte(patched), 0o644); err != nil {
			return "", err
		}
		replace[orig] = copyFile
	}
	return writeOverlay(dir, replace)
}

// writeOverlay writes {"Replace": replace} to dir/overlay.json.
func writeOverlay(dir string, replace map[string]string) (string, error) {
	b, err := json.MarshalIndent(struct{ Replace map[string]string }{replace}, "", "  ")
	if err != nil {
		return "", err
	}
	file := filepath.Join(dir, "overlay.json")
	return file, os.WriteFile(file, b, 0o644)
}

// mergeOverlay adds the replacements of an overlay file given with
// --overlay to those of a variant.
func mergeOverlay(dir, variantOverlay, userOverlay string) (string, error) {
	replace := map[string]string{}
	for _, f := range []string{userOverlay, variantOverlay} {
		if f == "" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		var o struct{ Replace map[string]string }
		if err := json.Unmarshal(b, &o); err != nil {
			return "", fmt.Errorf("overlay %s: %w", f, err)
		}
		for k, v := range o.Replace {
			replace[k] = v
		}
	}
	return writeOverlay(dir, replace)
}

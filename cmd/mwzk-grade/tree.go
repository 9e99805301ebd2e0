package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// skipped are the folders of the grader's tree that never go into a
// grading copy: build output, peers' data, handouts, grading output.
var skipped = []string{".git", ".testtmp", "bin", "handout", "data", "testdata/data", "grades"}

// graderFiles lists the grader's own files (slash paths relative to root):
// what git tracks plus new files not ignored when root is a git checkout,
// else every file outside the skipped folders. Files under leave (the
// batch's hand-ins and reports, when they sit in the checkout) are not
// the grader's: copied, they made every grading copy hold the whole class,
// and hashed, one changed hand-in made the whole class be graded again.
func graderFiles(root string, leave ...string) ([]string, error) {
	isSkipped := skipper(root, leave)
	if out, err := gitOut(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"); err == nil {
		var files []string
		for _, f := range strings.Split(out, "\x00") {
			if f != "" && !isSkipped(f) && !studentsTest(f) {
				if fi, err := os.Lstat(filepath.Join(root, f)); err == nil && fi.Mode().IsRegular() {
					files = append(files, f)
				}
			}
		}
		slices.Sort(files)
		return slices.Compact(files), nil
	}
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // gone while we walked: a build's scratch file, not the grader's
		}
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() && rel != "." && isSkipped(rel) {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() && !studentsTest(rel) {
			files = append(files, rel)
		}
		return nil
	})
	return files, err
}

// realPath is p absolute with its symbolic links resolved (a checkout
// reached through a link, a hand-ins folder named by its real path), or
// only absolute where p does not exist (yet).
func realPath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	return abs
}

// skipper says whether a slash path relative to root is in a skipped
// folder or under one of the paths leave (absolute or relative to the
// working directory; those outside root do not matter).
func skipper(root string, leave []string) func(rel string) bool {
	dirs := slices.Clone(skipped)
	absRoot := realPath(root)
	for _, l := range leave {
		if l == "" {
			continue
		}
		if rel, err := filepath.Rel(absRoot, realPath(l)); err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, "../") {
			dirs = append(dirs, filepath.ToSlash(rel))
		}
	}
	return func(rel string) bool {
		for _, s := range dirs {
			if rel == s || strings.HasPrefix(rel, s+"/") {
				return true
			}
		}
		return false
	}
}

// studentsTest: rel is a test file of the graded folder other than the
// grader's own (a student's test in the checkout), or any file in a
// subfolder of it. It is no part of the grader: graded code is compiled
// with the suite alone, as from a hand-in (whose subfolders are left out
// too), and a student's test that would not compile there, or that knows
// the suite's package, cannot change a grade.
func studentsTest(rel string) bool {
	rest, ok := strings.CutPrefix(rel, gradedDir)
	return ok && (strings.Contains(rest, "/") || strings.HasSuffix(rest, "_test.go") && rest != graderTestFile)
}

// isGraded: rel is a file the submission replaces (a non-test Go file of the
// graded folder).
func isGraded(rel string) bool {
	rest, ok := strings.CutPrefix(rel, gradedDir)
	return ok && !strings.Contains(rest, "/") && strings.HasSuffix(rest, ".go") && !strings.HasSuffix(rest, "_test.go")
}

// tree is a fresh copy of the grader's module with one submission in it.
type tree struct {
	dir     string   // the copy's root
	handout []string // the base names of the graded folder's Go files in the grader's own tree
}

// graderTreeHash is the sha256 of the grader's code that goes into every
// grading copy (Go files, go.mod, go.sum, the hidden tests of extra): a
// re-run of a batch grades a submission again only if this or the
// submission changed. Docs and data do not count.
func graderTreeHash(root, extra string, leave ...string) (string, error) {
	files, err := graderFiles(root, leave...)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, rel := range files {
		if isGraded(rel) || !(strings.HasSuffix(rel, ".go") || rel == "go.mod" || rel == "go.sum") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", rel, len(data))
		h.Write(data)
	}
	if extra != "" {
		names, _ := filepath.Glob(filepath.Join(extra, "*.go"))
		slices.Sort(names)
		for _, n := range names {
			data, err := os.ReadFile(n)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(h, "extra/%s\x00%d\x00", filepath.Base(n), len(data))
			h.Write(data)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// buildTree copies the grader's files from root into a new temporary
// folder, except the graded folder's non-test Go files, which come from
// sub; extra (if set) is a folder of hidden tests that go into the suite's
// package.
func buildTree(root string, sub *submission, extra string, leave ...string) (*tree, error) {
	files, err := graderFiles(root, leave...)
	if err != nil {
		return nil, fmt.Errorf("list the grader's files in %s: %w", root, err)
	}
	dir, err := os.MkdirTemp("", "mwzk-grade-")
	if err != nil {
		return nil, err
	}
	t := &tree{dir: dir}
	for _, rel := range files {
		if isGraded(rel) {
			t.handout = append(t.handout, strings.TrimPrefix(rel, gradedDir))
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err == nil {
			err = t.write(rel, data)
		}
		if err != nil {
			t.remove()
			return nil, err
		}
	}
	if err := t.addExtra(extra); err != nil {
		t.remove()
		return nil, err
	}
	for name, data := range sub.Files {
		if err := t.write(gradedDir+name, data); err != nil {
			t.remove()
			return nil, err
		}
	}
	return t, nil
}

// addExtra copies the .go files of extra into the suite's package, named
// extra_<name>.
func (t *tree) addExtra(extra string) error {
	if extra == "" {
		return nil
	}
	names, err := filepath.Glob(filepath.Join(extra, "*.go"))
	if err != nil || len(names) == 0 {
		return fmt.Errorf("--extra %s: no .go files with hidden tests there", extra)
	}
	slices.Sort(names)
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			return fmt.Errorf("--extra: %w", err)
		}
		if err := t.write("mwzookeeper/conformance/extra_"+filepath.Base(n), data); err != nil {
			return err
		}
	}
	return nil
}

func (t *tree) write(rel string, data []byte) error {
	p := filepath.Join(t.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, data, 0o644)
}

// remove deletes the copy.
func (t *tree) remove() { os.RemoveAll(t.dir) }

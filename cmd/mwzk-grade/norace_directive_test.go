package main

import (
	"errors"
	"strings"
	"testing"
)

// TestNoraceIsRefused: //go:norace turns the race detector off for a
// function, in any package. A red-team hand-in (the untouched stubs plus a
// file whose racing functions carry it) built the known interface data race
// into a byte slice over the whole process, replaced every test of the
// suite by an empty function, and graded 100/100, bonus 20/20 under RACE=1
// (with REPEAT=3 and the hidden tests too); the same file without the
// directive was halted by the race detector (0/100). Graded code has no
// use for it; it must be refused like //go:linkname.
func TestNoraceIsRefused(t *testing.T) {
	src := "package aufgabe5\n\nvar x int\n\n//go:norace\nfunc bump() { x++ }\n"
	_, err := checkFiles(map[string][]byte{"race.go": []byte(src)}, func(n string) string { return "assignments/aufgabe5/" + n }, true)
	if !errors.Is(err, errRefused) || !strings.Contains(err.Error(), "race.go:5") {
		t.Fatalf("checkFiles of a //go:norace function = %v, want a refusal naming race.go:5", err)
	}
}

// TestOnlyAllowedDirectivesPass: the directives are an allowlist; every
// other //go: comment is refused with its name, wherever it stands.
func TestOnlyAllowedDirectivesPass(t *testing.T) {
	at := func(n string) string { return "assignments/aufgabe5/" + n }
	ok := "//go:build !windows\n\npackage aufgabe5\n\n//go:generate echo hi\n\n//go:noinline\nfunc f() {}\n"
	if _, err := checkFiles(map[string][]byte{"ok.go": []byte(ok)}, at, true); err != nil {
		t.Errorf("checkFiles of build, generate and noinline = %v, want nil", err)
	}
	for _, d := range []string{"//go:norace", "//go:nocheckptr", "//go:uintptrescapes", "//go:nosplit", "//go:linkname f runtime.f", "//go:embed x"} {
		src := "package aufgabe5\n\nfunc f() {} " + d + "\n"
		_, err := checkFiles(map[string][]byte{"d.go": []byte(src)}, at, true)
		name := strings.Fields(d)[0]
		if !errors.Is(err, errRefused) || !strings.Contains(err.Error(), "d.go:3: "+name+" is not allowed") {
			t.Errorf("checkFiles with %q = %v, want a refusal naming d.go:3 and %s", d, err, name)
		}
	}
}

// TestGradersBuildTagsAreRefused: a file built only without the race
// detector (//go:build !race), or only when graded (mwzk_extra), could be
// honest in a check and cheat in a grading; a review's suspicion.
func TestGradersBuildTagsAreRefused(t *testing.T) {
	at := func(n string) string { return "assignments/aufgabe5/" + n }
	for _, c := range []string{"!race", "linux && !race", "amd64 || (linux && race)", "mwzk_extra", "!netgo", "cgo"} {
		src := "//go:build " + c + "\n\npackage aufgabe5\n"
		if c == "cgo" {
			src = "// +build !race\n\npackage aufgabe5\n" // the old spelling
		}
		_, err := checkFiles(map[string][]byte{"t.go": []byte(src)}, at, true)
		if !errors.Is(err, errRefused) || !strings.Contains(err.Error(), "t.go:1: a build constraint on the tag") {
			t.Errorf("checkFiles of //go:build %s = %v, want a refusal naming t.go:1", c, err)
		}
	}
	if _, err := checkFiles(map[string][]byte{"t.go": []byte("//go:build linux || ignore\n\npackage aufgabe5\n")}, at, true); err != nil {
		t.Errorf("checkFiles of //go:build linux || ignore = %v, want nil", err)
	}
}

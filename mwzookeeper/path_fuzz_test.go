package mwzookeeper

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzValidatePath: never a panic; whatever it accepts is absolute, valid
// UTF-8, has no empty, "." or ".." segment and no trailing '/' (but "/"),
// splits into Parent and Base and joins back; a plain path accepted is
// accepted as a sequential prefix too.
func FuzzValidatePath(f *testing.F) {
	for _, s := range []string{"/", "/a", "/a/b", "//", "/a/", "/.", "/..", "a", "", "/a\x00", "/\ufff0", "/日本/x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		err := ValidatePath(p, false)
		seqErr := ValidatePath(p, true)
		if err == nil && seqErr != nil {
			t.Fatalf("%q valid, but not as a sequential prefix: %v", p, seqErr)
		}
		if err != nil {
			if !strings.Contains(err.Error(), "path") {
				t.Fatalf("error for %q does not name the path: %v", p, err)
			}
			return
		}
		if !strings.HasPrefix(p, "/") || !utf8.ValidString(p) {
			t.Fatalf("accepted %q", p)
		}
		if p == "/" {
			return
		}
		if strings.HasSuffix(p, "/") || strings.Contains(p, "//") {
			t.Fatalf("accepted %q with an empty segment", p)
		}
		for _, seg := range strings.Split(p[1:], "/") {
			if seg == "." || seg == ".." {
				t.Fatalf("accepted %q with a relative segment", p)
			}
		}
		if Join(Parent(p), Base(p)) != p {
			t.Fatalf("Join(Parent(%q), Base(%q)) = %q", p, p, Join(Parent(p), Base(p)))
		}
		if ValidatePath(Parent(p), false) != nil {
			t.Fatalf("the parent of valid %q is invalid", p)
		}
	})
}

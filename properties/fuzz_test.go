package properties

import (
	"bytes"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// FuzzLoad checks, for any input, that Load does not panic and that:
//
//   - a failure is an *Error wrapping ErrSyntax with a line in the input;
//   - a success gives valid UTF-8 keys and values, each key on a line of
//     the input;
//   - Store writes the result so that Load gives back the same pairs, and
//     storing those again gives the same bytes;
//   - the line-end convention does not matter: if the input has no \r,
//     using \r\n or a lone \r instead of \n gives the same pairs and lines.
//     One exception is Java's, pinned by the corpus (lone_backslash_*_eof):
//     a last line holding only a backslash gives the pair ""="" when it
//     ends in \n or \r, but nothing when it ends in \r\n, because Java
//     peeks one character past a line end to see if the input ends there.
//
// It is seeded with the Java-checked corpus, less the files over 4 KiB:
// the fuzzer minimizes every new interesting input, and minimizing a big
// one takes most of a short run. Run it with
// go test ./properties -run '^$' -fuzz FuzzLoad -fuzztime 60s.
func FuzzLoad(f *testing.F) {
	seeds, err := filepath.Glob(filepath.Join("testdata", "corpus", "*.properties"))
	if err != nil {
		f.Fatal(err)
	}
	for _, path := range seeds {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		if len(data) <= 4<<10 {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Load(bytes.NewReader(data))
		lines := 1 + bytes.Count(data, []byte("\n")) + bytes.Count(data, []byte("\r")) - bytes.Count(data, []byte("\r\n"))
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || !errors.Is(err, ErrSyntax) || pe.Line < 1 || pe.Line > lines {
				t.Fatalf("error %v (%#v) is not an ErrSyntax *Error with a line in 1..%d", err, err, lines)
			}
			return
		}
		for _, k := range p.Keys() {
			v, _ := p.Get(k)
			if !utf8.ValidString(k) || !utf8.ValidString(v) {
				t.Fatalf("invalid UTF-8 in %q=%q", k, v)
			}
			if n := p.Line(k); n < 1 || n > lines {
				t.Fatalf("Line(%q) = %d, want 1..%d", k, n, lines)
			}
		}
		checkStoreRoundTrip(t, p)
		if !bytes.ContainsRune(data, '\r') {
			checkLineEnds(t, p, string(data))
		}
	})
}

func checkStoreRoundTrip(t *testing.T, p *Properties) {
	t.Helper()
	var out bytes.Buffer
	if err := p.Store(&out); err != nil {
		t.Fatal(err)
	}
	stored := out.String()
	q, err := LoadString(stored)
	if err != nil {
		t.Fatalf("loading the stored form failed: %v\nstored:\n%s", err, stored)
	}
	if before, after := toMap(p), toMap(q); !maps.Equal(before, after) {
		t.Fatalf("store then load changed the pairs (-before +after):\n%s\nstored:\n%s",
			cmp.Diff(before, after), stored)
	}
	out.Reset()
	if err := q.Store(&out); err != nil {
		t.Fatal(err)
	}
	if out.String() != stored {
		t.Fatalf("storing twice differs:\n%q\n%q", stored, out.String())
	}
}

func checkLineEnds(t *testing.T, p *Properties, data string) {
	t.Helper()
	for _, eol := range []string{"\r\n", "\r"} {
		if eol == "\r\n" && strings.HasSuffix(data, "\\\n") {
			continue // the exception above; coarser than needed, but simple
		}
		q, err := LoadString(strings.ReplaceAll(data, "\n", eol))
		if err != nil {
			t.Fatalf("with %q line ends: %v", eol, err)
		}
		if before, after := toMap(p), toMap(q); !maps.Equal(before, after) {
			t.Fatalf("with %q line ends the pairs differ (-\\n +%q):\n%s", eol, eol, cmp.Diff(before, after))
		}
		for _, k := range p.Keys() {
			if p.Line(k) != q.Line(k) {
				t.Fatalf("with %q line ends Line(%q) = %d, want %d", eol, k, q.Line(k), p.Line(k))
			}
		}
	}
}

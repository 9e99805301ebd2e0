package properties

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// minCorpus is the least number of golden files the oracle test accepts,
// so that a lost or renamed corpus folder fails instead of passing empty.
const minCorpus = 45

// golden is what testdata/gen/GoldenGen.java wrote for one corpus file:
// the pairs java.util.Properties.load(Reader) produced, or its exception.
type golden struct {
	Entries map[string]string `json:"entries"`
	Error   *string           `json:"error"`
}

func readGolden(t *testing.T, path string) golden {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	dec.DisallowUnknownFields()
	var g golden
	if err := dec.Decode(&g); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if (g.Entries == nil) == (g.Error == nil) {
		t.Fatalf("%s: want exactly one of entries and error", path)
	}
	return g
}

// TestCorpusMatchesJava is the oracle: every corpus file must load to
// exactly what a JVM loaded (see testdata/gen/GoldenGen.java).
func TestCorpusMatchesJava(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "corpus", "*.properties"))
	if err != nil {
		t.Fatal(err)
	}
	goldens, err := filepath.Glob(filepath.Join("testdata", "corpus", "*.golden"))
	if err != nil {
		t.Fatal(err)
	}
	if len(goldens) < minCorpus {
		t.Fatalf("found %d golden files, want at least %d", len(goldens), minCorpus)
	}
	if len(goldens) != len(inputs) {
		t.Errorf("%d golden files for %d corpus files: run make properties-golden", len(goldens), len(inputs))
	}
	compared := 0
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".properties")
		t.Run(name, func(t *testing.T) {
			g := readGolden(t, strings.TrimSuffix(in, ".properties")+".golden")
			got, err := LoadFile(in)
			compared++
			if g.Error != nil {
				checkJavaError(t, in, *g.Error, got, err)
				return
			}
			if err != nil {
				t.Fatalf("Java loads it, Go fails: %v", err)
			}
			want := g.Entries
			if diff := cmp.Diff(want, toMap(got)); diff != "" {
				t.Errorf("entries differ from Java (-java +go):\n%s", diff)
			}
		})
	}
	t.Logf("compared %d corpus files with their Java goldens", compared)
}

func checkJavaError(t *testing.T, file, javaErr string, got *Properties, err error) {
	t.Helper()
	if err == nil {
		t.Fatalf("Java fails with %q, Go loads %v", javaErr, toMap(got))
	}
	if !strings.Contains(javaErr, "Malformed \\uxxxx encoding") {
		t.Fatalf("golden has an error the Go reader does not model: %q", javaErr)
	}
	if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "malformed \\uxxxx encoding") {
		t.Errorf("got %v, want a malformed \\uxxxx ErrSyntax", err)
	}
	if !strings.HasPrefix(err.Error(), file+":") {
		t.Errorf("error %q does not start with the file name", err)
	}
}

func toMap(p *Properties) map[string]string {
	m := make(map[string]string)
	for _, k := range p.Keys() {
		m[k], _ = p.Get(k)
	}
	return m
}

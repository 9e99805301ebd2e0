package properties

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var updateStore = flag.Bool("update-store", false, "rewrite testdata/corpus/store_output.properties")

// trickyPairs exercises every escape rule of Store.
func trickyPairs() *Properties {
	p := New()
	for k, v := range map[string]string{
		"":                  "empty key",
		" lead":             " lead",
		"in side":           "in side ",
		"sep=:#!":           "=:#!\\",
		"#comment":          "!bang",
		"ctl\t\n\r\f\x00":   "\x01\x7f\t\n\r\f",
		"\ufeffbom":         "\ufeff",
		"ключ":              "значение 😀",
		"trailing\\":        "trailing\\",
		"empty":             "",
		"u\\u0041":          `\u0041`,
		"continued\\\nline": "  two spaces",
	} {
		p.Set(k, v)
	}
	return p
}

func TestStoreRoundTrip(t *testing.T) {
	p := trickyPairs()
	var out bytes.Buffer
	if err := p.Store(&out); err != nil {
		t.Fatal(err)
	}
	q, err := Load(&out)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(toMap(p), toMap(q)); diff != "" {
		t.Errorf("round trip (-stored +loaded):\n%s", diff)
	}
}

// TestStoreOutputIsJavaChecked pins Store's output to a corpus file, which
// has a golden made by a JVM: so Java, too, reads what Store writes as the
// pairs that were stored (TestCorpusMatchesJava compares them).
func TestStoreOutputIsJavaChecked(t *testing.T) {
	var out bytes.Buffer
	if err := trickyPairs().Store(&out); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "corpus", "store_output.properties")
	if *updateStore {
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), out.String()); diff != "" {
		t.Errorf("Store output changed (-file +now); rerun with -update-store and make properties-golden:\n%s", diff)
	}
	golden := readGolden(t, filepath.Join("testdata", "corpus", "store_output.golden"))
	if diff := cmp.Diff(golden.Entries, toMap(trickyPairs())); diff != "" {
		t.Errorf("Java loads other pairs than were stored (-java +stored):\n%s", diff)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errBroken }

func TestStoreWriteError(t *testing.T) {
	if err := trickyPairs().Store(failingWriter{}); !errors.Is(err, errBroken) {
		t.Errorf("Store(failing writer) = %v, want it wrapped", err)
	}
}

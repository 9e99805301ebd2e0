package properties

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func mustLoad(t *testing.T, s string) *Properties {
	t.Helper()
	p, err := LoadString(s)
	if err != nil {
		t.Fatalf("LoadString(%q): %v", s, err)
	}
	return p
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLine(t *testing.T) {
	p := mustLoad(t, "a=1\n\n  b=2\n# c\nc=3\\\n  4\nd\r\ne\rf\n\\\n  g=after lone backslash\na=again\n")
	want := map[string]int{"b": 3, "c": 5, "d": 7, "e": 8, "f": 9, "g": 11, "a": 12, "absent": 0}
	got := make(map[string]int)
	for k := range want {
		got[k] = p.Line(k)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Line (-want +got):\n%s", diff)
	}
	p.Set("c", "set in code")
	if n := p.Line("c"); n != 0 {
		t.Errorf("Line after Set = %d, want 0", n)
	}
}

func TestGetSetKeys(t *testing.T) {
	p := mustLoad(t, "b = x  \na=\n")
	if v, ok := p.Get("b"); !ok || v != "x  " {
		t.Errorf(`Get("b") = %q, %v; want "x  " (trailing space kept, as in Java), true`, v, ok)
	}
	if v, ok := p.Get("a"); !ok || v != "" {
		t.Errorf(`Get("a") = %q, %v; want "", true`, v, ok)
	}
	if v, ok := p.Get("c"); ok || v != "" {
		t.Errorf(`Get("c") = %q, %v; want "", false`, v, ok)
	}
	p.Set("c", "3")
	if diff := cmp.Diff([]string{"a", "b", "c"}, p.Keys()); diff != "" {
		t.Errorf("Keys (-want +got):\n%s", diff)
	}
	if got := p.String("a", "def"); got != "" {
		t.Errorf(`String("a") = %q, want "" (defined but empty is not absent)`, got)
	}
	if got := p.String("zz", "def"); got != "def" {
		t.Errorf(`String("zz") = %q, want "def"`, got)
	}
	if p.File() != "" || p.Len() != 3 {
		t.Errorf("File() = %q, Len() = %d; want \"\", 3", p.File(), p.Len())
	}
}

func TestNilAndZeroProperties(t *testing.T) {
	var p *Properties
	if _, ok := p.Get("a"); ok || p.Len() != 0 || len(p.Keys()) != 0 || p.Line("a") != 0 || p.File() != "" {
		t.Error("nil *Properties does not read as empty")
	}
	var z Properties
	z.Set("a", "1") // the zero value is usable, like New()
	if v, _ := z.Get("a"); v != "1" {
		t.Errorf("zero value Set/Get = %q, want 1", v)
	}
}

func TestLoadFile(t *testing.T) {
	path := writeFile(t, "peer.properties", "myid = 2\n")
	p, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if p.File() != path {
		t.Errorf("File() = %q, want %q", p.File(), path)
	}
	missing := filepath.Join(t.TempDir(), "missing.properties")
	_, err = LoadFile(missing)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("LoadFile(missing) = %v, want ErrNotExist naming the file", err)
	}
}

type failingReader struct{}

var errBroken = errors.New("broken pipe")

func (failingReader) Read([]byte) (int, error) { return 0, errBroken }

func TestLoadReaderError(t *testing.T) {
	if _, err := Load(failingReader{}); !errors.Is(err, errBroken) {
		t.Errorf("Load(failing reader) = %v, want it wrapped", err)
	}
}

func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		name, input string
		line        int
		key         string
		msg         string
	}{
		{"value", "x=1\nkey = \\u12G4\n", 2, "key", `key "key": malformed \uxxxx encoding "\\u12G4" in value`},
		{"key", "x=1\n\n  a\\u00=b\n", 3, "", `:3: malformed \uxxxx encoding "\\u00" in key`},
		{"continued", "x=1\nk=a\\\n  b\\u1", 2, "k", `:2: key "k": malformed`},
		{"utf8", "a=1\nb=\xff\n", 2, "", ":2: invalid UTF-8 byte 0xff"},
		{"utf8 crlf", "a=1\r\n\r\nb=\xc3\n", 3, "", ":3: invalid UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, "bad.properties", tt.input)
			p, err := LoadFile(path)
			if err == nil {
				t.Fatalf("loaded %v, want an error", toMap(p))
			}
			if !errors.Is(err, ErrSyntax) {
				t.Errorf("%v is not ErrSyntax", err)
			}
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("%v is not an *Error", err)
			}
			if pe.File != path || pe.Line != tt.line || pe.Key != tt.key {
				t.Errorf("got file %q line %d key %q, want %q %d %q", pe.File, pe.Line, pe.Key, path, tt.line, tt.key)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, path+":") || !strings.Contains(msg, tt.msg) {
				t.Errorf("message %q: want prefix %q and %q in it", msg, path+":", tt.msg)
			}
		})
	}
}

func TestErrorFormat(t *testing.T) {
	tests := []struct {
		err  Error
		want string
	}{
		{Error{File: "a.properties", Line: 3, Key: "k", Msg: "bad", Err: ErrValue}, `a.properties:3: key "k": bad`},
		{Error{File: "a.properties", Key: "k", Msg: "bad"}, `a.properties: key "k": bad`},
		{Error{Line: 3, Key: "k", Msg: "bad"}, `line 3: key "k": bad`},
		{Error{Key: "k\n", Msg: "bad"}, `key "k\n": bad`},
		{Error{Line: 7, Err: ErrSyntax}, `line 7: properties: syntax error`},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

func TestErrorfAndRequire(t *testing.T) {
	path := writeFile(t, "zab.properties", "# peers\npeer1 = 127.0.0.1:2888\nmyid=\n")
	p, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sentinel := errors.New("zab: bad config")
	err = p.Errorf("peer1", sentinel, "port %d is taken", 2888)
	if !errors.Is(err, sentinel) || err.Error() != path+`:2: key "peer1": port 2888 is taken` {
		t.Errorf("Errorf = %v", err)
	}
	if v, err := p.Require("myid"); err != nil || v != "" {
		t.Errorf("Require(myid) = %q, %v; want \"\", nil", v, err)
	}
	_, err = p.Require("dataLogDir")
	if !errors.Is(err, ErrMissing) || err.Error() != path+`: key "dataLogDir": required key is not defined` {
		t.Errorf("Require(absent) = %v", err)
	}
}

// A clone answers as the original, and a Set on either leaves the other
// alone (the test suite hands each Service a clone of its properties).
func TestCloneIsIndependent(t *testing.T) {
	p, err := LoadString("a=1\nb=2\n")
	if err != nil {
		t.Fatal(err)
	}
	c := p.Clone()
	c.Set("a", "changed")
	p.Set("c", "3")
	if v, _ := p.Get("a"); v != "1" {
		t.Errorf("the original's a after Set on the clone: %q, want 1", v)
	}
	if _, ok := c.Get("c"); ok {
		t.Error("the clone sees a key Set on the original afterwards")
	}
	if v, _ := c.Get("b"); v != "2" || c.Line("b") != p.Line("b") || c.File() != p.File() {
		t.Errorf("the clone's b: %q at line %d (file %q); want 2 at line %d (file %q)", v, c.Line("b"), c.File(), p.Line("b"), p.File())
	}
	var nilProps *Properties
	if nilProps.Clone() != nil {
		t.Error("a nil *Properties cloned is not nil")
	}
}

package properties

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestRedefinedKeysAreReported: a key defined twice takes the last value,
// as in Java, and nothing told the operator that the first definition
// (often the one being edited) was ignored. Redefined names the file, the
// key and every line that defines it, for the callers to log.
func TestRedefinedKeysAreReported(t *testing.T) {
	file := filepath.Join(t.TempDir(), "peer1.properties")
	text := "tickTime=100\nmyid=1\ntickTime=200\nclientPort=2181\ntickTime=300\nmyid=1\n"
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := p.Get("tickTime"); v != "300" || p.Line("tickTime") != 5 {
		t.Fatalf("tickTime = %q on line %d; want the last definition, 300 on line 5", v, p.Line("tickTime"))
	}
	want := []string{
		file + `:6: key "myid": defined again; line 2's definition is ignored (the last one wins, as in Java)`,
		file + `:5: key "tickTime": defined again; lines 1 and 3's definitions are ignored (the last one wins, as in Java)`,
	}
	if got := p.Redefined(); !slices.Equal(got, want) {
		t.Fatalf("Redefined() =\n%q\nwant\n%q", got, want)
	}
	if got := p.Clone().Redefined(); !slices.Equal(got, want) {
		t.Errorf("a clone's Redefined() = %q; want the original's", got)
	}
	once, _ := LoadString("a=1\nb=2\n")
	if got := once.Redefined(); len(got) != 0 {
		t.Errorf("Redefined() of a file without repeats = %q; want none", got)
	}
}

// TestSetKeyIsNoLongerRedefined: a program that overrides a key the file
// defines twice (mwzk-server --trace-dir sets trace.file, zab-demo --data
// sets dataLogDir) was told the file's last definition was in force, at
// line 0: "peer1.properties: key "trace.file": defined again; line 1's
// definition is ignored", while neither line was. Set replaces every
// definition of the file: none of them is a redefinition to warn about.
func TestSetKeyIsNoLongerRedefined(t *testing.T) {
	p, err := LoadString("trace.file=a\nmyid=1\ntrace.file=b\nmyid=2\n")
	if err != nil {
		t.Fatal(err)
	}
	p.Set("trace.file", "/tmp/peer1.trace")
	want := []string{`line 4: key "myid": defined again; line 2's definition is ignored (the last one wins, as in Java)`}
	if got := p.Redefined(); !slices.Equal(got, want) {
		t.Fatalf("Redefined() after Set(trace.file) =\n%q\nwant\n%q", got, want)
	}
}

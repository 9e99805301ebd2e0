package zab

import (
	"errors"
	"strings"
	"testing"

	"zablab/properties"
)

// TestNearKeysAreErrors: a key one or two edits from a known one is a typo
// that would leave the default in force (tickTme=100 ran with a 2 s tick),
// so it is an error naming file, line, key and the key meant.
func TestNearKeysAreErrors(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"tickTme=100", "tickTime"},
		{"synclimt=5", "syncLimit"},
		{"dataLogdir=x", "dataLogDir"},
		{"clientPrt=2181", "clientPort"},
		{"myd=1", "myid"},
	} {
		p, err := properties.LoadString("dataLogDir=/tmp/unused\n" + tc.line + "\n")
		if err != nil {
			t.Fatal(err)
		}
		err = CheckKeys(p)
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "line 2") ||
			!strings.Contains(err.Error(), `did you mean "`+tc.want+`"`) {
			t.Errorf("%s: %v, want an error at line 2 suggesting %q", tc.line, err, tc.want)
		}
	}
	// Far from every known key: only a warning (UnknownKeys), no error.
	p, _ := properties.LoadString("dataLogDir=/tmp/unused\nmyCustomSetting=1\nfoo=2\n")
	if err := CheckKeys(p); err != nil {
		t.Errorf("unrelated keys: %v, want no error", err)
	}
}

func TestMissingMyidSaysMissing(t *testing.T) {
	p, _ := properties.LoadString("peer1=127.0.0.1:2888\ndataLogDir=/tmp/unused\n")
	_, err := ConfigFromProperties(p, false)
	if err == nil || !strings.Contains(err.Error(), `"myid"`) || !strings.Contains(err.Error(), "missing") || strings.Contains(err.Error(), "got 0") {
		t.Fatalf("no myid: %v, want an error saying myid is missing", err)
	}
}

package zab

import (
	"strings"
	"testing"

	"zablab/properties"
)

// go doc (Configuration keys): "Any other unknown key is logged as a
// warning with file and line". Only the logging keys package logging reads
// and peer<i> with a numeric index are known, also for a single peer, so
// typos there do not vanish silently.
func TestMisspelledLogAndPeerKeysAreWarned(t *testing.T) {
	p, err := properties.LoadString("log.levle=debug\npeerType=observer\ndataLogDir=/tmp/zab-keys-unused\n")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ConfigFromProperties(p, true)
	if err == nil {
		defer cfg.Close()
	}
	got := strings.Join(UnknownKeys(p), "\n")
	for _, k := range []string{"log.levle", "peerType"} {
		if err == nil && !strings.Contains(got, k) {
			t.Errorf("key %q: neither an error nor a warning (UnknownKeys: %q)", k, got)
		}
	}
}

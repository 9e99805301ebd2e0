package zab

import (
	"errors"
	"strings"
	"testing"

	"zablab/properties"
)

// TestZooKeeperEnsembleKeysAreRefused: an operator who brings a zoo.cfg
// (server.1=host:2888:3888, dataDir=...) got warnings only, "unknown key,
// ignored", and each peer started as a lone standalone server: three
// independent trees where an ensemble was meant. server.<i> and dataDir
// must be errors naming the key and this project's key for it.
func TestZooKeeperEnsembleKeysAreRefused(t *testing.T) {
	cases := []struct{ text, key, hint string }{
		{"myid=1\ndataLogDir=/tmp/zab-keys-unused\nserver.1=127.0.0.1:2888:3888\nserver.2=127.0.0.1:2889:3889\n",
			"server.1", "peer1=host:port"},
		{"myid=1\ndataLogDir=/tmp/zab-keys-unused\ndataDir=/tmp/zab-keys-unused\n", "dataDir", "dataSnapDir"},
	}
	for _, c := range cases {
		p, err := properties.LoadString(c.text)
		if err != nil {
			t.Fatal(err)
		}
		err = CheckKeys(p)
		var pe *properties.Error
		if !errors.As(err, &pe) || pe.Key != c.key || !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), c.hint) {
			t.Errorf("CheckKeys of\n%s= %v; want an ErrConfig naming the key %q and %q", c.text, err, c.key, c.hint)
		}
	}
}

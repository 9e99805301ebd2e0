package main

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"zablab/properties"
	"zablab/zab"
)

// --no-fsync reaches both systems' configuration and the report, and a
// comparison across the setting says so.
func TestNoFsyncReachesBothSystems(t *testing.T) {
	o, err := parseFlags([]string{"--no-fsync"}, &bytes.Buffer{})
	if err != nil || !o.set.noFsync {
		t.Fatalf("--no-fsync: %+v, %v", o.set, err)
	}
	pp := []int{1, 2, 3, 4, 5, 6, 7, 8, 9}
	for _, skip := range []bool{false, true} {
		set := settings{2000, 10, 5, skip}
		p, err := properties.LoadString(ourProperties(2, pp, set))
		if err != nil {
			t.Fatal(err)
		}
		c, err := zab.ConfigFromProperties(p, false)
		if err != nil || c.SkipFsync != skip {
			t.Errorf("noFsync %v: our peer reads SkipFsync %v, %v", skip, c.SkipFsync, err)
		}
		if got := slices.Contains(zkFlags(set), "-Dzookeeper.forceSync=no"); got != skip {
			t.Errorf("noFsync %v: ZooKeeper's flags %v", skip, zkFlags(set))
		}
	}

	base := &report{NoFsync: true}
	var out bytes.Buffer
	base.print(&out)
	if !strings.Contains(out.String(), "forceSync=no") {
		t.Errorf("the table's header does not say forceSync=no:\n%s", out.String())
	}
	file := filepath.Join(t.TempDir(), "base.json")
	if err := base.write(file); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := (&report{}).compare(file, &out); err != nil || !strings.Contains(out.String(), "measure different things") {
		t.Errorf("a comparison with a --no-fsync baseline: %v, %q", err, out.String())
	}
}

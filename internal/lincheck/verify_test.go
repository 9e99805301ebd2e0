package lincheck

import (
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"

	"zablab/internal/artifacts"
	"zablab/internal/histview"
)

// TestVerifyDrawsAFailingHistory: a history that is not linearizable
// gives an error that names a page drawing it, the faults included.
func TestVerifyDrawsAFailingHistory(t *testing.T) {
	t.Setenv(artifacts.Env, t.TempDir())
	var stale modelCase
	for _, c := range modelCases() {
		if c.name == "stale read after a completed setData" {
			stale = c
		}
	}
	faults := []histview.Fault{{Replica: 2, Kind: histview.Stop, Start: 12}, {Replica: 1, Kind: histview.Looking, Start: 12, End: 35}}
	err := Verify(t, stale.h, faults, Page{Title: "seed 4242: not linearizable", Replay: "MWZK_SEED=4242 make grade"})
	if !errors.Is(err, ErrNotLinearizable) {
		t.Fatalf("Verify of an illegal history: %v; want ErrNotLinearizable", err)
	}
	m := regexp.MustCompile(`not linearizable; open (\S+) in a browser$`).FindStringSubmatch(err.Error())
	if m == nil {
		t.Fatalf("Verify said %q; want the page to open", err)
	}
	page, rerr := os.ReadFile(m[1])
	if rerr != nil {
		t.Fatal(rerr)
	}
	for _, want := range []string{"setData(/k", "replica 2", "replica 1", "LOOKING", "MWZK_SEED=4242"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("%s lacks %q", m[1], want)
		}
	}
}

// TestVerifyPassesALinearizableHistory: no error, no page.
func TestVerifyPassesALinearizableHistory(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(artifacts.Env, dir)
	for _, c := range modelCases() {
		if c.name == "read concurrent with setData sees either" {
			if err := Verify(t, c.h, nil, Page{}); err != nil {
				t.Fatalf("Verify of a linearizable history: %v", err)
			}
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		t.Fatalf("Verify of a linearizable history wrote %d entries into %s", len(entries), dir)
	}
}

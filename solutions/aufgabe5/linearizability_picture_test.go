package aufgabe5

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"zablab/internal/artifacts"
	"zablab/internal/histview"
)

// fatalRecorder is a testing.TB whose Fatalf records the message and
// ends the call, so a test can look at how linCheck fails.
type fatalRecorder struct {
	testing.TB
	msg string
}

func (f *fatalRecorder) Helper() {}
func (f *fatalRecorder) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	panic(f)
}

// TestLinCheckDrawsAFailingHistory: a history that is not linearizable
// fails with the seed and the path of a page that draws it, the faults
// included.
func TestLinCheckDrawsAFailingHistory(t *testing.T) {
	t.Setenv(artifacts.Env, t.TempDir())
	var stale linModelCase
	for _, c := range linModelCases() {
		if c.name == "stale read after a completed setData" {
			stale = c
		}
	}
	faults := []histview.Fault{{Replica: 2, Kind: histview.Stop, Start: 12}, {Replica: 1, Kind: histview.Looking, Start: 12, End: 35}}
	rec := &fatalRecorder{TB: t}
	func() {
		defer func() {
			if r := recover(); r != nil && r != rec {
				panic(r)
			}
		}()
		linCheck(rec, 4242, stale.h, faults)
	}()
	m := regexp.MustCompile(`^seed 4242: .* not linearizable; open (\S+) in a browser$`).FindStringSubmatch(rec.msg)
	if m == nil {
		t.Fatalf("linCheck on an illegal history said %q; want the seed and the page to open", rec.msg)
	}
	page, err := os.ReadFile(m[1])
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"setData(/k", "replica 2", "replica 1", "LOOKING", "MWZK_SEED=4242"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("%s lacks %q", m[1], want)
		}
	}
}

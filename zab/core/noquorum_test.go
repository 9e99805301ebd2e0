package core_test

import (
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"
)

// TestNoQuorumIsSummarizedNotRepeated: a voter alone logs its first LOOKING
// at INFO, every further election round only at DEBUG, and a WARN summary
// every 10 s naming the silent peers; once a quorum forms it says so once.
func TestNoQuorumIsSummarizedNotRepeated(t *testing.T) {
	lg, hook := logtest.NewNullLogger()
	lg.SetLevel(logrus.InfoLevel)
	cl := newCluster(t, 3, 0)
	cl.logger, cl.tickLen = lg, time.Second
	cl.start(1)
	for range 35 { // 35 s of 1 s ticks: three election timeouts of initLimit 10
		cl.tick()
	}
	var looking, summaries []string
	for _, e := range hook.AllEntries() {
		switch {
		case strings.HasPrefix(e.Message, "becoming LOOKING"):
			looking = append(looking, e.Message)
		case strings.HasPrefix(e.Message, "no quorum"):
			if e.Level != logrus.WarnLevel {
				t.Errorf("summary at %v, want WARN: %s", e.Level, e.Message)
			}
			summaries = append(summaries, e.Message)
		}
	}
	if len(looking) != 1 {
		t.Errorf("%d INFO LOOKING lines in 35 ticks, want 1: %q", len(looking), looking)
	}
	want := []string{
		"no quorum: 2 of 3 peers unreachable for 10s (silent: peer2, peer3)",
		"no quorum: 2 of 3 peers unreachable for 20s (silent: peer2, peer3)",
		"no quorum: 2 of 3 peers unreachable for 30s (silent: peer2, peer3)",
	}
	if strings.Join(summaries, "\n") != strings.Join(want, "\n") {
		t.Errorf("summaries:\n%s\nwant:\n%s", strings.Join(summaries, "\n"), strings.Join(want, "\n"))
	}

	hook.Reset()
	cl.start(2)
	cl.until("a leader", 60, func() bool { return cl.leader() != 0 })
	back := 0
	for _, e := range hook.AllEntries() {
		if strings.HasPrefix(e.Message, "quorum back after") {
			back++
		}
	}
	if back == 0 {
		t.Errorf("no \"quorum back\" line once peer 2 came: %v", hook.AllEntries())
	}
}

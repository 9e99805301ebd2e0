package server

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"zablab/solutions/aufgabe5"
)

// stageCounts are the sample counts and sums of mwzk_write_stage_seconds
// for role, per stage.
type stageCounts struct {
	n   [len(StageNames)]uint64
	sum [len(StageNames)]float64
}

func readStages(t *testing.T, role string) stageCounts {
	t.Helper()
	var c stageCounts
	for k, st := range StageNames {
		var m dto.Metric
		if err := writeStageSeconds.WithLabelValues(role, st).(prometheus.Metric).Write(&m); err != nil {
			t.Fatal(err)
		}
		c.n[k], c.sum[k] = m.GetHistogram().GetSampleCount(), m.GetHistogram().GetSampleSum()
	}
	return c
}

// missing names the stages of role not observed since before, or "".
func missing(t *testing.T, role string, before stageCounts) string {
	now := readStages(t, role)
	var out []string
	for k, st := range StageNames {
		if now.n[k] <= before.n[k] {
			out = append(out, st)
		}
	}
	return strings.Join(out, ", ")
}

// awaitStages polls until every stage of role was observed since before;
// the writer observes once the reply is written, which may be just after
// the client read it, so the test waits for it with a deadline.
func awaitStages(t *testing.T, role string, before stageCounts) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	poll := time.NewTicker(2 * time.Millisecond)
	defer poll.Stop()
	for missing(t, role, before) != "" && time.Now().Before(deadline) {
		<-poll.C
	}
	if m := missing(t, role, before); m != "" {
		t.Fatalf("role %s: stages never observed: %s", role, m)
	}
}

// settled waits up to 10 s until every stage of role has been observed as
// often as the others, so no write is half counted, and the total at least
// atLeast times; it returns the counts.
func settled(t *testing.T, role string, atLeast uint64) stageCounts {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c := readStages(t, role)
		done := slices.Min(c.n[:]) == slices.Max(c.n[:]) && c.n[len(c.n)-1] >= atLeast
		if done || time.Now().After(deadline) {
			return c
		}
		runtime.Gosched()
	}
}

// TestWriteStagesObserved: a write through a standalone server (its peer
// leads) is observed in every stage, and the stages add up to the total:
// each starts where the previous one ended.
func TestWriteStagesObserved(t *testing.T) {
	s := startA5(t, "")
	c := zkClient(t, 3*time.Second, s.Addr().String())
	before := settled(t, "leader", 0) // the session's own write may still be being observed
	const writes = 20
	for i := 0; i < writes; i++ {
		if _, err := c.Create(fmt.Sprintf("/stage%d", i), []byte("x"), 0, acl); err != nil {
			t.Fatal(err)
		}
	}
	awaitStages(t, "leader", before)
	// The total is observed once the reply is written, which may be just
	// after the client read it.
	total := len(StageNames) - 1
	after := settled(t, "leader", before.n[total]+writes)
	if got := after.n[total] - before.n[total]; got < writes {
		t.Errorf("total observed %d times for %d writes", got, writes)
	}
	var sum float64
	for k := 0; k < total; k++ {
		sum += after.sum[k] - before.sum[k]
	}
	if d := after.sum[total] - before.sum[total]; math.Abs(sum-d) > 1e-3 {
		t.Errorf("the stages add up to %.6fs, the total is %.6fs: a gap or overlap between stages", sum, d)
	}
}

// TestWriteStagesOnFollower: a write a follower forwards is observed there
// in every stage (role follower), and one on the leader as a leader's.
func TestWriteStagesOnFollower(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a 3-server ensemble")
	}
	e := startEnsemble(t, 3, aufgabe5.New)
	lb, fb := readStages(t, "leader"), readStages(t, "follower")
	for i, a := range e.addrs { // one leader and two followers among them
		c := zkClient(t, 3*time.Second, a)
		if _, err := c.Create(fmt.Sprintf("/via%d", i), nil, 0, acl); err != nil {
			t.Fatal(err)
		}
	}
	awaitStages(t, "leader", lb)
	awaitStages(t, "follower", fb)
}

// TestReviewRefusedWriteIsNotMeasured: stages.go promises "Writes the
// Service answers elsewhere (refused, failed, a Service without Zab) are
// not measured". A write the Service refuses before proposing it (a TTL
// node while TTL nodes are off) is answered with the replica's newest zxid; the StageBoard still
// holds the stages of the last own delivery, whose zxid that is, so the
// refused write was observed with another write's stages. A write after it
// on the same session is answered, and so observed, after it: once that one
// is counted, the refused one would have been too.
func TestReviewRefusedWriteIsNotMeasured(t *testing.T) {
	s := startA5(t, "")
	c := zkClient(t, 3*time.Second, s.Addr().String())
	before := readStages(t, "leader")
	if _, err := c.Create("/measured", []byte("x"), 0, acl); err != nil {
		t.Fatal(err)
	}
	awaitStages(t, "leader", before)
	mid := readStages(t, "leader")
	_, err := c.CreateTTL("/refused", []byte("y"), zk.FlagTTL, acl, time.Minute)
	if err == nil || !strings.Contains(err.Error(), "-6") { // go-zookeeper knows no name for Unimplemented
		t.Fatalf("create of a TTL node with TTL nodes off: err = %v, want Unimplemented (-6)", err)
	}
	if _, err := c.Create("/after", []byte("z"), 0, acl); err != nil {
		t.Fatal(err)
	}
	awaitStages(t, "leader", mid)
	after := readStages(t, "leader")
	total := len(StageNames) - 1
	if d := after.n[total] - mid.n[total]; d != 1 {
		t.Errorf("a refused write and a proposed one: total observed %d more time(s), want 1 (the proposed one)", d)
	}
}

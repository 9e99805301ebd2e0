package server

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	mw "zablab/mwzookeeper"
)

// TestReviewRefusedWriteIsNotMeasured: stages.go promises "Writes the
// Service answers elsewhere (refused, failed, a Service without Zab) are
// not measured". A write the Service refuses before proposing it (data over
// MaxData) is answered with the replica's newest zxid; the StageBoard still
// holds the stages of the last own delivery, whose zxid that is, so the
// refused write is observed with another write's stages.
func TestReviewRefusedWriteIsNotMeasured(t *testing.T) {
	s := startA5(t, "")
	c := zkClient(t, 3*time.Second, s.Addr().String())
	before := readStages(t, "leader")
	if _, err := c.Create("/measured", []byte("x"), 0, acl); err != nil {
		t.Fatal(err)
	}
	awaitStages(t, "leader", before)
	time.Sleep(200 * time.Millisecond)
	mid := readStages(t, "leader")
	_, err := c.Create("/refused", bytes.Repeat([]byte("y"), mw.MaxData+1), 0, acl)
	if err == nil || !errors.Is(err, zk.ErrBadArguments) {
		t.Fatalf("create of %d bytes: err = %v, want ErrBadArguments", mw.MaxData+1, err)
	}
	time.Sleep(300 * time.Millisecond)
	after := readStages(t, "leader")
	total := len(StageNames) - 1
	if d := after.n[total] - mid.n[total]; d != 0 {
		t.Errorf("a write refused before it was proposed was measured: total observed %d more time(s); apply stage grew by %.6fs",
			d, after.sum[total-2]-mid.sum[total-2])
	}
}

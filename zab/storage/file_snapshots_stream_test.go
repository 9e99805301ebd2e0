package storage

import (
	"io"
	"testing"
	"time"

	"zablab/zab/core"
)

// The runtime streams GetState into SaveFrom on a goroutine of its own
// "while the protocol goes on". But the leader's protocol goroutine calls
// Latest (core.sendNewLeader -> Store.LatestSnapshot) to SNAP a lagging
// follower: Latest must not wait for a snapshot being written (SaveFrom
// once held s.mu across the whole GetState), and returns the newest
// completed one.
func TestLatestDoesNotWaitForSnapshotBeingWritten(t *testing.T) {
	s, err := OpenFileSnapshots(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Save(core.Snapshot{Meta: core.SnapshotMeta{Zxid: core.Zxid(1<<32 | 5)}, Data: []byte("old")}); err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	started := make(chan struct{})
	saved := make(chan error, 1)
	go func() {
		saved <- s.SaveFrom(core.SnapshotMeta{Zxid: core.Zxid(1<<32 | 9)}, func(w io.Writer) error {
			close(started)
			<-release // a large GetState still streaming
			_, err := w.Write([]byte("new"))
			return err
		})
	}()
	<-started
	got := make(chan error, 1)
	var latest core.Snapshot
	go func() { var err error; latest, err = s.Latest(); got <- err }()
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
		if string(latest.Data) != "old" {
			t.Fatalf("Latest during the write returned %v %q, want the completed snapshot \"old\"", latest.Meta.Zxid, latest.Data)
		}
	case <-time.After(2 * time.Second):
		close(release)
		<-saved
		t.Fatal("Latest blocked for 2s behind a SaveFrom whose GetState is still streaming: the leader's protocol goroutine stalls while it SNAPs a follower")
	}
	close(release)
	if err := <-saved; err != nil {
		t.Fatal(err)
	}
	if snap, err := s.Latest(); err != nil || string(snap.Data) != "new" {
		t.Fatalf("Latest after the write: %q, %v; want \"new\"", snap.Data, err)
	}
}

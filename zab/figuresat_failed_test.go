package zab

import (
	"net"
	"path/filepath"
	"testing"
	"time"
)

// A peer whose Startup fails (its peer address is taken, so the transport
// cannot listen) never runs, and PeerFiguresAt must have no figures for
// its address (a review found buildCore's left there).
func TestPeerFiguresAtForgetsAFailedStartup(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0") // someone else holds peer 1's address
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	var peers []Peer
	peers = append(peers, Peer{ID: 1, Addr: taken.Addr().String()})
	for i := 2; i <= 3; i++ {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		peers = append(peers, Peer{ID: uint64(i), Addr: ln.Addr().String()})
		ln.Close()
	}
	dir := t.TempDir()
	cfg := Config{ID: 1, Peers: peers, TickTime: 20 * time.Millisecond, InitLimit: 10, SyncLimit: 5,
		Logger: quietLogger(), DataLogDir: filepath.Join(dir, "log"), DataSnapDir: filepath.Join(dir, "snap")}
	z, err := NewMultiZabFromConfig(&recorder{}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := z.Startup(); err == nil {
		z.Shutdown()
		t.Fatal("Startup succeeded on an address in use")
	} else {
		t.Logf("Startup failed as it must: %v", err)
	}
	f1, ok1 := PeerFiguresAt(peers[0].Addr)
	_ = z.Shutdown()
	f2, ok2 := PeerFiguresAt(peers[0].Addr)
	if ok1 || ok2 {
		t.Fatalf("peer 1 never ran, but PeerFiguresAt(%s) has figures: after the failed Startup %v %+v, after Shutdown %v %+v",
			peers[0].Addr, ok1, f1, ok2, f2)
	}
}

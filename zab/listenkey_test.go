package zab

import (
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestStartupOnATakenPeerAddressNamesItsKey: an operator who starts a
// peer whose Zab port another process holds (a second ensemble on the same
// ports) must be told which key of the peer's file that address comes
// from, as the client port's error names clientPort; the bare transport
// error named only the address.
func TestStartupOnATakenPeerAddressNamesItsKey(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	peers := []Peer{{ID: 1, Addr: "127.0.0.1:1"}, {ID: 2, Addr: taken.Addr().String()}}
	dir := t.TempDir()
	cfg := Config{ID: 2, Peers: peers, TickTime: 20 * time.Millisecond, InitLimit: 10, SyncLimit: 5,
		Logger: quietLogger(), DataLogDir: filepath.Join(dir, "log"), DataSnapDir: filepath.Join(dir, "snap")}
	z, err := NewMultiZabFromConfig(&recorder{}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Shutdown()
	err = z.Startup()
	if err == nil {
		t.Fatal("Startup succeeded on an address in use")
	}
	if !strings.Contains(err.Error(), `"peer2"`) || !strings.Contains(err.Error(), taken.Addr().String()) {
		t.Errorf("Startup on a taken peer address: %v; want the key \"peer2\" and the address %s named", err, taken.Addr())
	}
}

package server

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"zablab/internal/wait"
	"zablab/properties"
)

// TestLonePeerWithoutMyidIsPeer1: a lone peer (no peer<i> keys) may leave
// myid out, and Zab runs it as peer 1 (docs/operations.md). The operator's
// views must say so too: the admin API's leader said "no leader elected"
// while it served, configuration said server_id 0 and conf "serverId=".
func TestLonePeerWithoutMyidIsPeer1(t *testing.T) {
	if reference == nil {
		t.Skip("the reference Service (solutions/aufgabe5) is not in this tree")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "lone.properties")
	text := "dataLogDir=log\ntickTime=50\nlog.level=" + zabLogLevel() + "\n" + opsProps(t)
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := properties.LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(p, reference, Options{Listener: ln, Logger: testLogger()})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Stop() })
	wait.For(t, "the lone peer serving", 30*time.Second, s.isServing)
	if got := adminJSON(t, s, "leader"); got["error"] != nil || got["leader_id"] != float64(1) {
		t.Errorf("/commands/leader of a serving lone peer without myid = %v, want leader_id 1, error null", got)
	}
	if got := adminJSON(t, s, "configuration")["server_id"]; got != float64(1) {
		t.Errorf("configuration's server_id = %v, want 1", got)
	}
	if conf := fourLetter(t, s.Addr(), "conf"); !strings.Contains(conf, "\nserverId=1\n") {
		t.Errorf("conf of a lone peer without myid:\n%s\nwant a line serverId=1", conf)
	}
}

package server

import (
	"strings"
	"testing"
)

// TestLonePeerWithoutMyidIsPeer1: a lone peer (no peer<i> keys) may leave
// myid out, and Zab runs it as peer 1 (docs/operations.md). The operator's
// views must say so too: the admin API's leader said "no leader elected"
// while it served, configuration said server_id 0 and conf "serverId=".
func TestLonePeerWithoutMyidIsPeer1(t *testing.T) {
	s := startA5Props(t, "dataLogDir=log\ntickTime=50\nlog.level="+zabLogLevel()+"\n"+opsProps(t))
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

// TestMyidWithASignIsTheIDZabRuns: Zab reads myid as a decimal integer
// with an optional sign (properties.Int, as ZooKeeper's Long.parseLong
// reads its myid file), so "myid=+1" runs peer 1. The admin views parsed
// it with ParseUint and said server_id 0, serverId=0 and no leader.
func TestMyidWithASignIsTheIDZabRuns(t *testing.T) {
	s := startA5Props(t, "myid=+1\ndataLogDir=log\ntickTime=50\nlog.level="+zabLogLevel()+"\n"+opsProps(t))
	if got := s.ID(); got != 1 {
		t.Errorf("ID() with myid=+1 = %d, want 1", got)
	}
	if got := adminJSON(t, s, "leader"); got["error"] != nil || got["leader_id"] != float64(1) {
		t.Errorf("/commands/leader of a serving peer with myid=+1 = %v, want leader_id 1, error null", got)
	}
	if got := adminJSON(t, s, "configuration")["server_id"]; got != float64(1) {
		t.Errorf("configuration's server_id with myid=+1 = %v, want 1", got)
	}
	if conf := fourLetter(t, s.Addr(), "conf"); !strings.Contains(conf, "\nserverId=1\n") {
		t.Errorf("conf with myid=+1:\n%s\nwant a line serverId=1", conf)
	}
}

// TestLonePeerLeaderNamesItsAddress: a lone peer leads itself, and
// /commands/leader said so with leader_ip "": a lone peer has no peer<i>
// key to take the address from. It names the address the peer serves
// clients on. (Apache ZooKeeper's standalone server answers the command
// with "server is not initialized", which reads as "not started": a lone
// peer is running, and leads itself.)
func TestLonePeerLeaderNamesItsAddress(t *testing.T) {
	s := startA5Props(t, "dataLogDir=log\ntickTime=50\nlog.level="+zabLogLevel()+"\n"+opsProps(t))
	got := adminJSON(t, s, "leader")
	if got["error"] != nil || got["is_leader"] != true || got["leader_ip"] != "127.0.0.1" {
		t.Errorf("/commands/leader of a lone peer = %v, want is_leader true, leader_ip 127.0.0.1", got)
	}
}

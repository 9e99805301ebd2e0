package server

import (
	"fmt"
	"testing"

	"zablab/internal/ports"
)

// TestLeaderIPIsTheBareHost: /commands/leader's leader_ip is the host of
// the leader's Zab address, as ZooKeeper shows it: the bare address. An
// IPv6 peer (peer1=[::1]:port) kept its brackets, "[::1]", and a peer
// written with ZooKeeper's ":participant" suffix kept its port,
// "127.0.0.1:port", since the host was cut at the last colon.
func TestLeaderIPIsTheBareHost(t *testing.T) {
	pp, err := ports.Free(2)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ peer, want string }{
		{fmt.Sprintf("[::1]:%d", pp[0]), "::1"},
		{fmt.Sprintf("127.0.0.1:%d:participant", pp[1]), "127.0.0.1"},
	} {
		s := startA5Props(t, "myid=1\npeer1="+c.peer+"\ndataLogDir=log\ntickTime=50\nlog.level="+zabLogLevel()+"\n"+opsProps(t))
		got := adminJSON(t, s, "leader")
		if got["error"] != nil || got["is_leader"] != true || got["leader_ip"] != c.want {
			t.Errorf("peer1=%s: /commands/leader = %v, want is_leader true, leader_ip %s", c.peer, got, c.want)
		}
		s.Stop()
	}
}

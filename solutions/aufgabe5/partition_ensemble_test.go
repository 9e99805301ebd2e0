package aufgabe5

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"zablab/internal/netpart"
	"zablab/internal/procs"
	"zablab/internal/wait"
)

// The ensemble of the partition tests: three mwzk-server processes of the
// reference, each in a network namespace of its own (package
// internal/netpart), with its own address, so the test can cut the
// network between them. Clients dial from the hub namespace through
// netpart's Dial, which go-zookeeper takes as its zk.Dialer.

const (
	partClientPort = 2181
	partPeerPort   = 2888
	partSessionTTL = 10 * time.Second
)

// partEnsemble is the three peers and their network.
type partEnsemble struct {
	net   *netpart.Net
	bin   string
	dir   string
	peers []*partPeer
}

// partPeer is one mwzk-server process.
type partPeer struct {
	id   int
	addr string // its client port, reachable from the hub
	proc *procs.Proc
	out  *lockedBuf
}

// lockedBuf collects a process's output from its pipe goroutines.
type lockedBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// partStart makes the namespaces, builds mwzk-server and starts n peers,
// and waits for a leader and its followers.
func partStart(t *testing.T, n int) *partEnsemble {
	t.Helper()
	nt := netpart.New(t, n) // skips when not root or without namespaces
	e := &partEnsemble{net: nt, dir: t.TempDir()}
	e.bin = filepath.Join(e.dir, "mwzk-server")
	if out, err := procs.Run(exec.Command("go", "build", "-o", e.bin, "zablab/cmd/mwzk-server"), 5*time.Minute); err != nil {
		t.Fatalf("building mwzk-server: %v\n%s", err, out)
	}
	for i := 1; i <= n; i++ {
		p, err := e.startPeer(t, i)
		if err != nil {
			t.Fatal(err)
		}
		e.peers = append(e.peers, p)
	}
	e.waitRoles(t, "a leader and its followers at the start", 0)
	return e
}

// startPeer writes peer i's properties and starts it in its namespace.
func (e *partEnsemble) startPeer(t *testing.T, i int) (*partPeer, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "myid=%d\nclientPort=%d\nclientPortAddress=%s\ndataLogDir=data%d/log\n4lw.commands.whitelist=*\n",
		i, partClientPort, e.net.IP(i), i)
	for j := 1; j <= e.net.N(); j++ {
		fmt.Fprintf(&b, "peer%d=%s:%d\n", j, e.net.IP(j), partPeerPort)
	}
	b.WriteString("tickTime=100\ninitLimit=20\nsyncLimit=10\nminSessionTimeout=1000\nmaxSessionTimeout=20000\nlog.level=INFO\n")
	file := filepath.Join(e.dir, fmt.Sprintf("peer%d.properties", i))
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		return nil, fmt.Errorf("peer %d (%s): %w", i, e.net.Peer(i), err)
	}
	p := &partPeer{id: i, addr: fmt.Sprintf("%s:%d", e.net.IP(i), partClientPort), out: &lockedBuf{}}
	cmd := e.net.Command(i, e.bin, "--config", file)
	cmd.Stdout, cmd.Stderr = p.out, p.out
	p.proc = procs.Start(t, cmd) // ended by its pid when the test ends
	t.Cleanup(func() {           // runs before Start's cleanup kills it
		if t.Failed() {
			t.Logf("peer %d (%s) output:\n%s", i, e.net.Peer(i), lastLines(p.out.String(), 60))
		}
	})
	return p, nil
}

// lastLines is the end of a long log.
func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// state asks peer i for its role with the four-letter word mntr, from the
// hub: "leader", "follower", or "" when it does not answer or serves none.
func (e *partEnsemble) state(i int) string {
	nc, err := e.net.Dial("tcp", e.peers[i-1].addr, time.Second)
	if err != nil {
		return ""
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(2 * time.Second))
	nc.Write([]byte("mntr"))
	out, _ := io.ReadAll(nc)
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "zk_server_state\t"); ok {
			return v
		}
	}
	return ""
}

// waitRoles waits until one peer leads and all others follow, with a
// leader other than not (0: any), and returns the leader.
func (e *partEnsemble) waitRoles(t *testing.T, what string, not int) int {
	t.Helper()
	leader := 0
	wait.For(t, what, 60*time.Second, func() bool {
		leader = e.leaderAmong(e.all(), not)
		return leader != 0
	})
	return leader
}

// leaderAmong is the peer of ids that leads, when all others of ids
// follow and it is not not; 0 otherwise.
func (e *partEnsemble) leaderAmong(ids []int, not int) int {
	leader, followers := 0, 0
	for _, i := range ids {
		switch e.state(i) {
		case "leader":
			leader = i
		case "follower":
			followers++
		}
	}
	if leader == 0 || leader == not || followers != len(ids)-1 {
		return 0
	}
	return leader
}

func (e *partEnsemble) all() []int {
	ids := make([]int, len(e.peers))
	for i := range ids {
		ids[i] = i + 1
	}
	return ids
}

// others is every peer but i.
func (e *partEnsemble) others(i int) []int {
	var ids []int
	for _, j := range e.all() {
		if j != i {
			ids = append(ids, j)
		}
	}
	return ids
}

// addrs are the client addresses of ids, in that order.
func (e *partEnsemble) addrs(ids ...int) []string {
	var out []string
	for _, i := range ids {
		out = append(out, e.peers[i-1].addr)
	}
	return out
}

// connect opens a go-zookeeper session that tries addrs in order, dialing
// from the hub, and waits for it.
func (e *partEnsemble) connect(t *testing.T, addrs []string) *zk.Conn {
	t.Helper()
	c, _, err := zk.Connect(addrs, partSessionTTL, zk.WithDialer(e.net.Dial), zk.WithLogger(partNopLog{}),
		zk.WithLogInfo(false), zk.WithHostProvider(&partInOrder{}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	wait.For(t, "a session on "+strings.Join(addrs, ","), 30*time.Second, func() bool { return c.State() == zk.StateHasSession })
	return c
}

type partNopLog struct{}

func (partNopLog) Printf(string, ...any) {}

// partInOrder is a HostProvider that tries the servers in the order given,
// so a client's first address is its home.
type partInOrder struct {
	mu    sync.Mutex
	addrs []string
	next  int
}

func (h *partInOrder) Init(servers []string) error { h.addrs = servers; return nil }
func (h *partInOrder) Len() int                    { return len(h.addrs) }
func (h *partInOrder) Connected()                  {}
func (h *partInOrder) Next() (string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	a := h.addrs[h.next%len(h.addrs)]
	h.next++
	return a, h.next%len(h.addrs) == 0
}

package interop

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"zablab/internal/ports"
	"zablab/internal/procs"
	"zablab/internal/realzk"
)

// kazooReadOnlyScript is kazoo 2.8's TestReadOnlyMode.test_read_only
// (kazoo/tests/test_connection.py) as a script the test drives: argv[1]
// the hosts, argv[2] how long (s) to stay connected read-only, argv[3]
// "back" if the stopped peers come back. It prints "ready", waits for a
// line (two peers stopped), prints what the read-only client saw as JSON,
// waits for a line (the peers are back) and prints a second JSON object.
const kazooReadOnlyScript = `
import json, sys, threading, time
from kazoo.client import KazooClient
from kazoo.exceptions import NotReadOnlyCallError
from kazoo.protocol.states import KeeperState

setup = KazooClient(hosts=sys.argv[1], timeout=10)
setup.start(timeout=20)
setup.ensure_path("/kazooro")
setup.stop(); setup.close()

client = KazooClient(hosts=sys.argv[1] + "/kazooro", read_only=True, timeout=15)
client.start(timeout=20)
drops, ro, rw, held = [], threading.Event(), threading.Event(), threading.Event()
def listen(state):
    if ro.is_set() and not held.is_set():
        drops.append(client.client_state)
    if client.client_state == KeeperState.CONNECTED_RO:
        ro.set()
    if ro.is_set() and client.client_state == KeeperState.CONNECTED:
        rw.set()
client.add_listener(listen)
print("ready", flush=True)
sys.stdin.readline()
out = {"connected_ro": ro.wait(6), "state": client.client_state}
def answer(f, *args):
    try:
        return f(*args).get(timeout=5)
    except Exception as e:
        return type(e).__name__
out["children"] = answer(client.get_children_async, "/")
try:
    client.create_async("/fred").get(timeout=5)
    out["create"] = "no error"
except NotReadOnlyCallError:
    out["create"] = "NotReadOnlyCallError"
except Exception as e:
    out["create"] = type(e).__name__
time.sleep(float(sys.argv[2]))
out["state_after_hold"] = client.client_state
held.set()
out["states_while_ro"] = drops
print(json.dumps(out), flush=True)
sys.stdin.readline()
back = {}
if sys.argv[3] == "back":
    back["read_write_again"] = rw.wait(30)
    back["create"] = client.create("/fred")
print(json.dumps(back), flush=True)
client.stop(); client.close()
`

// kazooReadOnly runs kazooReadOnlyScript against addrs; stop stops two
// peers, and start, if not nil, brings them back. It returns the two
// JSON objects the script printed.
func kazooReadOnly(t *testing.T, addrs []string, hold time.Duration, stop, start func()) (ro, back map[string]any) {
	t.Helper()
	need(t, "kazoo for "+python3, "python3-kazoo", func() error {
		return exec.Command(python3, "-c", "import kazoo").Run()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	mode := "back"
	if start == nil {
		mode = "gone"
	}
	cmd := procs.CommandContext(ctx, python3, "-c", kazooReadOnlyScript, strings.Join(addrs, ","),
		hold.String()[:len(hold.String())-1], mode)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait() //nolint:errcheck // the outcome is in what it printed
	lines := bufio.NewScanner(stdout)
	next := func(what string) string {
		if !lines.Scan() {
			cancel()
			io.Copy(io.Discard, stdout) //nolint:errcheck // draining a dead pipe
			cmd.Wait()                  //nolint:errcheck
			t.Fatalf("kazoo script ended before %s; its stderr:\n%s", what, stderr.String())
		}
		return lines.Text()
	}
	if l := next("ready"); l != "ready" {
		t.Fatalf("kazoo script: %q, want ready; stderr:\n%s", l, stderr.String())
	}
	stop()
	io.WriteString(in, "stopped\n") //nolint:errcheck // a dead script fails next
	if err := json.Unmarshal([]byte(next("its read-only report")), &ro); err != nil {
		t.Fatal(err)
	}
	if start != nil {
		start()
	}
	io.WriteString(in, "back\n") //nolint:errcheck
	if err := json.Unmarshal([]byte(next("its read-write report")), &back); err != nil {
		t.Fatal(err)
	}
	in.Close()
	return ro, back
}

// wantKazooReadOnly is what kazoo's TestReadOnlyMode asserts, and that the
// client stayed read-only throughout the hold (pings answered).
var wantKazooReadOnly = map[string]any{
	"connected_ro":     true,
	"state":            "CONNECTED_RO",
	"children":         []any{},
	"create":           "NotReadOnlyCallError",
	"state_after_hold": "CONNECTED_RO",
	"states_while_ro":  []any{},
}

// TestKazooReadOnlyMode runs kazoo 2.8's TestReadOnlyMode against three
// peers of ours with readonlymode.enabled: peers 2 and 3 stop; within 6 s
// the client is CONNECTED_RO, lists "/", gets NotReadOnlyCallError for a
// create and stays connected read-only (its pings answered); when the
// peers come back it is read-write again and its create succeeds.
func TestKazooReadOnlyMode(t *testing.T) {
	addrs, srvs, starts := startOursWith(t, 3, "readonlymode.enabled=true\n4lw.commands.whitelist=*\n")
	ro, back := kazooReadOnly(t, addrs, 15*time.Second,
		func() { srvs[1].Stop(); srvs[2].Stop() },
		func() { starts[1](); starts[2]() })
	if d := cmp.Diff(wantKazooReadOnly, ro); d != "" {
		t.Errorf("kazoo read-only saw (-kazoo's TestReadOnlyMode +ours):\n%s", d)
	}
	if want := map[string]any{"read_write_again": true, "create": "/fred"}; !cmp.Equal(want, back) {
		t.Errorf("kazoo after the peers came back: %v, want %v", back, want)
	}
}

// TestKazooReadOnlyModeAsZooKeeper runs the same against three peers of
// Apache ZooKeeper 3.8.0 with readonlymode.enabled, and pins down where we
// differ: ZooKeeper's read-only server refuses the reconnect of a session
// the ensemble knows ("Refusing global session reconnection in RO mode"),
// so kazoo, which comes back with its session, never gets CONNECTED_RO
// and its TestReadOnlyMode fails there. We keep the session instead.
func TestKazooReadOnlyModeAsZooKeeper(t *testing.T) {
	if testing.Short() {
		t.Skip("runs three JVMs and waits for kazoo's timeouts")
	}
	peers := startDebianEnsemble(t, "-Dreadonlymode.enabled=true", "-Dorg.slf4j.simpleLogger.defaultLogLevel=info")
	ro, _ := kazooReadOnly(t, []string{peers[0].Addr, peers[1].Addr, peers[2].Addr}, time.Second,
		func() { peers[1].Stop(); peers[2].Stop() }, nil)
	if ro["connected_ro"] != false || ro["state"] != "CONNECTING" {
		t.Errorf("kazoo against ZooKeeper: %v; want it never CONNECTED_RO, still CONNECTING", ro)
	}
	if log, _ := os.ReadFile(peers[0].Log); !strings.Contains(string(log), "Refusing global session reconnection in RO mode") {
		t.Errorf("ZooKeeper's log lacks the refusal of the global session:\n%s", peers[0].Tail(30))
	}
}

// startDebianEnsemble starts three Apache ZooKeeper peers with more JVM
// flags and stops them at cleanup; it skips where ZooKeeper cannot run.
func startDebianEnsemble(t *testing.T, flags ...string) []*realzk.Server {
	t.Helper()
	if _, err := realzk.ClassPath(); err != nil {
		t.Skip(err)
	}
	p, err := ports.Free(9)
	if err != nil {
		t.Fatal(err)
	}
	all, err := realzk.StartEnsembleWith(t.TempDir(), p, 3,
		realzk.Settings{JVMFlags: append(slices.Clip(realzk.JVMFlags), flags...)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, s := range all {
			s.Stop()
		}
	})
	return all
}

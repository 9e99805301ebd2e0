package interop

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// kazooScript runs three kazoo clients, one per server (argv[1..3]), and
// prints what they saw as one JSON object.
const kazooScript = `
import json, sys, threading
from kazoo.client import KazooClient
from kazoo.exceptions import BadVersionError, NodeExistsError, NoNodeError, NotEmptyError

def client(host):
    c = KazooClient(hosts=host, timeout=10)
    c.start(timeout=20)
    return c

def raises(f, *args, **kw):
    try:
        f(*args, **kw)
        return "no error"
    except Exception as e:
        return type(e).__name__

a, b, c = client(sys.argv[1]), client(sys.argv[2]), client(sys.argv[3])
out = {}
out["create"] = a.create("/kz", b"v0")
b.sync("/kz")
data, st = b.get("/kz")
out["get"] = [data.decode(), st.version, st.dataLength, st.numChildren, st.ephemeralOwner]

changed, child = threading.Event(), threading.Event()
events = []
def watch(ev):
    events.append([ev.type, ev.path])
    (changed if ev.type == "CHANGED" else child).set()
b.get("/kz", watch=watch)
b.get_children("/kz", watch=watch)
out["set"] = a.set("/kz", b"v1").version
out["data_watch_fired"] = changed.wait(10)
out["bad_version"] = raises(a.set, "/kz", b"x", version=0)
out["node_exists"] = raises(a.create, "/kz")

out["ephemeral"] = c.create("/kz/eph", b"e", ephemeral=True)
out["ephemeral_owner_is_session"] = c.exists("/kz/eph").ephemeralOwner == c.client_id[0]
out["child_watch_fired"] = child.wait(10)
out["events"] = sorted(events)
out["sequential"] = a.create("/kz/seq-", b"", sequence=True)
b.sync("/kz")
out["children"] = sorted(b.get_children("/kz"))
out["ephemeral_child"] = raises(c.create, "/kz/eph/x")

c.stop(); c.close()
a.sync("/kz")
out["children_after_close"] = sorted(a.get_children("/kz"))
out["not_empty"] = raises(a.delete, "/kz")
a.delete("/kz", recursive=True)
b.sync("/")
out["gone"] = b.exists("/kz") is None
out["no_node"] = raises(b.get, "/kz")
print(json.dumps(out))
a.stop(); b.stop()
`

// TestKazoo: the Python client kazoo, with one client on each peer:
// writes on one peer are seen on the others after a sync; data and child
// watches set on one peer fire for writes made through another;
// versions, ephemerals (and their owner, and their end with the session),
// sequential names and ZooKeeper's exceptions are as ZooKeeper's.
func TestKazoo(t *testing.T) {
	need(t, "kazoo for "+python3, "python3-kazoo", func() error {
		return exec.Command(python3, "-c", "import kazoo").Run()
	})
	addrs := startTarget(t)
	out, code := run(t, 60*time.Second, "", python3, append([]string{"-c", kazooScript}, addrs...)...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var got map[string]any
	if code != 0 || json.Unmarshal([]byte(lines[len(lines)-1]), &got) != nil {
		t.Fatalf("kazoo script: exit status %d; output:\n%s", code, out)
	}
	want := map[string]any{
		"create":                     "/kz",
		"get":                        []any{"v0", 0.0, 2.0, 0.0, 0.0},
		"set":                        1.0,
		"data_watch_fired":           true,
		"bad_version":                "BadVersionError",
		"node_exists":                "NodeExistsError",
		"ephemeral":                  "/kz/eph",
		"ephemeral_owner_is_session": true,
		"child_watch_fired":          true,
		"events":                     []any{[]any{"CHANGED", "/kz"}, []any{"CHILD", "/kz"}},
		"sequential":                 "/kz/seq-0000000001",
		"children":                   []any{"eph", "seq-0000000001"},
		"ephemeral_child":            "NoChildrenForEphemeralsError",
		"children_after_close":       []any{"seq-0000000001"},
		"not_empty":                  "NotEmptyError",
		"gone":                       true,
		"no_node":                    "NoNodeError",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("kazoo saw (-ZooKeeper's behaviour +ours):\n%s\noutput:\n%s", d, out)
	}
}

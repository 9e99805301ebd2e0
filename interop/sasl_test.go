package interop

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// kazooSASLScript logs in with DIGEST-MD5 as kazoo's test_sasl does
// (sasl_options, and the legacy auth_data ("sasl", "user:password")),
// asks whoAmI (kazoo has no call for it: a request class of our own),
// creates a node only sasl:jaasuser may touch, and tries a bad password.
const kazooSASLScript = `
import json, struct, sys, threading
from kazoo.client import KazooClient
from kazoo.security import make_acl
from kazoo.protocol.serialization import read_string

class WhoAmI(object):
    type = 107
    def serialize(self):
        return b""
    @classmethod
    def deserialize(cls, b, off):
        n = struct.unpack_from(">i", b, off)[0]; off += 4
        out = []
        for _ in range(n):
            s, off = read_string(b, off)
            u, off = read_string(b, off)
            out.append(s + ":" + u)
        return sorted(out)

def whoami(c):
    res = c.handler.async_result()
    c._call(WhoAmI(), res)
    return res.get(timeout=10)

def err(f, *a, **kw):
    try:
        f(*a, **kw)
        return "no error"
    except Exception as e:
        return type(e).__name__

host, out = sys.argv[1], {}
sasl = KazooClient(hosts=host, timeout=10, sasl_options={
    "mechanism": "DIGEST-MD5", "username": "jaasuser", "password": "jaas_password"})
sasl.start(timeout=20)
out["whoami"] = whoami(sasl)
acl = make_acl("sasl", credential="jaasuser", all=True)
sasl.create("/sasl", b"secret", acl=(acl,))
out["get_own"] = sasl.get("/sasl")[0].decode()
out["acl"] = [[a.id.scheme, a.id.id, a.perms] for a in sasl.get_acls("/sasl")[0]]
plain = KazooClient(hosts=host, timeout=10)
plain.start(timeout=20)
out["get_other"] = err(plain.get, "/sasl")
legacy = KazooClient(hosts=host, timeout=10, auth_data=[("sasl", "jaasuser:jaas_password")])
legacy.start(timeout=20)
out["legacy_whoami"] = whoami(legacy)
sasl.delete("/sasl")
bad = KazooClient(hosts=host, timeout=10, sasl_options={
    "mechanism": "DIGEST-MD5", "username": "jaasuser", "password": "wrong"})
# kazoo 2.8 reports CONNECTED before its SASL exchange and CLOSED right
# after AUTH_FAILED, so whether start() returns, times out, or the next call
# sees AuthFailedError or ConnectionClosedError is a race inside kazoo
# (against Apache ZooKeeper too). The states it passes through are not.
states, ended = [], threading.Event()
def record(state, callback=bad._session_callback):
    states.append(state)
    if state == "AUTH_FAILED" or (state == "CLOSED" and "CONNECTED" in states):
        ended.set()
    callback(state)
bad._session_callback = record
bad.start_async()
ended.wait(20)
out["bad_password"] = "AUTH_FAILED" if "AUTH_FAILED" in states else " ".join(states)
print(json.dumps(out))
for c in (sasl, plain, legacy):
    c.stop()
bad.stop()
`

// TestKazooSASL: kazoo 2.8 logs in with SASL DIGEST-MD5 (users from
// sasl.users) as against Apache ZooKeeper with a JAAS Server section
// holding user_jaasuser="jaas_password": the connection is sasl:jaasuser,
// a node with a sasl ACL is its alone, a wrong password ends in AUTH_FAILED.
// (The ACL lines need a Service that checks ACLs.)
func TestKazooSASL(t *testing.T) {
	need(t, "kazoo and puresasl for "+python3, "python3-kazoo python3-puresasl", func() error {
		return exec.Command(python3, "-c", "import kazoo, puresasl").Run()
	})
	addrs, _, _ := startOursWith(t, 1, "sasl.users=jaasuser:jaas_password,super:super_secret\n")
	addr := addrs[0]
	out, code := run(t, 90*time.Second, "", python3, "-c", kazooSASLScript, addr)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var got map[string]any
	if code != 0 || json.Unmarshal([]byte(lines[len(lines)-1]), &got) != nil {
		t.Fatalf("kazoo script: exit status %d; output:\n%s", code, out)
	}
	want := map[string]any{
		"whoami":        []any{"ip:127.0.0.1", "sasl:jaasuser"},
		"legacy_whoami": []any{"ip:127.0.0.1", "sasl:jaasuser"},
		"get_own":       "secret",
		"acl":           []any{[]any{"sasl", "jaasuser", 31.0}},
		"get_other":     "NoAuthError",
		"bad_password":  "AUTH_FAILED",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("kazoo saw (-ZooKeeper's behaviour +ours):\n%s\noutput:\n%s", d, out)
	}
}

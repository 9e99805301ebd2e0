package wire

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"
	"zablab/internal/procs"

	"github.com/google/go-cmp/cmp"

	mw "zablab/mwzookeeper"
)

// kazooScript drives Debian's python3-kazoo against the fake server and
// prints one JSON line per step. kazoo differs from go-zk where it matters
// here: it sends the readOnly byte, uses create2 for include_data, sends
// auth with xid -4, and reads a failed multi's results one by one.
const kazooScript = `
import json, sys, threading
from kazoo.client import KazooClient
from kazoo.exceptions import NoNodeError
def emit(**kw): print(json.dumps(kw), flush=True)
zk = KazooClient(hosts=sys.argv[1], timeout=10.0, auth_data=[("digest", "u:p")])
zk.start(timeout=10)
path, stat = zk.create("/k", b"v", ephemeral=True, sequence=True, include_data=True)
emit(step="create2", path=path, stat=list(stat))
data, stat = zk.get("/k")
emit(step="get", data=data.decode(), stat=list(stat))
try:
    zk.get("/missing")
    emit(step="get missing", err="none")
except NoNodeError:
    emit(step="get missing", err="NoNodeError")
fired, got = threading.Event(), []
def watch(ev):
    got.append([ev.type, ev.state, ev.path])
    fired.set()
emit(step="exists", stat=zk.exists("/w", watch=watch))
zk.create("/w", b"")
fired.wait(10)
emit(step="event", event=got)
t = zk.transaction()
t.create("/t/a", b"x")
t.set_data("/t", b"y")
t.delete("/t/b")
emit(step="multi failed", results=[type(r).__name__ for r in t.commit()])
zk.stop()
zk.close()
`

func TestKazoo(t *testing.T) {
	if err := exec.Command("/usr/bin/python3", "-c", "import kazoo").Run(); err != nil {
		t.Skipf("kazoo is not installed (/usr/bin/python3 with python3-kazoo): %v", err)
	}
	s := startFakeServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*exchangeMax)
	defer cancel()
	cmd := procs.CommandContext(ctx, "/usr/bin/python3", "-c", kazooScript, s.addr)
	cmd.WaitDelay = time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for i, ex := range kazooExchanges() {
		s.steps <- ex
		select {
		case err := <-s.results:
			if err != nil {
				cancel()
				cmd.Wait()
				t.Fatalf("kazoo request %d: %v; kazoo said:\n%s%s", i, err, stdout.String(), stderr.String())
			}
		case <-ctx.Done():
			cmd.Wait()
			t.Fatalf("kazoo request %d never came; kazoo said:\n%s%s", i, stdout.String(), stderr.String())
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("kazoo: %v\n%s", err, stderr.String())
	}
	if cr := <-s.connects; !cr.HasReadOnly || cr.Timeout != 10000 || len(cr.Password) != 16 {
		t.Errorf("kazoo's connect request = %+v, want the readOnly byte, timeout 10000, a 16-byte password", cr)
	}
	checkKazooOutput(t, stdout.String())
}

func kazooExchanges() []exchange {
	authOK := func(r *mw.Request, body []byte) error {
		typ, scheme, auth, err := DecodeAuth(body[requestHeaderLen:])
		if r.Op != mw.OpAuth || r.Xid != XidAuth || err != nil || typ != 0 || scheme != "digest" || string(auth) != "u:p" {
			return fmt.Errorf("got %v xid %d, auth %d %q %q, err %v; want auth xid -4, 0 digest u:p",
				r.Op, r.Xid, typ, scheme, auth, err)
		}
		return nil
	}
	return []exchange{
		{check: authOK, resp: mw.Response{Zxid: fakeZxid}},
		{want: &mw.Request{Op: mw.OpCreate2, Path: "/k", Data: []byte("v"), Mode: mw.EphemeralSequential},
			resp: mw.Response{Zxid: fakeZxid, Path: "/k0000000001", Stat: testStat}},
		{want: &mw.Request{Op: mw.OpGetData, Path: "/k"}, resp: mw.Response{Zxid: fakeZxid, Data: []byte("v"), Stat: testStat}},
		{want: &mw.Request{Op: mw.OpGetData, Path: "/missing"}, resp: mw.Response{Zxid: fakeZxid, Err: mw.ErrNoNode}},
		{want: &mw.Request{Op: mw.OpExists, Path: "/w", Watch: true}, resp: mw.Response{Zxid: fakeZxid, Err: mw.ErrNoNode}},
		{want: &mw.Request{Op: mw.OpCreate, Path: "/w", Data: []byte{}, Mode: mw.Persistent},
			events: []mw.WatchEvent{{Type: mw.EventNodeCreated, Path: "/w", Zxid: fakeZxid}},
			resp:   mw.Response{Zxid: fakeZxid, Path: "/w"}},
		{want: &mw.Request{Op: mw.OpMulti, Ops: []mw.Op{
			{Op: mw.OpCreate, Path: "/t/a", Data: []byte("x"), Mode: mw.Persistent},
			{Op: mw.OpSetData, Path: "/t", Data: []byte("y"), Version: -1},
			{Op: mw.OpDelete, Path: "/t/b", Version: -1}}},
			resp: mw.Response{Zxid: fakeZxid, Err: mw.ErrNoNode, Results: []mw.OpResult{
				{Op: mw.OpCreate}, {Op: mw.OpSetData, Err: mw.ErrNoNode}, {Op: mw.OpDelete, Err: mw.ErrRuntimeInconsistency}}}},
		{want: &mw.Request{Op: mw.OpCloseSession}, resp: mw.Response{Zxid: fakeZxid}},
	}
}

func checkKazooOutput(t *testing.T, out string) {
	t.Helper()
	st := testStat
	stat := []any{float64(st.Czxid), float64(st.Mzxid), float64(st.Ctime), float64(st.Mtime), float64(st.Version),
		float64(st.Cversion), float64(st.Aversion), float64(st.EphemeralOwner), float64(st.DataLength),
		float64(st.NumChildren), float64(st.Pzxid)}
	want := []map[string]any{
		{"step": "create2", "path": "/k0000000001", "stat": stat},
		{"step": "get", "data": "v", "stat": stat},
		{"step": "get missing", "err": "NoNodeError"},
		{"step": "exists", "stat": nil},
		{"step": "event", "event": []any{[]any{"CREATED", "CONNECTED", "/w"}}},
		{"step": "multi failed", "results": []any{"RolledBackError", "NoNodeError", "RuntimeInconsistency"}},
	}
	var got []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("kazoo printed %q: %v", sc.Text(), err)
		}
		got = append(got, m)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("what kazoo read differs (-want +got):\n%s", d)
	}
}

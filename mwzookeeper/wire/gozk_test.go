package wire

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/google/go-cmp/cmp"

	mw "zablab/mwzookeeper"
)

// These tests put a real go-zookeeper/zk client in front of a fakeServer:
// what the client sends must decode to the expected Request, and what we
// encode must come out of the client as the expected values and errors.

type quietLogger struct{}

func (quietLogger) Printf(string, ...any) {}

var acl = zk.WorldACL(zk.PermAll)

// connectGoZK connects a client, checks its handshake, and closes the
// session at the end of the test (checking the closeSession request).
func connectGoZK(t *testing.T, s *fakeServer) *zk.Conn {
	t.Helper()
	conn, events, err := zk.Connect([]string{s.addr}, 10*time.Second, zk.WithLogger(quietLogger{}))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.After(exchangeMax)
	for hasSession := false; !hasSession; {
		select {
		case ev := <-events:
			hasSession = ev.State == zk.StateHasSession
		case <-deadline:
			conn.Close()
			t.Fatal("go-zk did not get a session from the fake server")
		}
	}
	cr := <-s.connects
	want := ConnectRequest{Timeout: 10000, Password: make([]byte, 16)} // go-zk sends no readOnly byte
	if d := cmp.Diff(want, cr); d != "" {
		t.Errorf("connect request differs (-want +got):\n%s", d)
	}
	if conn.SessionID() != fakeSession {
		t.Errorf("client's session id = %#x, want %#x", conn.SessionID(), fakeSession)
	}
	t.Cleanup(func() {
		s.do(t, "Close", exchange{want: &mw.Request{Op: mw.OpCloseSession}}, conn.Close)
	})
	return conn
}

// zkStat is testStat as go-zk reports it.
func zkStat(s mw.MWStat) *zk.Stat {
	return &zk.Stat{Czxid: s.Czxid, Mzxid: s.Mzxid, Pzxid: s.Pzxid, Ctime: s.Ctime, Mtime: s.Mtime,
		Version: s.Version, Cversion: s.Cversion, Aversion: s.Aversion, EphemeralOwner: s.EphemeralOwner,
		DataLength: s.DataLength, NumChildren: s.NumChildren}
}

// expect fails the test with what when got differs from want.
func expect(t *testing.T, what string, got, want any) {
	t.Helper()
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("%s (-want +got):\n%s", what, d)
	}
}

// expectErr fails the test when err is not want.
func expectErr(t *testing.T, what string, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Errorf("%s: err %v, want %v", what, err, want)
	}
}

func TestGoZKCreate(t *testing.T) {
	s := startFakeServer(t)
	c := connectGoZK(t, s)
	for _, m := range []struct {
		flags int32
		mode  mw.CreateMode
		name  string
	}{{zk.FlagPersistent, mw.Persistent, "/p"}, {zk.FlagEphemeral, mw.Ephemeral, "/e"},
		{zk.FlagSequence, mw.PersistentSequential, "/s0000000001"},
		{zk.FlagEphemeralSequential, mw.EphemeralSequential, "/es0000000002"}} {
		var got string
		var err error
		s.do(t, fmt.Sprintf("Create mode %d", m.flags), exchange{
			want: &mw.Request{Op: mw.OpCreate, Path: "/x", Data: []byte("d"), Mode: m.mode},
			resp: mw.Response{Zxid: fakeZxid, Path: m.name},
		}, func() { got, err = c.Create("/x", []byte("d"), m.flags, acl) })
		if err != nil || got != m.name {
			t.Errorf("Create mode %d = %q, %v; want %q", m.flags, got, err, m.name)
		}
	}
	var err error
	s.do(t, "Create existing", exchange{
		want: &mw.Request{Op: mw.OpCreate, Path: "/p", Mode: mw.Persistent},
		resp: mw.Response{Zxid: fakeZxid, Err: mw.ErrNodeExists},
	}, func() { _, err = c.Create("/p", nil, 0, acl) })
	expectErr(t, "Create existing", err, zk.ErrNodeExists)

	var got string
	s.do(t, "CreateProtectedEphemeralSequential", exchange{
		check: func(r *mw.Request, _ []byte) error {
			if r.Op != mw.OpCreate || r.Mode != mw.EphemeralSequential ||
				!strings.HasPrefix(r.Path, "/locks/_c_") || !strings.HasSuffix(r.Path, "-lock-") {
				return fmt.Errorf("got %+v, want an ephemeral sequential create of /locks/_c_<guid>-lock-", r)
			}
			return nil
		},
		resp: mw.Response{Zxid: fakeZxid, Path: "/locks/_c_x-lock-0000000007"},
	}, func() { got, err = c.CreateProtectedEphemeralSequential("/locks/lock-", []byte("me"), acl) })
	expect(t, "CreateProtectedEphemeralSequential", got, "/locks/_c_x-lock-0000000007")

	// createContainer is answered with a Create2Response, path first.
	s.do(t, "CreateContainer", exchange{
		want: &mw.Request{Op: mw.OpCreateContainer, Path: "/ct", Data: []byte("d"), Mode: mw.Container},
		resp: mw.Response{Zxid: fakeZxid, Path: "/ct", Stat: testStat},
	}, func() { got, err = c.CreateContainer("/ct", []byte("d"), zk.FlagContainer, acl) })
	if err != nil || got != "/ct" {
		t.Errorf("CreateContainer = %q, %v; want /ct", got, err)
	}
	s.do(t, "CreateTTL", exchange{
		want: &mw.Request{Op: mw.OpCreateTTL, Path: "/t", Data: []byte("d"), Mode: mw.PersistentTTL, TTL: 60000},
		resp: mw.Response{Zxid: fakeZxid, Err: mw.ErrUnimplemented},
	}, func() { _, err = c.CreateTTL("/t", []byte("d"), zk.FlagTTL, acl, time.Minute) })
	if err == nil || !strings.Contains(err.Error(), "-6") {
		t.Errorf("CreateTTL: err %v, want unknown error -6 (Unimplemented)", err)
	}
}

func TestGoZKReadsAndWrites(t *testing.T) {
	s := startFakeServer(t)
	c := connectGoZK(t, s)
	var err error
	s.do(t, "Delete", exchange{want: &mw.Request{Op: mw.OpDelete, Path: "/a", Version: 3},
		resp: mw.Response{Zxid: fakeZxid}}, func() { err = c.Delete("/a", 3) })
	expectErr(t, "Delete", err, nil)
	s.do(t, "Delete not empty", exchange{want: &mw.Request{Op: mw.OpDelete, Path: "/a", Version: -1},
		resp: mw.Response{Zxid: fakeZxid, Err: mw.ErrNotEmpty}}, func() { err = c.Delete("/a", -1) })
	expectErr(t, "Delete not empty", err, zk.ErrNotEmpty)

	var ok bool
	var st *zk.Stat
	s.do(t, "Exists", exchange{want: &mw.Request{Op: mw.OpExists, Path: "/a"},
		resp: mw.Response{Zxid: fakeZxid, Stat: testStat}}, func() { ok, st, err = c.Exists("/a") })
	if !ok || err != nil {
		t.Errorf("Exists = %v, %v; want true, nil", ok, err)
	}
	expect(t, "Exists stat", st, zkStat(testStat))
	s.do(t, "Exists missing", exchange{want: &mw.Request{Op: mw.OpExists, Path: "/m"},
		resp: mw.Response{Zxid: fakeZxid, Err: mw.ErrNoNode}}, func() { ok, _, err = c.Exists("/m") })
	if ok || err != nil {
		t.Errorf("Exists missing = %v, %v; want false, nil", ok, err)
	}

	var data []byte
	s.do(t, "Get", exchange{want: &mw.Request{Op: mw.OpGetData, Path: "/a"},
		resp: mw.Response{Zxid: fakeZxid, Data: []byte("hello"), Stat: testStat}}, func() { data, st, err = c.Get("/a") })
	if string(data) != "hello" || err != nil {
		t.Errorf("Get = %q, %v; want hello", data, err)
	}
	expect(t, "Get stat", st, zkStat(testStat))
	s.do(t, "Get missing", exchange{want: &mw.Request{Op: mw.OpGetData, Path: "/m"},
		resp: mw.Response{Zxid: fakeZxid, Err: mw.ErrNoNode}}, func() { _, _, err = c.Get("/m") })
	expectErr(t, "Get missing", err, zk.ErrNoNode)

	big := kb(1)
	s.do(t, "Set", exchange{want: &mw.Request{Op: mw.OpSetData, Path: "/a", Data: big, Version: 2},
		resp: mw.Response{Zxid: fakeZxid, Stat: testStat}}, func() { st, err = c.Set("/a", big, 2) })
	expectErr(t, "Set", err, nil)
	expect(t, "Set stat", st, zkStat(testStat))
	s.do(t, "Set bad version", exchange{want: &mw.Request{Op: mw.OpSetData, Path: "/a", Data: []byte{}, Version: 1},
		resp: mw.Response{Zxid: fakeZxid, Err: mw.ErrBadVersion}}, func() { _, err = c.Set("/a", []byte{}, 1) })
	expectErr(t, "Set bad version", err, zk.ErrBadVersion)

	var children []string
	s.do(t, "Children", exchange{want: &mw.Request{Op: mw.OpGetChildren2, Path: "/"},
		resp: mw.Response{Zxid: fakeZxid, Children: []string{"a", "b"}, Stat: testStat}},
		func() { children, st, err = c.Children("/") })
	expect(t, "Children", children, []string{"a", "b"})
	expect(t, "Children stat", st, zkStat(testStat))

	var path string
	s.do(t, "Sync", exchange{want: &mw.Request{Op: mw.OpSync, Path: "/a"},
		resp: mw.Response{Zxid: fakeZxid, Path: "/a"}}, func() { path, err = c.Sync("/a") })
	if path != "/a" || err != nil {
		t.Errorf("Sync = %q, %v; want /a", path, err)
	}
}

// waitEvent returns the event on ch or fails the test.
func waitEvent(t *testing.T, what string, ch <-chan zk.Event) zk.Event {
	t.Helper()
	select {
	case ev := <-ch:
		return ev
	case <-time.After(exchangeMax):
		t.Fatalf("%s: no watch event", what)
		return zk.Event{}
	}
}

func TestGoZKWatches(t *testing.T) {
	s := startFakeServer(t)
	c := connectGoZK(t, s)
	var ch <-chan zk.Event
	var ok bool
	var err error
	s.do(t, "ExistsW", exchange{want: &mw.Request{Op: mw.OpExists, Path: "/w", Watch: true},
		resp: mw.Response{Zxid: fakeZxid, Err: mw.ErrNoNode}}, func() { ok, _, ch, err = c.ExistsW("/w") })
	if ok || err != nil || ch == nil {
		t.Fatalf("ExistsW = %v, %v; want false, nil and a watch", ok, err)
	}
	// The event comes before the reply of the write that fired it.
	s.do(t, "Create firing NodeCreated", exchange{want: &mw.Request{Op: mw.OpCreate, Path: "/w", Mode: mw.Persistent},
		events: []mw.WatchEvent{{Type: mw.EventNodeCreated, Path: "/w", Zxid: fakeZxid}},
		resp:   mw.Response{Zxid: fakeZxid, Path: "/w"}}, func() { _, err = c.Create("/w", nil, 0, acl) })
	expect(t, "ExistsW event", waitEvent(t, "ExistsW", ch),
		zk.Event{Type: zk.EventNodeCreated, State: zk.StateSyncConnected, Path: "/w"})

	s.do(t, "GetW", exchange{want: &mw.Request{Op: mw.OpGetData, Path: "/w", Watch: true},
		resp: mw.Response{Zxid: fakeZxid, Data: []byte{}, Stat: testStat}}, func() { _, _, ch, err = c.GetW("/w") })
	expectErr(t, "GetW", err, nil)
	s.do(t, "Set firing NodeDataChanged", exchange{want: &mw.Request{Op: mw.OpSetData, Path: "/w", Data: []byte("v"), Version: -1},
		events: []mw.WatchEvent{{Type: mw.EventNodeDataChanged, Path: "/w", Zxid: fakeZxid}},
		resp:   mw.Response{Zxid: fakeZxid, Stat: testStat}}, func() { _, err = c.Set("/w", []byte("v"), -1) })
	expect(t, "GetW event", waitEvent(t, "GetW", ch),
		zk.Event{Type: zk.EventNodeDataChanged, State: zk.StateSyncConnected, Path: "/w"})

	s.do(t, "ChildrenW", exchange{want: &mw.Request{Op: mw.OpGetChildren2, Path: "/", Watch: true},
		resp: mw.Response{Zxid: fakeZxid, Stat: testStat}}, func() { _, _, ch, err = c.ChildrenW("/") })
	expectErr(t, "ChildrenW", err, nil)
	s.do(t, "Delete firing NodeChildrenChanged", exchange{want: &mw.Request{Op: mw.OpDelete, Path: "/w", Version: -1},
		events: []mw.WatchEvent{{Type: mw.EventNodeChildrenChanged, Path: "/", Zxid: fakeZxid}},
		resp:   mw.Response{Zxid: fakeZxid}}, func() { err = c.Delete("/w", -1) })
	expect(t, "ChildrenW event", waitEvent(t, "ChildrenW", ch),
		zk.Event{Type: zk.EventNodeChildrenChanged, State: zk.StateSyncConnected, Path: "/"})
}

func TestGoZKMulti(t *testing.T) {
	s := startFakeServer(t)
	c := connectGoZK(t, s)
	ops := []any{
		&zk.CreateRequest{Path: "/m/a", Data: []byte("x"), Acl: acl, Flags: zk.FlagEphemeral},
		&zk.SetDataRequest{Path: "/m", Data: []byte("y"), Version: 4},
		&zk.DeleteRequest{Path: "/m/b", Version: -1},
		&zk.CheckVersionRequest{Path: "/m", Version: 5},
	}
	wantOps := []mw.Op{
		{Op: mw.OpCreate, Path: "/m/a", Data: []byte("x"), Mode: mw.Ephemeral},
		{Op: mw.OpSetData, Path: "/m", Data: []byte("y"), Version: 4},
		{Op: mw.OpDelete, Path: "/m/b", Version: -1},
		{Op: mw.OpCheck, Path: "/m", Version: 5},
	}
	var res []zk.MultiResponse
	var err error
	s.do(t, "Multi", exchange{want: &mw.Request{Op: mw.OpMulti, Ops: wantOps},
		resp: mw.Response{Zxid: fakeZxid, Results: []mw.OpResult{{Op: mw.OpCreate, Path: "/m/a"},
			{Op: mw.OpSetData, Stat: testStat}, {Op: mw.OpDelete}, {Op: mw.OpCheck}}}},
		func() { res, err = c.Multi(ops...) })
	expectErr(t, "Multi", err, nil)
	expect(t, "Multi results", res, []zk.MultiResponse{{String: "/m/a"}, {Stat: zkStat(testStat)}, {}, {}})

	s.do(t, "Multi failing", exchange{want: &mw.Request{Op: mw.OpMulti, Ops: wantOps},
		resp: mw.Response{Zxid: fakeZxid, Err: mw.ErrNoNode, Results: []mw.OpResult{{Op: mw.OpCreate},
			{Op: mw.OpSetData, Err: mw.ErrNoNode}, {Op: mw.OpDelete, Err: mw.ErrRuntimeInconsistency},
			{Op: mw.OpCheck, Err: mw.ErrRuntimeInconsistency}}}},
		func() { res, err = c.Multi(ops...) })
	expectErr(t, "Multi failing", err, zk.ErrNoNode)
	if len(res) != 4 || res[0].Error != nil || !errors.Is(res[1].Error, zk.ErrNoNode) ||
		res[2].Error == nil || res[3].Error == nil {
		t.Errorf("Multi failing results = %+v; want nil, ErrNoNode, then errors", res)
	}
}

func TestGoZKAuthAndUnknownOp(t *testing.T) {
	s := startFakeServer(t)
	c := connectGoZK(t, s)
	var err error
	var acls []zk.ACL
	var st *zk.Stat
	s.do(t, "GetACL", exchange{want: &mw.Request{Op: mw.OpGetACL, Path: "/a"},
		resp: mw.Response{Zxid: fakeZxid, Stat: testStat}}, func() { acls, st, err = c.GetACL("/a") })
	expectErr(t, "GetACL", err, nil)
	expect(t, "GetACL acl", acls, zk.WorldACL(zk.PermAll))
	expect(t, "GetACL stat", st, zkStat(testStat))
	s.do(t, "Create with an empty ACL", exchange{wantErr: ErrEmptyACL}, func() { _, err = c.Create("/e", nil, 0, nil) })
	expectErr(t, "Create with an empty ACL", err, zk.ErrInvalidACL)
	digest := zk.DigestACL(zk.PermRead|zk.PermAdmin, "u", "p")
	s.do(t, "SetACL", exchange{want: &mw.Request{Op: mw.OpSetACL, Path: "/a", Version: 4, ACL: []mw.ACL{
		{Perms: mw.PermRead | mw.PermAdmin, ID: mw.ID{Scheme: "digest", ID: digest[0].ID}}}},
		resp: mw.Response{Zxid: fakeZxid, Stat: testStat}}, func() { st, err = c.SetACL("/a", digest, 4) })
	expectErr(t, "SetACL", err, nil)
	expect(t, "SetACL stat", st, zkStat(testStat))
	s.do(t, "GetACL of a digest", exchange{want: &mw.Request{Op: mw.OpGetACL, Path: "/a"},
		resp: mw.Response{Zxid: fakeZxid, Stat: testStat, ACL: []mw.ACL{{Perms: mw.PermRead, ID: mw.ID{Scheme: "digest", ID: "u:x"}}}}},
		func() { acls, _, err = c.GetACL("/a") })
	expect(t, "GetACL of a digest", acls, []zk.ACL{{Perms: zk.PermRead, Scheme: "digest", ID: "u:x"}})
	s.do(t, "AddAuth", exchange{
		check: func(r *mw.Request, body []byte) error {
			typ, scheme, auth, err := DecodeAuth(body[requestHeaderLen:])
			if r.Op != mw.OpAuth || err != nil || typ != 0 || scheme != "digest" || !bytes.Equal(auth, []byte("u:p")) {
				return fmt.Errorf("got op %v, auth %d %q %q, err %v; want auth 0 digest u:p", r.Op, typ, scheme, auth, err)
			}
			return nil
		},
		resp: mw.Response{Zxid: fakeZxid},
	}, func() { err = c.AddAuth("digest", []byte("u:p")) })
	expectErr(t, "AddAuth", err, nil)
}

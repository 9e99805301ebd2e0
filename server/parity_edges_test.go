package server

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"zablab/internal/realzk"
	"zablab/internal/wait"
	"zablab/solutions/aufgabe5"
)

// Edges where a review's differential test (difffuzz_test.go) found ours
// apart from ZooKeeper 3.8, each as a script run against both: the order
// of a write's checks, the frame limit, watch events for sessions that
// may not read the node, a multi's create flags, the root's stat.

// checkOrderScript sends, through go-zk's request queue (no client-side
// path check), writes whose answer depends on the order of ZooKeeper's
// checks: a delete looks up the parent and checks its DELETE permission
// before it looks for the node, and never validates the path beyond
// "has a '/', no NUL, not a system node"; a create validates the full
// path only after the ACL, the parent and the parent's CREATE permission
// (PrepRequestProcessor.pRequest2TxnCreate: validateCreateRequest,
// validatePathForCreate, fixupACL, getRecordForPath(parent), checkACL,
// validatePath, NodeExists, NoChildrenForEphemerals). Java validates a
// path's UTF-16 chars, so a character outside the BMP (a surrogate
// pair, in U+D800..U+F8FF) is refused.
func checkOrderScript(t *testing.T, addr string) []string {
	c := zkClient(t, 5*time.Second, addr)
	s := &scripter{t: t}
	open := zk.WorldACL(zk.PermAll)
	for _, n := range []struct {
		path string
		acl  []zk.ACL
	}{{"/co", open}, {"/co/nd", zk.WorldACL(zk.PermAll &^ zk.PermDelete)}, {"/co/nc", zk.WorldACL(zk.PermAll &^ zk.PermCreate)}} {
		_, err := c.Create(n.path, nil, 0, n.acl)
		s.note("create "+n.path, err)
	}
	del := func(p string) {
		_, err := fzRequest(c, fzOpDelete, &fzDelete{p, -1}, &fzEmpty{}, nil)
		s.note(fmt.Sprintf("delete %q", p), err)
	}
	create := func(p string, acl []zk.ACL) {
		var res fzPath
		_, err := fzRequest(c, fzOpCreate, &fzCreate{p, nil, acl, 0}, &res, nil)
		s.note(fmt.Sprintf("create %q %s", p, fzACLText(acl)), err, res.Path)
	}
	// ZooKeeper: NoAuth (the parent's DELETE is checked first)
	del("/co/nd/missing")
	_, err := c.Multi(&zk.DeleteRequest{Path: "/co/nd/missing", Version: -1})
	s.note("multi delete /co/nd/missing", err)
	// ZooKeeper: NoNode (no such node "/co/")
	del("/co/")
	// ZooKeeper: NoNode (parent "/co/" is missing)
	del("/co//x")
	// ZooKeeper: NoNode
	del("/co/.")
	// ZooKeeper: BadArguments (a system node)
	del("/zookeeper/quota")
	// ZooKeeper: NoNode (parent /nope/x)
	create("/nope/x/", open)
	// ZooKeeper: NoNode (parent /co/nc/x)
	create("/co/nc/x/", open)
	// ZooKeeper: NoAuth (CREATE on /co/nc)
	create("/co/nc/.", open)
	// ZooKeeper: InvalidACL
	create("/co/x/", []zk.ACL{{Perms: zk.PermAll, Scheme: "world", ID: "nobody"}})
	// ZooKeeper: BadArguments (surrogates)
	create("/co/\U0001F600", open)
	// go-zk's own Create lets it through
	_, err = c.Create("/co/\U0001F642", nil, 0, open)
	s.note("go-zk Create /co/U+1F642", err)
	return s.out
}

// TestCheckOrderAsZooKeeper: a write's error when several checks fail
// (or a path ZooKeeper refuses and we take) is ZooKeeper 3.8's.
func TestCheckOrderAsZooKeeper(t *testing.T) {
	if _, err := realzk.ClassPath(); err != nil {
		t.Skip(err)
	}
	want := checkOrderScript(t, realzk.StartT(t))
	got := checkOrderScript(t, startA5(t, "").Addr().String())
	againstZooKeeper(t, want, got, fzAlike)
}

// frameLimitScript sets data of sizes around ZooKeeper's jute.maxbuffer
// (1048575 bytes, the limit of a whole request frame: a larger frame makes
// ZooKeeper close the connection, NIOServerCnxn.readLength) and notes
// what the client saw and whether the node took the data.
func frameLimitScript(t *testing.T, addr string) []string {
	c := zkClient(t, 5*time.Second, addr)
	s := &scripter{t: t}
	const p = "/big"
	_, err := c.Create(p, nil, 0, zk.WorldACL(zk.PermAll))
	s.note("create "+p, err)
	// setData's frame: xid, type, path (4+len), data (4+n), version = 20+len(path)+n.
	fits := 1048575 - 20 - len(p)
	for _, n := range []int{fits, fits + 1, 1 << 20, 1<<20 + 1} {
		_, err := c.Set(p, make([]byte, n), -1)
		s.note(fmt.Sprintf("set %d bytes (frame %d)", n, 20+len(p)+n), dropped(err))
		// The session's state may still read "has session" just after the
		// drop, and go-zk fails a request queued then with ErrNoServer while
		// it reconnects: ask again until the answer is not about the link.
		var st *zk.Stat
		wait.For(t, "the session back", 10*time.Second, func() bool {
			_, st, err = c.Exists(p)
			return !errors.Is(err, zk.ErrNoServer) && dropped(err) != errDropped
		})
		s.note("  then dataLength", err, st.DataLength)
	}
	return s.out
}

// errDropped stands for the server closing the connection: whether the
// client notices it as a closed connection or as a failed write of the
// rest of the large frame (broken pipe, reset) is a race on either server.
var errDropped = errors.New("the server dropped the connection")

func dropped(err error) error {
	var op *net.OpError
	if errors.Is(err, zk.ErrConnectionClosed) || errors.As(err, &op) {
		return errDropped
	}
	return err
}

// TestFrameLimitAsZooKeeper: a request frame over jute.maxbuffer is
// refused as ZooKeeper 3.8 refuses it, and one within it is taken.
func TestFrameLimitAsZooKeeper(t *testing.T) {
	if _, err := realzk.ClassPath(); err != nil {
		t.Skip(err)
	}
	want := frameLimitScript(t, realzk.StartT(t))
	got := frameLimitScript(t, startA5(t, "").Addr().String())
	againstZooKeeper(t, want, got, nil)
}

// fzWatcher is a go-zk session whose watch events are noted in order.
type fzWatcher struct {
	conn *zk.Conn
	mu   sync.Mutex
	evs  []string
}

func newFzWatcher(t *testing.T, addr string) *fzWatcher {
	w := &fzWatcher{}
	conn, _, err := zk.Connect([]string{addr}, 5*time.Second, zk.WithLogger(nopLog{}), zk.WithLogInfo(false),
		zk.WithEventCallback(func(e zk.Event) {
			if e.Type == zk.EventSession {
				return
			}
			w.mu.Lock()
			defer w.mu.Unlock()
			w.evs = append(w.evs, fmt.Sprintf("%s %s", e.Type, e.Path))
		}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conn.Close)
	wait.For(t, "a session", 10*time.Second, func() bool { return conn.State() == zk.StateHasSession })
	w.conn = conn
	return w
}

// events reads once (an event comes before the reply to a later read)
// and returns the events seen since the last call.
func (w *fzWatcher) events() string {
	if _, _, err := w.conn.Exists("/"); err != nil {
		return "read: " + err.Error()
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	evs := w.evs
	w.evs = nil
	return "[" + strings.Join(evs, ", ") + "]"
}

// watchACLScript: alice writes nodes only she may read below /sec, which
// anyone may read; an anonymous session watches /sec recursively
// (addWatch), /sec/p by exists, and /sec's children. ZooKeeper 3.8 as
// Debian ships it (3.8.0-11+deb12u2, with the fix of CVE-2024-23944, as
// upstream 3.8.4 and 3.9.2) delivers an event only to a session that may
// READ the node the event is about (ServerCnxn.process(event, znodeAcl)
// checks the ACL DataTree passes to triggerWatch: the node's for
// NodeCreated, NodeDataChanged and NodeDeleted, the parent's for
// NodeChildrenChanged).
func watchACLScript(t *testing.T, addr string) []string {
	s := &scripter{t: t}
	alice := newFzWatcher(t, addr)
	if err := alice.conn.AddAuth("digest", []byte("alice:secret")); err != nil {
		t.Fatal(err)
	}
	anon := newFzWatcher(t, addr)
	mine := zk.DigestACL(zk.PermAll, "alice", "secret")
	_, err := alice.conn.Create("/sec", nil, 0, zk.WorldACL(zk.PermAll))
	s.note("create /sec", err)
	_, err = fzRequest(anon.conn, fzOpAddWatch, &fzPathMode{"/sec", 1}, &fzEmpty{}, nil)
	s.note("anon addWatch /sec recursive", err)
	_, _, _, err = anon.conn.ExistsW("/sec/p")
	s.note("anon exists watch /sec/p", err)
	_, _, _, err = anon.conn.ChildrenW("/sec")
	s.note("anon children watch /sec", err)
	_, err = alice.conn.Create("/sec/p", []byte("secret"), 0, mine)
	s.note("alice create /sec/p, alice only", err)
	s.note("  anon saw", nil, anon.events())
	_, err = alice.conn.Create("/sec/p/q", nil, 0, zk.WorldACL(zk.PermAll))
	s.note("alice create /sec/p/q, open", err)
	s.note("  anon saw", nil, anon.events())
	_, err = alice.conn.Set("/sec/p", []byte("x"), -1)
	s.note("alice set /sec/p", err)
	s.note("  anon saw", nil, anon.events())
	_, err = alice.conn.Set("/sec/p/q", []byte("x"), -1)
	s.note("alice set /sec/p/q", err)
	s.note("  anon saw", nil, anon.events())
	s.note("alice delete /sec/p/q", alice.conn.Delete("/sec/p/q", -1))
	s.note("  anon saw", nil, anon.events())
	s.note("alice delete /sec/p", alice.conn.Delete("/sec/p", -1))
	s.note("  anon saw", nil, anon.events())
	return s.out
}

// TestWatchEventsNeedReadAsZooKeeper: a watch event reaches only a
// session that may read the node, as in ZooKeeper 3.8 with the fix of
// CVE-2024-23944 (a recursive watch must not reveal the paths of nodes
// its session cannot read).
func TestWatchEventsNeedReadAsZooKeeper(t *testing.T) {
	if _, err := realzk.ClassPath(); err != nil {
		t.Skip(err)
	}
	want := watchACLScript(t, realzk.StartT(t))
	got := watchACLScript(t, startA5(t, "").Addr().String())
	againstZooKeeper(t, want, got, nil)
}

// rootSeqScript creates sequential nodes at the root and below a fresh
// node, and shows how the stat of "/" changes. Known differences, not
// shown: in ZooKeeper "/" and "/zookeeper" hold empty data, not null, and
// "/" reports a cversion one below the count of its child creations (-1
// at first), while the sequential suffixes count from 0 as ours.
func rootSeqScript(t *testing.T, addr string) []string {
	s := &scripter{t: t}
	c := zkClient(t, 5*time.Second, addr)
	open := zk.WorldACL(zk.PermAll)
	_, first, err := c.Get("/")
	s.note("get /", err)
	statOf := func(p string) {
		_, st, err := c.Get(p)
		s.note("get "+p, err, fmt.Sprintf("cv+%d kids=%d v=%d", st.Cversion-first.Cversion, st.NumChildren, st.Version))
	}
	statOf("/")
	_, st, err := c.Get("/zookeeper") // its children differ (no quota, no config here): known
	s.note("get /zookeeper", err, fmt.Sprintf("v=%d", st.Version))
	for range 3 {
		p, err := c.Create("/rs-", nil, zk.FlagSequence, open)
		s.note("create -s /rs-", err, p)
		statOf("/")
	}
	_, err = c.Create("/rq", nil, 0, open)
	s.note("create /rq", err)
	p, err := c.Create("/rq/s-", nil, zk.FlagSequence, open)
	s.note("create -s /rq/s-", err, p)
	return s.out
}

// TestRootSequentialAsZooKeeper: the first sequential nodes at the root,
// and how the stat of "/" changes, as ZooKeeper 3.8's.
func TestRootSequentialAsZooKeeper(t *testing.T) {
	if _, err := realzk.ClassPath(); err != nil {
		t.Skip(err)
	}
	want := rootSeqScript(t, realzk.StartT(t))
	got := rootSeqScript(t, startA5(t, "").Addr().String())
	againstZooKeeper(t, want, got, nil)
}

// multiCreateFlagsScript: a multi's create op with the container flag
// (4). ZooKeeper's MultiOperationRecord turns a create op into
// Op.create(path, data, acl, flags), whose opcode comes from the flags
// (CreateMode.isContainer: createContainer), so the node is a container
// and its result a create2 result (path and stat). (A plain create
// request with flag 4, outside a multi, makes a persistent node: the
// parity test.) On an ensemble that sweeps every 100 ms, the container
// goes once it has had a child and has none. Not compared: a TTL flag
// (5, 6) there makes ZooKeeper build a createTTL op from a CreateRequest,
// which its PrepRequestProcessor cannot cast, and the whole multi is
// answered MarshallingError (-5) in the reply header; ours answers the op
// BadArguments (-8), a known difference (docs/decisions.md).
func multiCreateFlagsScript(t *testing.T, addrs []string) []string {
	s := &scripter{t: t}
	r := dialAddr(t, addrs[0])
	r.connect(0, make([]byte, 16), 10000)
	for i, fl := range []int32{4} {
		s.note(fmt.Sprintf("multi create /mc%d flags %d", fl, fl), nil, rawMultiCreate(r, int32(10+i), 1, fmt.Sprintf("/mc%d", fl), fl))
	}
	c := zkClient(t, 10*time.Second, addrs[0])
	ok, _, err := c.Exists("/mc4")
	s.note("exists /mc4", err, ok)
	_, err = c.Create("/mc4/kid", nil, 0, zk.WorldACL(zk.PermAll))
	s.note("create /mc4/kid", err)
	s.note("delete /mc4/kid", c.Delete("/mc4/kid", -1))
	s.note("/mc4 swept", awaitGone(c, "/mc4"))
	return s.out
}

// TestMultiCreateFlagsAsZooKeeper: create ops in a multi with the
// container or a TTL flag are answered, and make the node, as in
// ZooKeeper 3.8 (two 3-peer ensembles: only a leader sweeps containers).
func TestMultiCreateFlagsAsZooKeeper(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two 3-peer ensembles")
	}
	if _, err := realzk.ClassPath(); err != nil {
		t.Skip(err)
	}
	want := multiCreateFlagsScript(t, realzk.StartEnsembleT(t, 3, parityFlags...))
	got := multiCreateFlagsScript(t, startEnsembleWith(t, 3, aufgabe5.New, parityKeys).addrs)
	againstZooKeeper(t, want, got, nil)
}

// rawMultiCreate sends a multi of one create op whose MultiHeader type is
// typ (1 create, 19 createContainer, 21 createTTL) with the given flags
// (and a TTL of a minute for createTTL), and describes the reply (rawMulti).
func rawMultiCreate(r *raw, xid, typ int32, path string, flags int32) string {
	return rawMulti(r, xid, multiCreateOp(typ, path, flags))
}

// multiCreateOpsScript sends multis of one create op of each opcode with
// flags that do not match it, and notes what node each made.
func multiCreateOpsScript(t *testing.T, addr string) []string {
	s := &scripter{t: t}
	r := dialAddr(t, addr)
	_, sid, _ := r.connect(0, make([]byte, 16), 10000)
	c := zkClient(t, 10e9, addr)
	cases := []struct {
		typ, flags int32
		path       string
	}{
		{19, 0, "/cc0"}, // createContainer op, persistent flags
		{19, 1, "/cc1"}, // createContainer op, ephemeral flags
		{21, 4, "/ct4"}, // createTTL op, container flags
		{21, 0, "/ct0"}, // createTTL op, persistent flags
	}
	for i, k := range cases {
		s.note(fmt.Sprintf("multi op type %d flags %d %s", k.typ, k.flags, k.path), nil,
			rawMultiCreate(r, int32(10+i), k.typ, k.path, k.flags))
		ok, st, err := c.Exists(k.path)
		kind := "none"
		if ok {
			switch {
			case st.EphemeralOwner == 0:
				kind = "persistent"
			case st.EphemeralOwner == sid:
				kind = "ephemeral of the multi's session"
			case uint64(st.EphemeralOwner) == 0x8000000000000000:
				kind = "container"
			default:
				kind = fmt.Sprintf("owner %#x", uint64(st.EphemeralOwner))
			}
		}
		s.note("  exists "+k.path, err, ok, kind)
	}
	return s.out
}

// TestMultiCreateOpcodesAsZooKeeper: ZooKeeper's MultiOperationRecord
// rebuilds every create op (create, create2, createContainer, createTTL)
// with Op.create(..., flags): the opcode comes from the flags, so a
// createContainer op with flags 0 or 1 makes a plain or ephemeral node
// and a createTTL op with flags 0 or 4 a plain node or a container.
func TestMultiCreateOpcodesAsZooKeeper(t *testing.T) {
	if _, err := realzk.ClassPath(); err != nil {
		t.Skip(err)
	}
	want := multiCreateOpsScript(t, realzk.StartTWith(t, parityFlags...))
	got := multiCreateOpsScript(t, startA5(t, parityKeys).Addr().String())
	againstZooKeeper(t, want, got, nil)
}

// sysNodesScript creates, then deletes, /zookeeper/quota and
// /zookeeper/config. ZooKeeper has both nodes from the start (create:
// NodeExists) and refuses to delete them (BadArguments); so does ours,
// which does not have them (exists: false, a known difference). Refusing
// only the delete let a client make a node it could never remove (a
// review's failing test).
func sysNodesScript(t *testing.T, addr string) []string {
	s := &scripter{t: t}
	c := zkClient(t, 5*time.Second, addr)
	for _, p := range []string{"/zookeeper/quota", "/zookeeper/config"} {
		_, err := c.Create(p, nil, 0, zk.WorldACL(zk.PermAll))
		s.note("create "+p, err)
		s.note("delete "+p, c.Delete(p, -1))
	}
	return s.out
}

// TestSystemNodesAsZooKeeper: ZooKeeper's two system nodes below
// /zookeeper can be neither created nor deleted.
func TestSystemNodesAsZooKeeper(t *testing.T) {
	if _, err := realzk.ClassPath(); err != nil {
		t.Skip(err)
	}
	want := sysNodesScript(t, realzk.StartT(t))
	got := sysNodesScript(t, startA5(t, "").Addr().String())
	againstZooKeeper(t, want, got, nil)
}

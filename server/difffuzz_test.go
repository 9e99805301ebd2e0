package server

import (
	"encoding/binary"
	"fmt"
	"math/rand"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	_ "unsafe" // go:linkname

	"github.com/go-zookeeper/zk"

	"zablab/internal/realzk"
	"zablab/internal/wait"
	"zablab/solutions/aufgabe5"
)

// A seeded, randomized differential test: one random sequence of
// operations of three go-zookeeper sessions (two anonymous, one with
// digest alice:secret) runs against Apache ZooKeeper 3.8 and against
// server.New + the reference Service, and the two transcripts (results,
// error codes, stats by relation, children, ACLs, multi results, every
// watch event each session saw, in order, and every 50 steps the whole
// tree below /fz as alice reads it) must agree line by line.
//
// Requests go through go-zk's own request queue (its unexported
// (*Conn).request, as client/beyond.go does), so paths reach the server as
// generated, without go-zk's client-side path check, and calls go-zk has
// no method for (addWatch, removeWatches, checkWatches, createTTL with any
// flags, getEphemerals, getAllChildrenNumber) are sent too.
//
//	ZABLAB_DIFFFUZZ_SEED=n   replay seed n only
//	ZABLAB_DIFFFUZZ_SEEDS=k  run k seeds (default 3: 1, 2, 3)
//	ZABLAB_DIFFFUZZ_OPS=m    operations per seed (default 150)
//	ZABLAB_DIFFFUZZ_SHOW=1   log both transcripts
//	ZABLAB_DIFFFUZZ_KNOWN=1  take the differences TestCheckOrderAsZooKeeper
//	                         shows as alike, to look past them
//	ZABLAB_DIFFFUZZ_WEIRD=0  no odd paths (trailing '/', "//", "." segments,
//	                         characters outside the BMP, ...)

//go:linkname fzRequest github.com/go-zookeeper/zk.(*Conn).request
func fzRequest(c *zk.Conn, opcode int32, req, res any, recvFunc func(fzOpaque, fzOpaque, error)) (int64, error)

// fzOpaque stands for go-zk's *request and *responseHeader; always nil.
type fzOpaque *struct{}

// Jute records, field for field (go-zk's codec walks struct fields).
type (
	fzPathWatch struct {
		Path  string
		Watch bool
	}
	fzPath     struct{ Path string }
	fzStat     struct{ Stat zk.Stat }
	fzDataResp struct {
		Data []byte
		Stat zk.Stat
	}
	fzKidsResp struct {
		Children []string
		Stat     zk.Stat
	}
	fzCreate struct {
		Path  string
		Data  []byte
		ACL   []zk.ACL
		Flags int32
	}
	fzCreateTTL struct {
		Path  string
		Data  []byte
		ACL   []zk.ACL
		Flags int32
		TTL   int64
	}
	fzCreate2Resp struct {
		Path string
		Stat zk.Stat
	}
	fzDelete struct {
		Path    string
		Version int32
	}
	fzSetData struct {
		Path    string
		Data    []byte
		Version int32
	}
	fzACLResp struct {
		ACL  []zk.ACL
		Stat zk.Stat
	}
	fzSetACL struct {
		Path    string
		ACL     []zk.ACL
		Version int32
	}
	fzPathMode struct {
		Path string
		Mode int32
	}
	fzEmpty   struct{}
	fzCount   struct{ Count int32 }
	fzStrings struct{ Paths []string }
)

// ZooKeeper's opcodes used here.
const (
	fzOpCreate               = 1
	fzOpDelete               = 2
	fzOpExists               = 3
	fzOpGetData              = 4
	fzOpSetData              = 5
	fzOpGetACL               = 6
	fzOpSetACL               = 7
	fzOpSync                 = 9
	fzOpGetChildren2         = 12
	fzOpCreate2              = 15
	fzOpCheckWatches         = 17
	fzOpRemoveWatches        = 18
	fzOpCreateContainer      = 19
	fzOpCreateTTL            = 21
	fzOpGetEphemerals        = 103
	fzOpGetAllChildrenNumber = 104
	fzOpAddWatch             = 106
)

// fzClient is one of the three session slots.
type fzClient struct {
	conn    *zk.Conn
	gen     int
	mu      sync.Mutex
	events  []string
	closing bool
}

// fzRun runs one seed's operations against one server.
type fzRun struct {
	t       *testing.T
	addr    string
	rng     *rand.Rand
	cl      [3]*fzClient
	sess    map[int64]string
	zx      map[int64]int
	out     []string
	seqs    []string
	root    string
	noWeird bool // ZABLAB_DIFFFUZZ_WEIRD=0: no path of fzWeird
}

var fzNames = []string{"a", "b", "c"}

// fzWeird are paths a real client's own check would mostly stop; the
// server sees them here.
var fzWeird = []string{"/", "/fz", "/fz/", "/fz//a", "/fz/a/", "/fz/a//b", "/fz/./a", "/fz/a/..", "/fz/\U0001F600",
	"/fz/\u00e4", "/fz/a/\u00e4", "/fz/\x01", "/fz/a\x00b", "/zookeeper", "/zookeeper/x", "fz", "/fz/nope/x/",
	"/fz/a/\U0001F600", "/fz/ro/x", "/fz/ro/x/", "/fz/ro/\U0001F600", "/fz/ro/."}

func (f *fzRun) connect(i int) {
	c := &fzClient{gen: 0}
	if old := f.cl[i]; old != nil {
		c.gen = old.gen + 1
	}
	conn, _, err := zk.Connect([]string{f.addr}, 10*time.Second, zk.WithLogger(nopLog{}), zk.WithLogInfo(false),
		zk.WithEventCallback(func(e zk.Event) {
			c.mu.Lock()
			defer c.mu.Unlock()
			if e.Type == zk.EventSession {
				if e.State == zk.StateDisconnected && !c.closing {
					c.events = append(c.events, "DISCONNECTED")
				}
				return
			}
			c.events = append(c.events, fmt.Sprintf("%s %s", e.Type, e.Path))
		}))
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(conn.Close)
	wait.For(f.t, "a session", 10*time.Second, func() bool { return conn.State() == zk.StateHasSession })
	c.conn = conn
	f.sess[conn.SessionID()] = fmt.Sprintf("c%d.%d", i, c.gen)
	if i == 1 {
		if err := conn.AddAuth("digest", []byte("alice:secret")); err != nil {
			f.t.Fatal(err)
		}
	}
	f.cl[i] = c
}

func (f *fzRun) z(v int64) string {
	if v == 0 {
		return "0"
	}
	if _, ok := f.zx[v]; !ok {
		f.zx[v] = len(f.zx) + 1
	}
	return fmt.Sprintf("z%d", f.zx[v])
}

func (f *fzRun) stat(s *zk.Stat) string {
	owner := "0"
	if s.EphemeralOwner != 0 {
		owner = f.sess[s.EphemeralOwner]
		if owner == "" {
			owner = fmt.Sprintf("?%#x", uint64(s.EphemeralOwner))
		}
	}
	times := "set"
	switch {
	case s.Ctime == 0 && s.Mtime == 0:
		times = "zero"
	case s.Mtime < s.Ctime:
		times = "mtime<ctime"
	case s.Czxid == s.Mzxid && s.Ctime == s.Mtime:
		times = "created"
	}
	return fmt.Sprintf("{c=%s m=%s p=%s t=%s v=%d cv=%d av=%d own=%s len=%d kids=%d}", f.z(s.Czxid), f.z(s.Mzxid),
		f.z(s.Pzxid), times, s.Version, s.Cversion, s.Aversion, owner, s.DataLength, s.NumChildren)
}

func fzErr(err error) string {
	if err == nil {
		return "ok"
	}
	return "ERR " + err.Error()
}

func fzData(b []byte) string {
	if b == nil {
		return "null"
	}
	if len(b) > 16 {
		return fmt.Sprintf("%d bytes", len(b))
	}
	return strconv.Quote(string(b))
}

func fzACLText(acl []zk.ACL) string {
	var b strings.Builder
	for _, a := range acl {
		fmt.Fprintf(&b, "[%d %s:%s]", a.Perms, a.Scheme, a.ID)
	}
	return b.String()
}

// path picks a path: mostly below /fz, now and then a sequential node made
// earlier or one of fzWeird.
func (f *fzRun) path() string {
	r := f.rng.Intn(100)
	k := f.rng.Intn(1000)
	switch {
	case r < 8:
		if len(f.seqs) == 0 {
			return "/fz/none"
		}
		return f.seqs[k%len(f.seqs)]
	case r < 18 && !f.noWeird:
		w := fzWeird[k%len(fzWeird)]
		if fzKnownOK && (strings.ContainsRune(w, '\U0001F600') || w == "/" || w == "/zookeeper") {
			// A non-BMP name is taken by us and refused by ZooKeeper (the
			// trees would part); the stats of "/" and "/zookeeper" differ
			// (TestRootSequentialAsZooKeeper).
			return "/fz/x"
		}
		return w
	}
	p := "/fz"
	for range 1 + f.rng.Intn(3) {
		p += "/" + fzNames[f.rng.Intn(len(fzNames))]
	}
	return p
}

func (f *fzRun) data() []byte {
	switch f.rng.Intn(4) {
	case 0:
		return nil
	case 1:
		return []byte{}
	case 2:
		return []byte("x")
	}
	return []byte("yy")
}

func (f *fzRun) version() int32 { return []int32{-1, -1, 0, 0, 1, 2}[f.rng.Intn(6)] }

func (f *fzRun) acl() []zk.ACL {
	k := f.rng.Intn(12)
	if fzKnownOK && (k == 1 || k == 5) {
		// Only alice may read such a node: ZooKeeper sends its events to
		// nobody else (TestWatchEventsNeedReadAsZooKeeper), we do.
		k = 11
	}
	switch k {
	case 0:
		return zk.WorldACL(zk.PermRead)
	case 1:
		return zk.DigestACL(zk.PermAll, "alice", "secret")
	case 2:
		return zk.WorldACL(zk.PermAll &^ zk.PermCreate)
	case 3:
		return zk.WorldACL(zk.PermAll &^ zk.PermDelete)
	case 4:
		return []zk.ACL{{Perms: zk.PermAll, Scheme: "ip", ID: "127.0.0.1"}}
	case 5:
		return zk.AuthACL(zk.PermAll)
	case 6:
		return []zk.ACL{{Perms: zk.PermAll, Scheme: "world", ID: "nobody"}}
	case 7:
		return append(zk.WorldACL(zk.PermRead), zk.WorldACL(zk.PermRead)...)
	}
	return zk.WorldACL(zk.PermAll)
}

// flags picks create flags: persistent, ephemeral, sequential, both,
// container (4), TTL (5, 6) and now and then an unknown one.
func (f *fzRun) flags() int32 {
	return []int32{0, 0, 0, 1, 1, 2, 3, 4, 5, 6, 7}[f.rng.Intn(11)]
}

func (f *fzRun) note(format string, args ...any) {
	f.out = append(f.out, fmt.Sprintf(format, args...))
}

// step runs one random operation by one client.
func (f *fzRun) step(n int) (closed bool) {
	ci := f.rng.Intn(3)
	c := f.cl[ci].conn
	who := fmt.Sprintf("#%d c%d", n, ci)
	op := f.rng.Intn(100)
	switch {
	case op < 24:
		p, d, acl, fl := f.path(), f.data(), f.acl(), f.flags()
		kind := f.rng.Intn(6)
		ttl := []int64{0, 1, 3600000, -5}[f.rng.Intn(4)]
		switch kind {
		case 0, 1:
			var res fzPath
			_, err := fzRequest(c, fzOpCreate, &fzCreate{p, d, acl, fl}, &res, nil)
			f.note("%s create %q %s %s fl=%d: %s %q", who, p, fzData(d), fzACLText(acl), fl, fzErr(err), res.Path)
			f.seq(fl, err, res.Path)
		case 2, 3:
			var res fzCreate2Resp
			_, err := fzRequest(c, fzOpCreate2, &fzCreate{p, d, acl, fl}, &res, nil)
			f.note("%s create2 %q %s %s fl=%d: %s %q %s", who, p, fzData(d), fzACLText(acl), fl, fzErr(err), res.Path, f.statIf(err, &res.Stat))
			f.seq(fl, err, res.Path)
		case 4:
			var res fzCreate2Resp
			_, err := fzRequest(c, fzOpCreateContainer, &fzCreate{p, d, acl, 4}, &res, nil)
			f.note("%s createContainer %q %s %s: %s %q %s", who, p, fzData(d), fzACLText(acl), fzErr(err), res.Path, f.statIf(err, &res.Stat))
		case 5:
			fl := []int32{5, 6, 0, 1}[f.rng.Intn(4)]
			if ttl < 0 && fl < 5 {
				// ZooKeeper 3.8.0 takes createTTL with a plain mode and a
				// negative TTL, and its DataTree then throws applying the
				// txn (the server shuts down): not a case to compare.
				ttl = 0
			}
			var res fzCreate2Resp
			_, err := fzRequest(c, fzOpCreateTTL, &fzCreateTTL{p, d, acl, fl, ttl}, &res, nil)
			f.note("%s createTTL %q %s %s fl=%d ttl=%d: %s %q %s", who, p, fzData(d), fzACLText(acl), fl, ttl, fzErr(err), res.Path, f.statIf(err, &res.Stat))
			f.seq(fl, err, res.Path)
		}
	case op < 34:
		p, v := f.path(), f.version()
		_, err := fzRequest(c, fzOpDelete, &fzDelete{p, v}, &fzEmpty{}, nil)
		f.note("%s delete %q v=%d: %s", who, p, v, fzErr(err))
	case op < 44:
		p, d, v := f.path(), f.data(), f.version()
		var res fzStat
		_, err := fzRequest(c, fzOpSetData, &fzSetData{p, d, v}, &res, nil)
		f.note("%s setData %q %s v=%d: %s %s", who, p, fzData(d), v, fzErr(err), f.statIf(err, &res.Stat))
	case op < 51:
		p, w := f.path(), f.rng.Intn(2) == 0
		var res fzStat
		_, err := fzRequest(c, fzOpExists, &fzPathWatch{p, w}, &res, nil)
		f.note("%s exists %q w=%v: %s %s", who, p, w, fzErr(err), f.statIf(err, &res.Stat))
	case op < 58:
		p, w := f.path(), f.rng.Intn(2) == 0
		var res fzDataResp
		_, err := fzRequest(c, fzOpGetData, &fzPathWatch{p, w}, &res, nil)
		f.note("%s getData %q w=%v: %s %s %s", who, p, w, fzErr(err), fzData(res.Data), f.statIf(err, &res.Stat))
	case op < 65:
		p, w := f.path(), f.rng.Intn(2) == 0
		var res fzKidsResp
		_, err := fzRequest(c, fzOpGetChildren2, &fzPathWatch{p, w}, &res, nil)
		slices.Sort(res.Children)
		f.note("%s getChildren2 %q w=%v: %s %q %s", who, p, w, fzErr(err), res.Children, f.statIf(err, &res.Stat))
	case op < 74:
		f.multi(who, c)
	case op < 77:
		p := f.path()
		var res fzACLResp
		_, err := fzRequest(c, fzOpGetACL, &fzPath{p}, &res, nil)
		f.note("%s getACL %q: %s %s %s", who, p, fzErr(err), fzACLText(res.ACL), f.statIf(err, &res.Stat))
	case op < 81:
		p, acl, v := f.path(), f.acl(), f.version()
		var res fzStat
		_, err := fzRequest(c, fzOpSetACL, &fzSetACL{p, acl, v}, &res, nil)
		f.note("%s setACL %q %s v=%d: %s %s", who, p, fzACLText(acl), v, fzErr(err), f.statIf(err, &res.Stat))
	case op < 86:
		p, mode := f.path(), int32(f.rng.Intn(2))
		_, err := fzRequest(c, fzOpAddWatch, &fzPathMode{p, mode}, &fzEmpty{}, nil)
		f.note("%s addWatch %q mode=%d: %s", who, p, mode, fzErr(err))
	case op < 90:
		p, typ := f.path(), int32(1+f.rng.Intn(3))
		opc := int32(fzOpRemoveWatches)
		name := "removeWatches"
		if f.rng.Intn(3) == 0 {
			opc, name = fzOpCheckWatches, "checkWatches"
		}
		_, err := fzRequest(c, opc, &fzPathMode{p, typ}, &fzEmpty{}, nil)
		f.note("%s %s %q type=%d: %s", who, name, p, typ, fzErr(err))
	case op < 92:
		p := f.path()
		var res fzPath
		_, err := fzRequest(c, fzOpSync, &fzPath{p}, &res, nil)
		f.note("%s sync %q: %s", who, p, fzErr(err))
	case op < 94:
		p := f.path()
		if p == "/" {
			p = "/fz"
		}
		var res fzCount
		_, err := fzRequest(c, fzOpGetAllChildrenNumber, &fzPath{p}, &res, nil)
		f.note("%s getAllChildrenNumber %q: %s %d", who, p, fzErr(err), res.Count)
	case op < 96:
		p := f.path()
		var res fzStrings
		_, err := fzRequest(c, fzOpGetEphemerals, &fzPath{p}, &res, nil)
		slices.Sort(res.Paths)
		f.note("%s getEphemerals %q: %s %q", who, p, fzErr(err), res.Paths)
	default:
		cl := f.cl[ci]
		cl.mu.Lock()
		cl.closing = true
		cl.mu.Unlock()
		cl.conn.Close()
		f.note("%s close session and reconnect", who)
		f.connect(ci)
		return true
	}
	return false
}

func (f *fzRun) statIf(err error, s *zk.Stat) string {
	if err != nil {
		return ""
	}
	return f.stat(s)
}

// seq remembers a sequential node that was made.
func (f *fzRun) seq(flags int32, err error, path string) {
	if err == nil && (flags == 2 || flags == 3 || flags == 6) {
		f.seqs = append(f.seqs, path)
	}
}

func (f *fzRun) multi(who string, c *zk.Conn) {
	n := 1 + f.rng.Intn(4)
	var ops []any
	var desc []string
	for range n {
		p := f.path()
		switch f.rng.Intn(4) {
		case 0:
			d, acl, fl := f.data(), f.acl(), []int32{0, 1, 2, 3, 4}[f.rng.Intn(5)]
			if fzKnownOK && fl == 4 {
				fl = 0 // a container in ZooKeeper (TestMultiCreateFlagsAsZooKeeper)
			}
			ops = append(ops, &zk.CreateRequest{Path: p, Data: d, Acl: acl, Flags: fl})
			desc = append(desc, fmt.Sprintf("create %q %s %s fl=%d", p, fzData(d), fzACLText(acl), fl))
		case 1:
			v := f.version()
			ops = append(ops, &zk.DeleteRequest{Path: p, Version: v})
			desc = append(desc, fmt.Sprintf("delete %q v=%d", p, v))
		case 2:
			d, v := f.data(), f.version()
			ops = append(ops, &zk.SetDataRequest{Path: p, Data: d, Version: v})
			desc = append(desc, fmt.Sprintf("setData %q %s v=%d", p, fzData(d), v))
		case 3:
			v := f.version()
			ops = append(ops, &zk.CheckVersionRequest{Path: p, Version: v})
			desc = append(desc, fmt.Sprintf("check %q v=%d", p, v))
		}
	}
	res, err := c.Multi(ops...)
	f.note("%s multi [%s]: %s", who, strings.Join(desc, "; "), fzErr(err))
	for i, r := range res {
		st := ""
		if r.Stat != nil {
			st = f.stat(r.Stat)
		}
		f.note("   %d: %q %s %s", i, r.String, st, fzErr(r.Error))
	}
}

// barrier makes every session read once, so each has seen the events of
// the step (an event comes before the reply to any later read), and notes
// the events.
func (f *fzRun) barrier(closed bool) {
	for i, cl := range f.cl {
		if _, err := fzRequest(cl.conn, fzOpExists, &fzPathWatch{"/", false}, &fzStat{}, nil); err != nil {
			f.note("   c%d barrier: %v", i, err)
		}
		cl.mu.Lock()
		evs := cl.events
		cl.events = nil
		cl.mu.Unlock()
		if closed {
			// A closed session's ephemerals go in the order of a Java
			// hash set in ZooKeeper (sorted here): no order to compare.
			slices.Sort(evs)
		}
		if len(evs) > 0 {
			f.note("   c%d events: %s", i, strings.Join(evs, ", "))
		}
	}
}

// dump notes the tree below p as alice (c1) sees it: every node's data,
// stat and ACL, depth first.
func (f *fzRun) dump(p string) {
	c := f.cl[1].conn
	var res fzDataResp
	_, err := fzRequest(c, fzOpGetData, &fzPathWatch{p, false}, &res, nil)
	var acl fzACLResp
	_, aerr := fzRequest(c, fzOpGetACL, &fzPath{p}, &acl, nil)
	f.note("   tree %s: %s %s %s acl %s %s", p, fzErr(err), fzData(res.Data), f.statIf(err, &res.Stat), fzErr(aerr), fzACLText(acl.ACL))
	var kids fzKidsResp
	if _, err := fzRequest(c, fzOpGetChildren2, &fzPathWatch{p, false}, &kids, nil); err != nil {
		return
	}
	slices.Sort(kids.Children)
	for _, k := range kids.Children {
		f.dump(p + "/" + k)
	}
}

// fzScript runs seed's ops against addr and returns the transcript.
func fzScript(t *testing.T, addr string, seed int64, ops int) []string {
	f := &fzRun{t: t, addr: addr, rng: rand.New(rand.NewSource(seed)), sess: map[int64]string{}, zx: map[int64]int{},
		noWeird: os.Getenv("ZABLAB_DIFFFUZZ_WEIRD") == "0"}
	for i := range f.cl {
		f.connect(i)
	}
	// A fresh tree for the seed: /fz and /fz/ro, where nobody may create.
	for _, p := range []string{"/fz", "/fz/ro"} {
		acl := zk.WorldACL(zk.PermAll)
		if p == "/fz/ro" {
			acl = zk.WorldACL(zk.PermRead)
		}
		if _, err := f.cl[0].conn.Create(p, nil, 0, acl); err != nil {
			t.Fatalf("create %s: %v", p, err)
		}
	}
	for n := range ops {
		f.barrier(f.step(n))
		if (n+1)%50 == 0 || n == ops-1 {
			f.dump("/fz")
		}
	}
	for _, cl := range f.cl {
		cl.mu.Lock()
		cl.closing = true
		cl.mu.Unlock()
		cl.conn.Close()
	}
	return f.out
}

var fzSeqDigits = regexp.MustCompile(`[0-9]{10}`)

var fzKnownOK = os.Getenv("ZABLAB_DIFFFUZZ_KNOWN") == "1"

// fzAlike compares two transcript lines: sequential suffixes masked, and
// with ZABLAB_DIFFFUZZ_KNOWN=1 an error of ours that TestCheckOrderAsZooKeeper
// already shows (NoNode for NoAuth, BadArguments for NoNode, NoAuth or
// InvalidACL) taken as ZooKeeper's.
func fzAlike(w, g string) bool {
	w, g = fzSeqDigits.ReplaceAllString(w, "N"), fzSeqDigits.ReplaceAllString(g, "N")
	if w == g {
		return true
	}
	if !fzKnownOK {
		return false
	}
	for _, k := range [][2]string{{"zk: not authenticated", "zk: node does not exist"},
		{"zk: node does not exist", "invalid arguments"}, {"zk: not authenticated", "invalid arguments"},
		{"zk: invalid ACL specified", "invalid arguments"}} {
		if strings.ReplaceAll(w, k[0], k[1]) == g {
			return true
		}
	}
	return false
}

// fzEnvInt reads a whole number from the environment, def if unset.
func fzEnvInt(t *testing.T, key string, def int64) int64 {
	s := os.Getenv(key)
	if s == "" {
		return def
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("%s=%q: %v", key, s, err)
	}
	return v
}

// TestDiffFuzzAsZooKeeper runs random operation sequences against Apache
// ZooKeeper 3.8 and against ours and reports the first line where the
// transcripts differ, with the seed to replay it. Sequential suffixes are
// masked (the known, accepted difference after deletes: see
// acceptedDiff). Each seed runs on fresh servers.
func TestDiffFuzzAsZooKeeper(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Apache ZooKeeper")
	}
	if _, err := realzk.ClassPath(); err != nil {
		t.Skip(err)
	}
	ops := int(fzEnvInt(t, "ZABLAB_DIFFFUZZ_OPS", 150))
	seeds := []int64{}
	if s := os.Getenv("ZABLAB_DIFFFUZZ_SEED"); s != "" {
		seeds = append(seeds, fzEnvInt(t, "ZABLAB_DIFFFUZZ_SEED", 0))
	} else {
		for i := range fzEnvInt(t, "ZABLAB_DIFFFUZZ_SEEDS", 3) {
			seeds = append(seeds, i+1)
		}
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			zkAddr := realzk.StartTWith(t)
			ours := startA5(t, "zookeeper.extendedTypesEnabled=true\nznode.container.checkIntervalMs=3600000\n").Addr().String()
			want := fzScript(t, zkAddr, seed, ops)
			got := fzScript(t, ours, seed, ops)
			if os.Getenv("ZABLAB_DIFFFUZZ_SHOW") != "" {
				t.Logf("ZooKeeper:\n%s\nours:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
			}
			for i := range max(len(want), len(got)) {
				var w, g string
				if i < len(want) {
					w = want[i]
				}
				if i < len(got) {
					g = got[i]
				}
				if fzAlike(w, g) {
					continue
				}
				ctx := strings.Join(want[max(0, i-8):i], "\n\t")
				t.Fatalf("seed %d: transcripts differ at line %d (replay: ZABLAB_DIFFFUZZ_SEED=%d ZABLAB_DIFFFUZZ_OPS=%d go test -run 'TestDiffFuzzAsZooKeeper' ./server/)\n"+
					"before, alike:\n\t%s\nZooKeeper: %s\nours:      %s", seed, i+1, seed, ops, ctx, w, g)
			}
			t.Logf("seed %d: %d lines alike", seed, len(want))
		})
	}
}

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
	sameLines(t, want, got)
	if t.Failed() || os.Getenv("ZABLAB_DIFFFUZZ_SHOW") != "" {
		t.Logf("ZooKeeper:\n%s\nours:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
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
		s.note(fmt.Sprintf("set %d bytes (frame %d)", n, 20+len(p)+n), err)
		wait.For(t, "the session back", 10*time.Second, func() bool { return c.State() == zk.StateHasSession })
		_, st, err := c.Exists(p)
		s.note("  then dataLength", err, st.DataLength)
	}
	return s.out
}

// TestFrameLimitAsZooKeeper: a request frame over jute.maxbuffer is
// refused as ZooKeeper 3.8 refuses it, and one within it is taken.
func TestFrameLimitAsZooKeeper(t *testing.T) {
	if _, err := realzk.ClassPath(); err != nil {
		t.Skip(err)
	}
	want := frameLimitScript(t, realzk.StartT(t))
	got := frameLimitScript(t, startA5(t, "").Addr().String())
	sameLines(t, want, got)
	if t.Failed() || os.Getenv("ZABLAB_DIFFFUZZ_SHOW") != "" {
		t.Logf("ZooKeeper:\n%s\nours:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
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
	sameLines(t, want, got)
	if t.Failed() || os.Getenv("ZABLAB_DIFFFUZZ_SHOW") != "" {
		t.Logf("ZooKeeper:\n%s\nours:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
}

// rootSeqScript creates sequential nodes at the root and below a fresh
// node, and shows the stats of "/" and the data of "/zookeeper". In
// ZooKeeper both hold empty data, not null, and "/" reports a cversion
// one below the count of its child creations (-1 at first), while the
// sequential suffixes count from 0 as ours.
func rootSeqScript(t *testing.T, addr string) []string {
	s := &scripter{t: t}
	c := zkClient(t, 5*time.Second, addr)
	open := zk.WorldACL(zk.PermAll)
	statOf := func(p string) {
		b, st, err := c.Get(p)
		s.note("get "+p, err, fmt.Sprintf("data=%s cv=%d kids=%d v=%d", fzData(b), st.Cversion, st.NumChildren, st.Version))
	}
	statOf("/")
	b, st, err := c.Get("/zookeeper") // its children differ (no quota, no config here): known
	s.note("get /zookeeper", err, fmt.Sprintf("data=%s v=%d", fzData(b), st.Version))
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

// TestRootSequentialAsZooKeeper: the first sequential node at the root,
// and the stats of "/" and "/zookeeper", as ZooKeeper 3.8's.
func TestRootSequentialAsZooKeeper(t *testing.T) {
	if _, err := realzk.ClassPath(); err != nil {
		t.Skip(err)
	}
	want := rootSeqScript(t, realzk.StartT(t))
	got := rootSeqScript(t, startA5(t, "").Addr().String())
	sameLines(t, want, got)
	if t.Failed() || os.Getenv("ZABLAB_DIFFFUZZ_SHOW") != "" {
		t.Logf("ZooKeeper:\n%s\nours:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
}

// rawMultiCreate sends a multi of one create op (header type create, the
// jute CreateRequest with flags) and describes the reply: the header's
// error, and each result's type and error (a create2 result is a path and
// a stat, a create result a path only).
func rawMultiCreate(r *raw, xid int32, path string, flags int32) string {
	b := be32(be32(nil, xid), 14) // multi
	b = append(be32(b, 1), 0)     // MultiHeader{create, done false, -1}
	b = be32(b, -1)
	b = be32(jstr(b, path), 0)                     // path, empty data
	b = be32(b, 1)                                 // one ACL
	b = jstr(jstr(be32(b, 31), "world"), "anyone") // world:anyone, all
	b = be32(b, flags)
	b = be32(append(be32(b, -1), 1), -1) // MultiHeader{-1, true, -1}
	r.frame(b)
	var body []byte
	for {
		body = r.readFrame()
		if int32(binary.BigEndian.Uint32(body)) != -1 { // not a watch event
			break
		}
	}
	out := fmt.Sprintf("header err %d", int32(binary.BigEndian.Uint32(body[12:])))
	rest := body[16:]
	for len(rest) >= 9 {
		typ, done, code := int32(binary.BigEndian.Uint32(rest)), rest[4], int32(binary.BigEndian.Uint32(rest[5:]))
		rest = rest[9:]
		if done != 0 {
			break
		}
		switch typ {
		case -1:
			out += fmt.Sprintf("; error result %d", int32(binary.BigEndian.Uint32(rest)))
			rest = rest[4:]
		case 1, 15:
			n := int(binary.BigEndian.Uint32(rest))
			out += fmt.Sprintf("; result type %d err %d path %q", typ, code, rest[4:4+n])
			rest = rest[4+n:]
			if typ == 15 {
				rest = rest[68:] // the stat
			}
		default:
			return out + fmt.Sprintf("; result type %d: not read further", typ)
		}
	}
	return out
}

// multiCreateFlagsScript: a multi's create op with the container flag
// (4) or a TTL flag (5, 6). ZooKeeper's MultiOperationRecord turns a
// create op into Op.create(path, data, acl, flags), whose opcode comes
// from the flags (CreateMode.isContainer: createContainer), so the node
// is a container and its result a create2 result (path and stat); a TTL
// flag makes a createTTL op from a CreateRequest, which
// pRequest2TxnCreate cannot cast: the whole multi is answered
// MarshallingError (-5) in the reply header. (A plain create request with
// flag 4, outside a multi, makes a persistent node: the parity test.)
// On an ensemble that sweeps every 100 ms, the container goes once it
// has had a child and has none.
func multiCreateFlagsScript(t *testing.T, addrs []string) []string {
	s := &scripter{t: t}
	r := dialAddr(t, addrs[0])
	r.connect(0, make([]byte, 16), 10000)
	for i, fl := range []int32{4, 5, 6} {
		s.note(fmt.Sprintf("multi create /mc%d flags %d", fl, fl), nil, rawMultiCreate(r, int32(10+i), fmt.Sprintf("/mc%d", fl), fl))
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
	sameLines(t, want, got)
	if t.Failed() || os.Getenv("ZABLAB_DIFFFUZZ_SHOW") != "" {
		t.Logf("ZooKeeper:\n%s\nours:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
}

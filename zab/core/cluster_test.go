package core_test

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"zablab/zab/core"
	"zablab/zab/storage"
)

// cluster is a scripted ensemble for readable protocol tests: a FIFO
// network the test can cut, crashes at chosen points, and a trace of every
// message delivered.
type cluster struct {
	t       *testing.T
	voters  []uint64
	obs     []uint64
	nodes   map[uint64]*node
	queue   []core.Message
	now     int64
	cut     map[[2]uint64]bool
	trace   []string
	maxCtr  uint32
	nextVal uint64
	onSend  func(core.Message) // sees every message sent, when set
	logger  logrus.FieldLogger // the nodes' logger, when set
	tickLen time.Duration      // the nodes' TickTime, for log lines
}

type node struct {
	id    uint64
	c     *core.Core
	store *storage.Store
	mlog  *storage.MemLog
	app   []core.Entry
	syncs map[uint64]int // sync seq → deliveries made when its DeliverSync came
	// crashOn, when set, sees each Ready before it is persisted; returning
	// true means the node crashes there, after crashOn wrote what it wanted.
	crashOn func(n *node, rd *core.Ready) bool
}

func newCluster(t *testing.T, voters, observers int) *cluster {
	cl := &cluster{t: t, nodes: map[uint64]*node{}, cut: map[[2]uint64]bool{}}
	for i := 1; i <= voters+observers; i++ {
		if i <= voters {
			cl.voters = append(cl.voters, uint64(i))
		} else {
			cl.obs = append(cl.obs, uint64(i))
		}
	}
	for _, id := range cl.all() {
		mlog := &storage.MemLog{}
		cl.nodes[id] = &node{id: id, mlog: mlog,
			store: &storage.Store{Log: mlog, Stable: &storage.MemStable{}, Snapshots: &storage.MemSnapshots{}}}
	}
	return cl
}

func (cl *cluster) all() []uint64 { return append(append([]uint64{}, cl.voters...), cl.obs...) }

// start boots the given nodes (all when none are named) from their stores.
func (cl *cluster) start(ids ...uint64) {
	if len(ids) == 0 {
		ids = cl.all()
	}
	for _, id := range ids {
		n := cl.nodes[id]
		restored, snap, err := n.store.Restore()
		if err != nil {
			cl.t.Fatalf("node %d: restore: %v", id, err)
		}
		n.app = nil
		if snap != nil {
			n.app = decodeApp(cl.t, snap.Data)
		}
		cfg := core.Config{ID: id, Voters: cl.voters, Observers: cl.obs, InitLimit: 10, SyncLimit: 5,
			MaxCounter: cl.maxCtr, Rand: rand.New(rand.NewPCG(id, uint64(len(cl.trace)))), Snapshots: n.store,
			Logger: cl.logger, TickTime: cl.tickLen}
		if n.c, err = core.New(cfg, restored); err != nil {
			cl.t.Fatalf("node %d: %v", id, err)
		}
		cl.process(n)
	}
}

// crash stops a node; what it had not synced is lost.
func (cl *cluster) crash(id uint64) {
	n := cl.nodes[id]
	n.mlog.Lose()
	n.c = nil
	cl.trace = append(cl.trace, fmt.Sprintf("crash %d", id))
}

// process carries out a node's Ready values as the runtime does.
func (cl *cluster) process(n *node) {
	for n.c != nil && n.c.HasReady() {
		rd := n.c.Ready()
		if n.crashOn != nil && n.crashOn(n, &rd) {
			n.crashOn = nil
			cl.crash(n.id)
			return
		}
		if err := n.store.Persist(&rd); err != nil {
			cl.t.Fatalf("node %d: persist: %v", n.id, err)
		}
		cl.queue = append(cl.queue, rd.Messages...)
		if cl.onSend != nil {
			for _, m := range rd.Messages {
				cl.onSend(m)
			}
		}
		for _, ev := range rd.Events {
			switch ev.Kind {
			case core.EventRestore:
				n.app = decodeApp(cl.t, ev.Snapshot.Data)
			case core.EventDeliver:
				n.app = append(n.app, ev.Entry)
			case core.EventSync:
				if n.syncs == nil {
					n.syncs = map[uint64]int{}
				}
				n.syncs[ev.Seq] = len(n.app)
			}
		}
		n.c.Advance(rd)
	}
}

// deliver hands out every queued message in FIFO order, also those sent
// meanwhile, but at most limit of them.
func (cl *cluster) deliver() {
	for i := 0; len(cl.queue) > 0 && i < 100000; i++ {
		m := cl.queue[0]
		cl.queue = cl.queue[1:]
		n := cl.nodes[m.To]
		if cl.cut[[2]uint64{m.From, m.To}] || n.c == nil {
			continue
		}
		if m.Type != core.MsgVote && m.Type != core.MsgPing && m.Type != core.MsgAck {
			cl.trace = append(cl.trace, describe(m))
		}
		n.c.Step(m, cl.now)
		cl.process(n)
	}
}

// tick delivers everything, then advances every running node one tick.
func (cl *cluster) tick() {
	cl.deliver()
	cl.now += 1_000_000
	for _, id := range cl.all() {
		if n := cl.nodes[id]; n.c != nil {
			n.c.Tick(cl.now)
			cl.process(n)
		}
	}
	cl.deliver()
}

// until ticks until cond holds, failing the test after max ticks.
func (cl *cluster) until(what string, max int, cond func() bool) {
	cl.t.Helper()
	for i := 0; i < max; i++ {
		if cond() {
			return
		}
		cl.tick()
	}
	if !cond() {
		cl.t.Fatalf("after %d ticks still not: %s\ntrace:\n%s", max, what, strings.Join(cl.trace, "\n"))
	}
}

// leader returns the broadcasting leader, or 0.
func (cl *cluster) leader() uint64 {
	for _, id := range cl.voters {
		if n := cl.nodes[id]; n.c != nil {
			if s := n.c.Status(); s.Role == core.Leading && s.Phase == core.Broadcast {
				return id
			}
		}
	}
	return 0
}

// settled reports whether every running node broadcasts under one leader.
func (cl *cluster) settled() bool {
	l := cl.leader()
	if l == 0 {
		return false
	}
	for _, n := range cl.nodes {
		if n.c != nil && (n.c.Status().Phase != core.Broadcast || n.c.Status().Leader != l) {
			return false
		}
	}
	return true
}

// propose has node id propose a fresh value and returns it.
func (cl *cluster) propose(id uint64) uint64 {
	cl.t.Helper()
	cl.nextVal++
	if _, err := cl.nodes[id].c.Propose(binary.BigEndian.AppendUint64(nil, cl.nextVal), cl.now); err != nil {
		cl.t.Fatalf("node %d: Propose: %v", id, err)
	}
	cl.process(cl.nodes[id])
	return cl.nextVal
}

// values is what node id delivered, as proposal values.
func (cl *cluster) values(id uint64) []uint64 {
	var vs []uint64
	for _, e := range cl.nodes[id].app {
		vs = append(vs, binary.BigEndian.Uint64(e.Data))
	}
	return vs
}

// has reports whether every running node delivered all of vals.
func (cl *cluster) has(vals ...uint64) bool {
	for _, n := range cl.nodes {
		if n.c == nil {
			continue
		}
		for _, v := range vals {
			if !slices.Contains(cl.values(n.id), v) {
				return false
			}
		}
	}
	return true
}

// agree fails the test unless all running nodes delivered the same sequence.
func (cl *cluster) agree() {
	cl.t.Helper()
	var ref []uint64
	var refID uint64
	for _, id := range cl.all() {
		if cl.nodes[id].c == nil {
			continue
		}
		vs := cl.values(id)
		if refID == 0 {
			ref, refID = vs, id
			continue
		}
		if !slices.Equal(ref, vs) {
			cl.t.Fatalf("node %d delivered %v, node %d delivered %v", refID, ref, id, vs)
		}
	}
}

func describe(m core.Message) string {
	s := fmt.Sprintf("%d→%d %s", m.From, m.To, m.Type)
	if m.Type == core.MsgNewLeader {
		s += " " + m.Mode.String()
	}
	return s
}

func decodeApp(t *testing.T, b []byte) []core.Entry {
	var es []core.Entry
	for len(b) > 0 {
		if len(b) < 16 {
			t.Fatalf("snapshot has a torn record")
		}
		es = append(es, core.Entry{Zxid: core.Zxid(binary.BigEndian.Uint64(b)), Data: b[8:16]})
		b = b[16:]
	}
	return es
}

// snapshot has node id save its application state and compact its log.
func (cl *cluster) snapshot(id uint64) {
	n := cl.nodes[id]
	var b []byte
	for _, e := range n.app {
		b = binary.BigEndian.AppendUint64(b, uint64(e.Zxid))
		b = append(b, e.Data...)
	}
	last := n.app[len(n.app)-1]
	meta := core.SnapshotMeta{Zxid: last.Zxid, Timestamp: last.Timestamp}
	if err := n.store.Snapshots.Save(core.Snapshot{Meta: meta, Data: b}); err != nil {
		cl.t.Fatal(err)
	}
	n.c.Compact(last.Zxid)
}

// deliverOne hands out the oldest queued message.
func (cl *cluster) deliverOne() {
	if len(cl.queue) == 0 {
		cl.tick()
		return
	}
	m := cl.queue[0]
	cl.queue = cl.queue[1:]
	if n := cl.nodes[m.To]; n.c != nil && !cl.cut[[2]uint64{m.From, m.To}] {
		cl.trace = append(cl.trace, describe(m))
		n.c.Step(m, cl.now)
		cl.process(n)
	}
}

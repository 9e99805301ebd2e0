package aufgabe5

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"

	"zablab/mwzookeeper"
	"zablab/properties"
	"zablab/zab"
)

// Service is an MWZooKeeper replica: a znode tree replicated
// by proposing each write request through Zab and applying every delivered
// request deterministically on every replica.
//
// One mutex, the apply lock, guards the replicated state and the waiting
// requests; the tree and the sessions are changed only by Zab's callback
// goroutine under it. Nothing holds it across I/O, and replies are given
// after it is released, except the replies of reads answered outside
// Zab's callback goroutine, which are given under it (see submitLocal).
type Service struct {
	host  mwzookeeper.Host
	log   logrus.FieldLogger
	zab   zab.Zab
	myid  uint64
	inc   uint64 // this run's incarnation: a request's name is (myid, inc, reqno)
	tick  time.Duration
	alone bool      // SingleZab
	ext   extension // beyond the sheet: TTL nodes allowed, the container sweep

	mu        sync.Mutex
	tree      *tree
	sessions  map[int64]*session
	lastZxid  int64
	watches   *mwzookeeper.WatchTable
	role      zab.Status
	leader    string
	serving   bool
	stopped   bool
	nextReq   uint64
	pending   map[uint64]*request  // own writes in flight, by reqno
	syncs     map[uint64]*request  // own syncs in flight, by the Sync cookie's Seq
	queues    map[int64][]*request // per session: writes, syncs and the reads behind them
	active    map[int64]struct{}   // sessions active here since the last liveness message
	expiring  map[int64]bool       // leader: closes proposed, not yet applied
	closedOut []closedSession      // SessionClosed calls to make after unlocking
	restores  atomic.Int32         // SetState calls with a non-empty snapshot, for tests
	ctx       applyCtx             // reused by every delivery
	tx        txn                  // reused by every delivery
	cbOut     []outReply           // replies of the callback goroutine, reused
	start     time.Time            // monotonic origin of the sessions' local deadlines

	quit     chan struct{}
	loopDone chan struct{}

	bufs sync.Pool // of *[]byte: encoding buffers, so a write allocates none of its own
}

var (
	_ mwzookeeper.Service  = (*Service)(nil)
	_ mwzookeeper.Reporter = (*Service)(nil)
)

// New returns a fresh, unstarted Service: a mwzookeeper.Factory.
func New() mwzookeeper.Service { return &Service{} }

// defaultTimeoutTicks is the session timeout, in ticks, of a createSession
// that names none (ZooKeeper's maximum, 20 ticks).
const defaultTimeoutTicks = 20

// Start reads the peer's properties, restores the state through Zab's
// SetState and joins the ensemble: MultiZab if p names peers, SingleZab
// otherwise (A5.1, A5.2).
func (s *Service) Start(p *properties.Properties, host mwzookeeper.Host) error {
	id, err := p.Int("myid", 1)
	if err != nil {
		return err
	}
	if s.tick, err = p.Millis("tickTime", zab.DefaultTickTime); err != nil {
		return err
	}
	s.tick = max(s.tick, zab.MinTickTime)
	ext, err := readExtension(p)
	if err != nil {
		return err
	}
	s.init(host, uint64(id))
	s.ext = ext
	s.alone = !mwzookeeper.Ensemble(p)
	if s.zab, err = newZab((*callback)(s), p, host.Now); err != nil {
		return err
	}
	if err := s.zab.Startup(); err != nil {
		s.zab = nil // nothing runs: Stop has nothing to stop
		return fmt.Errorf("aufgabe5: start %s: %w", p.File(), err)
	}
	s.quit, s.loopDone = make(chan struct{}), make(chan struct{})
	go s.livenessLoop()
	return nil
}

// init makes the initial state of a replica that is not yet started:
// the initial tree, no sessions, nothing waiting (A5.1).
func (s *Service) init(host mwzookeeper.Host, myid uint64) {
	s.host, s.myid, s.start = host, myid, time.Now()
	s.log = host.Logger().WithField("peer", myid)
	s.inc = newIncarnation()
	s.watches = mwzookeeper.NewWatchTable()
	s.pending, s.syncs = map[uint64]*request{}, map[uint64]*request{}
	s.queues, s.active, s.expiring = map[int64][]*request{}, map[int64]struct{}{}, map[int64]bool{}
	s.tree, s.sessions = newTree(), map[int64]*session{}
}

func newIncarnation() uint64 {
	var b [8]byte
	for {
		_, _ = rand.Read(b[:])
		if v := binary.LittleEndian.Uint64(b[:]); v != 0 {
			return v
		}
	}
}

// Stop answers everything waiting with ConnectionLoss, shuts Zab down and
// returns once no goroutine of the service is left (A5.2).
func (s *Service) Stop() error {
	s.mu.Lock()
	if s.stopped || s.zab == nil {
		s.mu.Unlock()
		return nil
	}
	s.stopped, s.serving = true, false
	s.mu.Unlock()
	close(s.quit)
	<-s.loopDone
	err := s.zab.Shutdown() // waits for the callback goroutine: no lock held
	var out []outReply
	s.mu.Lock()
	s.failAll("replica stopped", &out)
	s.mu.Unlock()
	flush(out)
	s.host.Serving(false)
	return err
}

// Submit takes one request: writes and syncs go through Zab and are
// answered when applied; reads are answered at once unless the session
// waits for an earlier write (A5.1, A5.2).
func (s *Service) Submit(req *mwzookeeper.Request, reply func(*mwzookeeper.Response)) {
	// TODO(A5.1): route the request. Writes (req.Op.IsWrite(), the session
	// requests among them) go through Zab: submitWrite. Reads are answered
	// here, at once, from the applied state: submitLocal with s.read.
	// OpReconnect, though IsWrite, never goes through Zab (see A5.2).
	// TODO(A5.2): OpSync goes through Zab too (submitSync); OpReconnect, a
	// client coming back with its session, is answered locally
	// (submitLocal with s.reconnect).
	reply(&mwzookeeper.Response{Err: fmt.Errorf("%w: TODO(A5.1) in service.go: Service.Submit: %s", mwzookeeper.ErrUnimplemented, req.Op)})
}

// connLoss is the answer of a replica that cannot take a request now.
func connLoss(req *mwzookeeper.Request, why string) *mwzookeeper.Response {
	return &mwzookeeper.Response{Err: fmt.Errorf("%w: %s %q of session %#x: %s",
		mwzookeeper.ErrConnectionLoss, req.Op, req.Path, req.Session, why)}
}

// submitLocal answers a read (or a reconnect) from the applied state, or
// queues it behind its session's writes in flight (A5.1, A5.2, A5.3).
func (s *Service) submitLocal(req *mwzookeeper.Request, reply func(*mwzookeeper.Response),
	exec func(*mwzookeeper.Request) *mwzookeeper.Response) {
	// TODO(A5.1): answer from this replica's applied state, at once:
	// exec(req) under s.mu, and give the reply before unlocking, so that no
	// delivered write fires the read's watches (A5.6) ahead of its reply.
	// A replica that is not serving answers connLoss.
	// TODO(A5.2): a read must see its session's earlier writes: while the
	// session has writes or syncs in flight here (s.queues), queue the read
	// behind them (enqueue); answer runs it when its turn comes.
	// TODO(A5.3): a read is activity of its session (touch).
	reply(&mwzookeeper.Response{Err: fmt.Errorf("%w: TODO(A5.1) in service.go: Service.submitLocal: %s", mwzookeeper.ErrUnimplemented, req.Op)})
}

// submitWrite proposes a write request through Zab; it is answered when
// its delivery is applied here (A5.1, A5.2). The request is registered
// before the proposal, so its delivery always finds it.
func (s *Service) submitWrite(req *mwzookeeper.Request, reply func(*mwzookeeper.Response)) {
	// TODO(A5.1): propose the request itself through Zab, not its outcome:
	// every replica decides the outcome when the request is delivered
	// (applyRequest), so all decide alike. Refuse what tooLarge refuses and
	// answer connLoss while not serving. Number the request (s.nextReq) and
	// keep its reply under that number (s.pending) before proposing, so that
	// its delivery always finds it; encode it (appendRequest with the
	// header {s.myid, s.inc, reqno}) and s.zab.Propose it. A proposal that
	// fails is answered at once (failOne). A createSession's password is
	// drawn here (newPassword) and travels with the request; a timeout of 0
	// means defaultTimeoutTicks ticks (s.tick).
	// TODO(A5.2): the write takes its place in its session's queue
	// (enqueue), so the session's later reads wait for it. Behind a sync of
	// its session still in flight (behindSync) it is held, encoded, in
	// r.held and proposed once the sync is answered (release). A write
	// refused at once while its session has requests waiting is answered
	// in its turn too (queued with its reply in r.resp, r.stamp).
	reply(&mwzookeeper.Response{Err: fmt.Errorf("%w: TODO(A5.1) in service.go: Service.submitWrite: %s", mwzookeeper.ErrUnimplemented, req.Op)})
}

// tooLarge refuses data over MaxData and paths over the codec's limit
// before they are proposed: such a request can never succeed, and no
// replica should have to decode it (A5.1).
func tooLarge(req *mwzookeeper.Request) error {
	ops := append([]mwzookeeper.Op{{Path: req.Path, Data: req.Data}}, req.Ops...)
	for i := range ops {
		if len(ops[i].Data) > mwzookeeper.MaxData {
			return fmt.Errorf("%w: %d bytes of data for %q, at most %d", mwzookeeper.ErrBadArguments, len(ops[i].Data), ops[i].Path, mwzookeeper.MaxData)
		}
		if len(ops[i].Path) > maxPathLen {
			return fmt.Errorf("%w: path of %d bytes (%.32q...), at most %d", mwzookeeper.ErrBadArguments, len(ops[i].Path), ops[i].Path, maxPathLen)
		}
	}
	return nil
}

// failOne answers a write whose proposal failed, unless something else
// (LOOKING, Stop) already did (A5.1, A5.2).
func (s *Service) failOne(reqno uint64, r *request, req *mwzookeeper.Request, err error) {
	// TODO(A5.1): answer the write numbered reqno with connLoss (with
	// ErrBadArguments when Zab says zab.ErrTooLarge), unless something else
	// answered it already (it is no longer s.pending[reqno]).
	// TODO(A5.2): its reply goes out in its session's turn (r.stamp: with
	// the zxid applied by then); give the replies before unlocking, as
	// submitLocal does for reads drained here.
}

// submitSync asks Zab for a sync, answered at DeliverSync. The lock is
// held across zab.Sync (no I/O: it steps the core) so that DeliverSync
// finds the request registered (A5.2).
func (s *Service) submitSync(req *mwzookeeper.Request, reply func(*mwzookeeper.Response)) {
	// TODO(A5.2): ask Zab for a sync point (s.zab.Sync) and answer the
	// request when DeliverSync brings that cookie's Seq (s.syncs): by then
	// everything committed before the sync is applied here, so the
	// session's next read is not stale. The sync takes its place in the
	// session's queue like a write; its reply carries its path (r.path).
	reply(&mwzookeeper.Response{Err: fmt.Errorf("%w: TODO(A5.2) in service.go: Service.submitSync: sync", mwzookeeper.ErrUnimplemented)})
}

// Stats describes the replica for the four-letter words (A5.1).
func (s *Service) Stats() mwzookeeper.Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := mwzookeeper.Stats{Leader: s.leader, Zxid: s.lastZxid, Sessions: len(s.sessions)}
	if s.tree != nil {
		st.Nodes, st.Ephemerals, st.DataSize = len(s.tree.nodes), s.tree.countEphemerals(), s.tree.dataSize
	}
	if s.watches != nil {
		st.Watches = s.watches.Len()
	}
	switch {
	case !s.serving:
		st.Role = "looking"
	case s.alone:
		st.Role = "standalone"
	case s.role == roleLeading:
		st.Role = "leader"
	default:
		st.Role = "follower"
	}
	return st
}

// Details lists the sessions, ephemerals and watches for the operator's
// commands (dump, wchc, wchp).
func (s *Service) Details() mwzookeeper.Details {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := mwzookeeper.Details{Sessions: map[int64]time.Duration{}, Ephemerals: map[int64][]string{}, Watches: s.watches}
	for id, ss := range s.sessions {
		d.Sessions[id] = time.Duration(ss.timeout) * time.Millisecond
	}
	if s.tree != nil {
		for id := range s.tree.ephemerals {
			d.Ephemerals[id] = s.tree.ephemeralsOf(id)
		}
	}
	return d
}

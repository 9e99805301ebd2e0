package aufgabe5

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"

	"zablab/mwzookeeper"
	"zablab/properties"
	"zablab/zab"
)

// Service is the reference MWZooKeeper replica: a znode tree replicated
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
	switch {
	case req.Op == mwzookeeper.OpReconnect:
		s.submitLocal(req, reply, s.reconnect)
	case req.Op == mwzookeeper.OpSync:
		s.submitSync(req, reply)
	case req.Op.IsWrite():
		s.submitWrite(req, reply)
	default:
		s.submitLocal(req, reply, s.read)
	}
}

// connLoss is the answer of a replica that cannot take a request now.
func connLoss(req *mwzookeeper.Request, why string) *mwzookeeper.Response {
	return &mwzookeeper.Response{Err: fmt.Errorf("%w: %s %q of session %#x: %s",
		mwzookeeper.ErrConnectionLoss, req.Op, req.Path, req.Session, why)}
}

// submitLocal answers a read (or a reconnect) from the applied state, or
// queues it behind its session's writes in flight (A5.1, A5.2).
func (s *Service) submitLocal(req *mwzookeeper.Request, reply func(*mwzookeeper.Response),
	exec func(*mwzookeeper.Request) *mwzookeeper.Response) {
	s.mu.Lock()
	if !s.serving {
		s.mu.Unlock()
		reply(connLoss(req, "replica not serving"))
		return
	}
	if req.Op != mwzookeeper.OpReconnect {
		s.touch(req.Session)
		if req.Session != 0 && len(s.queues[req.Session]) > 0 {
			s.enqueue(&request{session: req.Session, req: req, reply: reply})
			s.mu.Unlock()
			return
		}
	} else if s.reconnectAhead(req, reply) {
		s.mu.Unlock()
		return
	}
	// The reply is given under the lock that ordered the read's watches:
	// no delivered write fires them before the read is answered.
	reply(exec(req))
	s.mu.Unlock()
}

// submitWrite proposes a write request through Zab; it is answered when
// its delivery is applied here (A5.1, A5.2). The request is registered
// before the proposal, so its delivery always finds it.
func (s *Service) submitWrite(req *mwzookeeper.Request, reply func(*mwzookeeper.Response)) {
	var password []byte
	if req.Op == mwzookeeper.OpCreateSession {
		password = newPassword()
		if req.Timeout <= 0 {
			r := *req
			r.Timeout = int32(defaultTimeoutTicks * s.tick / time.Millisecond)
			req = &r
		}
	}
	s.mu.Lock()
	if !s.serving {
		s.mu.Unlock()
		reply(connLoss(req, "replica not serving"))
		return
	}
	err := tooLarge(req)
	if err == nil {
		req, err = s.refuseTTL(req)
	}
	if err != nil {
		if req.Session != 0 && len(s.queues[req.Session]) > 0 {
			// Answered in its turn, after the session's earlier requests.
			s.enqueue(&request{session: req.Session, reply: reply, resp: &mwzookeeper.Response{Err: err}, stamp: true})
			s.mu.Unlock()
			return
		}
		zxid := s.lastZxid
		s.mu.Unlock()
		reply(&mwzookeeper.Response{Err: err, Zxid: zxid})
		return
	}
	s.nextReq++
	reqno := s.nextReq
	r := &request{write: true, session: req.Session, reply: reply, reqno: reqno}
	s.pending[reqno] = r
	if s.behindSync(req.Session) {
		r.held = appendRequest(nil, header{s.myid, s.inc, reqno}, req, password, false)
		s.enqueue(r)
		s.mu.Unlock()
		return
	}
	s.enqueue(r)
	s.mu.Unlock()

	bp, _ := s.bufs.Get().(*[]byte)
	if bp == nil {
		b := make([]byte, 0, 256)
		bp = &b
	}
	*bp = appendRequest((*bp)[:0], header{s.myid, s.inc, reqno}, req, password, false)
	_, err = s.zab.Propose(*bp)
	s.bufs.Put(bp)
	if err != nil {
		s.failOne(reqno, r, req, err)
	}
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
// (LOOKING, Stop) already did (A5.2).
func (s *Service) failOne(reqno uint64, r *request, req *mwzookeeper.Request, err error) {
	resp := connLoss(req, err.Error())
	if errors.Is(err, zab.ErrTooLarge) {
		resp.Err = fmt.Errorf("%w: %s %q of session %#x: %w", mwzookeeper.ErrBadArguments, req.Op, req.Path, req.Session, err)
	}
	var out []outReply
	s.mu.Lock()
	if s.pending[reqno] == r {
		delete(s.pending, reqno)
		r.stamp = true // given in its session's turn: stamped then
		s.answer(r, resp, &out)
	}
	flush(out) // under the lock, as submitLocal: reads drained here may have set watches
	s.mu.Unlock()
}

// submitSync asks Zab for a sync, answered at DeliverSync. The lock is
// held across zab.Sync (no I/O: it steps the core) so that DeliverSync
// finds the request registered (A5.2).
func (s *Service) submitSync(req *mwzookeeper.Request, reply func(*mwzookeeper.Response)) {
	s.mu.Lock()
	if !s.serving {
		s.mu.Unlock()
		reply(connLoss(req, "replica not serving"))
		return
	}
	s.touch(req.Session)
	c, err := s.zab.Sync()
	if err != nil {
		s.mu.Unlock()
		reply(connLoss(req, err.Error()))
		return
	}
	r := &request{write: true, sync: true, session: req.Session, reply: reply, path: strings.Clone(req.Path)}
	s.syncs[c.Seq] = r
	s.enqueue(r)
	s.mu.Unlock()
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

package zab

import (
	"errors"
	"fmt"
	"io"
	"time"

	"zablab/zab/core"
)

// Zxid is a message's place in the total order: epoch<<32 | counter.
type Zxid = core.Zxid

// Zab is one peer of an atomic broadcast, as in the course's Java library.
type Zab interface {
	// Startup restores the peer's state (SetState with the newest snapshot,
	// on the caller's goroutine) and joins the ensemble. The log suffix is
	// delivered once the peer knows it is committed. Without a snapshot
	// there is no SetState: the whole log is delivered again from its
	// start, so the callback must begin in its initial state (a new one,
	// not one reused from a run before Shutdown). Every Startup draws a
	// new incarnation for the cookies of this run.
	Startup() error
	// Shutdown stops the peer; it returns when no goroutine of it is left.
	// It may be called from any goroutine but a callback, at any time, also
	// while callbacks call Propose or Sync.
	Shutdown() error
	// Propose asks for message to be delivered everywhere, in the same
	// order. It returns at once with the cookie the delivery will carry
	// (its Zxid and Timestamp are still zero). With no established leader
	// it fails at once with ErrNoLeader. It copies message, and may be
	// called from any goroutine, also from inside every callback.
	//
	// A proposal still in flight when the peer reports LOOKING may be
	// delivered later (under the next leader, with the cookie Propose
	// returned) or never; the application must not assume either.
	Propose(message []byte) (TxnCookie, error)
	// Sync asks for DeliverSync(cookie) on this peer once everything this
	// peer proposed before the call, and everything committed anywhere
	// before it, has been delivered here (ZooKeeper's sync: a read after
	// DeliverSync sees every write ordered before the Sync, the caller's own
	// pending ones included). A Sync pending when the peer reports LOOKING
	// is dropped: its DeliverSync never comes. Like Propose it may be called
	// from anywhere, callbacks included.
	Sync() (TxnCookie, error)
}

// Callback is the application. The library calls it never concurrently,
// in order. Every callback but GetState runs on the protocol goroutine and
// blocks it: while it runs the peer neither answers its leader nor its
// followers, so a callback that takes longer than syncLimit ticks costs the
// peer its place in the ensemble. Callbacks may call Propose and Sync, but
// not Shutdown.
type Callback interface {
	// Deliver hands over the next message; message is shared with the
	// library and must not be changed.
	Deliver(id TxnCookie, message []byte)
	// DeliverSync reports that a Sync is done: id is the cookie Sync
	// returned (Sync set), with Zxid the point it waited for.
	DeliverSync(id TxnCookie)
	// Status reports LOOKING (proposals in flight may be delivered later or
	// never; pending syncs are dropped), FOLLOWING or LEADING, with the
	// leader's address ("" while LOOKING).
	Status(status Status, leader string)
	// GetState writes the state after the last delivered message. It runs
	// on a goroutine of its own, streaming to the snapshot file; no other
	// callback runs until it returns (they are held back, and the protocol
	// goes on meanwhile), so the state it sees is the one between two
	// deliveries.
	GetState(w io.Writer) error
	// SetState replaces all state with what GetState wrote at lastCommit,
	// the cookie of the last message the state contains (Proposer,
	// Incarnation and Seq are zero where the library does not know them).
	// An empty reader stands for the initial state.
	SetState(r io.Reader, lastCommit TxnCookie) error
}

// TxnCookie names one message: its place in the order, who proposed it in
// which run with which sequence number, and the leader's timestamp.
type TxnCookie struct {
	Zxid Zxid
	// Proposer is the myid of the peer whose Propose made the message;
	// Incarnation names that peer's run (every Startup draws a new random
	// non-zero one); Seq is the number Propose returned in that run.
	// (Proposer, Incarnation, Seq) names one request for ever, also across
	// restarts, so it matches a delivery to its request.
	Proposer    uint64
	Incarnation uint64
	Seq         uint64
	// Timestamp is the leader's clock when it ordered the message (Unix
	// nanoseconds), strictly increasing along the order, also across leader
	// changes and whatever the leaders' clocks say.
	Timestamp int64
	// Sync marks the cookies of Sync and DeliverSync. Syncs are numbered
	// on their own: a sync cookie never names a proposal.
	Sync bool
}

// Time returns the timestamp as a time.Time.
func (c TxnCookie) Time() time.Time { return time.Unix(0, c.Timestamp) }

func (c TxnCookie) String() string {
	kind := ""
	if c.Sync {
		kind = "sync "
	}
	return fmt.Sprintf("%s%s@%s from %d/%#x#%d", kind, c.Zxid, c.Time().UTC().Format(time.RFC3339Nano), c.Proposer, c.Incarnation, c.Seq)
}

func cookieOf(e core.Entry) TxnCookie {
	return TxnCookie{Zxid: e.Zxid, Proposer: e.Proposer, Incarnation: e.Incarnation, Seq: e.Seq, Timestamp: e.Timestamp}
}

// Status is a peer's role as the application sees it.
type Status = core.Role

// The three states of the course's library. Observers report Following.
const (
	Looking   = core.Looking
	Following = core.Following
	Leading   = core.Leading
)

// Errors of the library; each is wrapped with %w where more is said.
var (
	ErrNoLeader   = core.ErrNoLeader // Propose or Sync with no established, broadcasting leader
	ErrConfig     = errors.New("zab: bad configuration")
	ErrNotStarted = errors.New("zab: peer not started")
	ErrClosed     = errors.New("zab: peer shut down")
	ErrTooLarge   = errors.New("zab: message too large")
	ErrStorage    = errors.New("zab: storage failed")
)

// MaxMessage is the largest message Propose takes.
const MaxMessage = 16 << 20

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
	// Startup restores the peer's state (SetState with the newest snapshot)
	// and joins the ensemble. The log suffix is delivered once the peer
	// knows it is committed.
	Startup() error
	// Shutdown stops the peer; it returns when no goroutine of it is left.
	Shutdown() error
	// Propose asks for message to be delivered everywhere, in the same
	// order. It returns at once with the cookie the delivery will carry
	// (its Zxid and Timestamp are still zero). With no established leader
	// it fails at once with ErrNoLeader. It copies message, and may be
	// called from inside a callback.
	Propose(message []byte) (TxnCookie, error)
	// Sync asks for DeliverSync(cookie) on this peer after everything
	// committed anywhere before the call has been delivered here.
	Sync() (TxnCookie, error)
}

// Callback is the application. The library calls it from one goroutine,
// never concurrently, in order.
type Callback interface {
	// Deliver hands over the next message; message is shared with the
	// library and must not be changed.
	Deliver(id TxnCookie, message []byte)
	DeliverSync(id TxnCookie)
	// Status reports LOOKING (messages in flight may be lost), FOLLOWING or
	// LEADING, with the leader's address ("" while LOOKING).
	Status(status Status, leader string)
	// GetState writes the state after the last delivered message.
	GetState(w io.Writer) error
	// SetState replaces all state with what GetState wrote at lastCommit.
	// An empty reader stands for the initial state.
	SetState(r io.Reader, lastCommit TxnCookie) error
}

// TxnCookie names one message: its place in the order, who proposed it with
// which sequence number, and the leader's timestamp.
type TxnCookie struct {
	Zxid Zxid
	// Proposer is the myid of the peer whose Propose made the message; Seq
	// is the number that Propose returned there. Together they match a
	// delivery to its request.
	Proposer uint64
	Seq      uint64
	// Timestamp is the leader's clock when it ordered the message (Unix
	// nanoseconds), strictly increasing along the order, also across leader
	// changes.
	Timestamp int64
}

// Time returns the timestamp as a time.Time.
func (c TxnCookie) Time() time.Time { return time.Unix(0, c.Timestamp) }

func (c TxnCookie) String() string {
	return fmt.Sprintf("%s@%s from %d#%d", c.Zxid, c.Time().UTC().Format(time.RFC3339Nano), c.Proposer, c.Seq)
}

func cookieOf(e core.Entry) TxnCookie {
	return TxnCookie{Zxid: e.Zxid, Proposer: e.Proposer, Seq: e.Seq, Timestamp: e.Timestamp}
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

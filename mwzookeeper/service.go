package mwzookeeper

import (
	"time"

	"github.com/sirupsen/logrus"

	"zablab/properties"
)

// Service is the replicated znode service: the course's MWZooKeeper
// server side. The server runtime (package server) owns sockets, the wire
// protocol and connections; it hands every decoded request to Submit. The
// reference solution and the student's stubs implement this interface.
type Service interface {
	// Start reads the peer's properties (myid, peer<i>, dataLogDir, ...),
	// restores its state from disk and joins the ensemble. host stays valid
	// until Stop returns.
	Start(p *properties.Properties, host Host) error

	// Submit takes one request. reply must be called exactly once, at once
	// for reads and when the request's own delivery is applied for writes;
	// it may be called from inside Submit or later from any goroutine, and
	// it must not block.
	//
	// The server calls Submit for one session from one goroutine at a
	// time, in the order the client sent its requests. The Service must
	// keep that session's order visible: a request's reply reflects every
	// earlier request of the same session (a read after a write of the same
	// session sees that write), whatever the order in which reply is
	// called; the server sends replies in request order.
	Submit(req *Request, reply func(*Response))

	// Stop leaves the ensemble and releases everything; requests still
	// waiting are answered with ErrConnectionLoss. It returns when no
	// goroutine of the service is left.
	Stop() error
}

// Factory makes a fresh, unstarted Service. The conformance suite and
// the server take one, so a test can start, stop and restart replicas.
type Factory func() Service

// Host is what the server gives a Service: everything that belongs to
// connections and to the machine. Its methods may be called from any
// goroutine and never block for long.
type Host interface {
	// Now is the peer's clock. Tests skew it; a Service hands it to Zab
	// (leader timestamps) and uses it for nothing that must agree between
	// replicas.
	Now() time.Time
	// Logger is the peer's logger.
	Logger() logrus.FieldLogger
	// Notify sends a watch event to session's connection if that session
	// is connected to this server, ahead of any reply not yet sent to it.
	Notify(session int64, ev WatchEvent)
	// SessionClosed tells the server that session was closed or expired
	// (expired true) on this replica: its connection here, if any, is
	// closed and a reconnect with it is refused.
	SessionClosed(session int64, expired bool)
	// Serving tells the server whether requests can be taken: false (the
	// local Zab is LOOKING) closes every client connection and refuses new
	// ones until true again.
	Serving(ok bool)
}

// Reporter is implemented by a Service that can describe itself for the
// four-letter words (srvr, stat, mntr). A Service without it is reported
// with zeros.
type Reporter interface {
	Stats() Stats
}

// Detailer is implemented by a Service that can list its sessions,
// ephemerals and watches for the operator's commands (the four-letter
// words dump, wchc and wchp, and the admin API). Without it those answer
// with empty lists.
type Detailer interface {
	Details() Details
}

// Beyond is implemented by a Service that may also do ZooKeeper 3.8's
// calls beyond the sheet: ACLs checked on every operation (Request.Auth),
// setACL, containers and TTL nodes, persistent watches, removeWatches and
// checkWatches. Unless BeyondTheSheet says true, the server answers those
// calls ErrUnimplemented itself, so Aufgabe 5's Service never sees them;
// it sees Request.ACL and Request.Auth and may ignore them.
type Beyond interface {
	BeyondTheSheet() bool
}

// ReadOnly is implemented by a Service that can answer reads while it is
// not serving, for ZooKeeper's read-only mode (readonlymode.enabled): a
// replica cut off from its quorum keeps answering clients that asked for
// a read-only connection from the state it last applied, which may be
// stale. Without it the server never enters read-only mode.
type ReadOnly interface {
	// ReadStale answers the read req (never a write, sync or session
	// operation) from the replica's last applied state, at once, while it
	// is not serving. It leaves no watches and checks no session: req's
	// session is one of the server's own, unknown to the ensemble. ACLs
	// are checked against req.Auth.
	ReadStale(req *Request) *Response
}

// BeyondOnly says whether o is one of the operations only a Beyond Service is given, alone or
// (the creates) inside a multi.
func (o OpCode) BeyondOnly() bool {
	switch o {
	case OpSetACL, OpCreateContainer, OpCreateTTL, OpDeleteContainer, OpAddWatch, OpRemoveWatches, OpCheckWatches:
		return true
	}
	return false
}

// Details are what a Detailer lists. Maps may be nil.
type Details struct {
	Sessions   map[int64]time.Duration // session id -> its timeout
	Ephemerals map[int64][]string      // session id -> its ephemeral paths, sorted
	Watches    *WatchTable             // the replica's watches; nil if none
}

// Stats is a Service's self-description.
type Stats struct {
	Role       string // "leader", "follower", "standalone" or "looking"
	Leader     string // the leader's address, if known
	Zxid       int64  // newest applied zxid
	Nodes      int    // znodes, "/" included
	Ephemerals int
	Watches    int
	Sessions   int
	DataSize   int64 // bytes of znode data and names
}

// Config keys a Service reads from a peer's properties besides Zab's.
const (
	KeyClientPort        = "clientPort"
	KeyMaxClientCnxns    = "maxClientCnxns"
	KeyMinSessionTimeout = "minSessionTimeout"
	KeyMaxSessionTimeout = "maxSessionTimeout"

	// Beyond the sheet, named as ZooKeeper's system properties.
	// KeyExtendedTypes allows TTL nodes (ZooKeeper's default: off).
	KeyExtendedTypes = "zookeeper.extendedTypesEnabled"
	// KeyContainerInterval is how often (ms) the leader looks for empty
	// containers and expired TTL nodes (ZooKeeper's default: 60000).
	KeyContainerInterval = "znode.container.checkIntervalMs"
	// KeyReadOnlyMode lets a replica without a quorum serve read-only
	// clients (ZooKeeper's readonlymode.enabled; default: off).
	KeyReadOnlyMode = "readonlymode.enabled"
)

// Ensemble says whether p describes a member of an ensemble (it has
// peer<i> keys) rather than a lone peer: a Service then uses MultiZab,
// otherwise SingleZab.
func Ensemble(p *properties.Properties) bool {
	for _, k := range p.Keys() {
		if len(k) > 4 && k[:4] == "peer" && k[4] >= '1' && k[4] <= '9' {
			return true
		}
	}
	return false
}

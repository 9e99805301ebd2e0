package mwzookeeper

// OpCode names an operation. The values are ZooKeeper's opcodes, so the
// wire codec maps them one to one; the few that never travel on the wire
// are negative and say so.
type OpCode int32

// Operations.
const (
	OpNotification         OpCode = 0
	OpCreate               OpCode = 1
	OpDelete               OpCode = 2
	OpExists               OpCode = 3
	OpGetData              OpCode = 4
	OpSetData              OpCode = 5
	OpGetACL               OpCode = 6
	OpSetACL               OpCode = 7
	OpGetChildren          OpCode = 8
	OpSync                 OpCode = 9
	OpPing                 OpCode = 11
	OpGetChildren2         OpCode = 12
	OpCheck                OpCode = 13
	OpMulti                OpCode = 14
	OpCreate2              OpCode = 15
	OpReconfig             OpCode = 16
	OpCheckWatches         OpCode = 17
	OpRemoveWatches        OpCode = 18
	OpCreateContainer      OpCode = 19
	OpDeleteContainer      OpCode = 20
	OpCreateTTL            OpCode = 21
	OpMultiRead            OpCode = 22
	OpAuth                 OpCode = 100
	OpSetWatches           OpCode = 101
	OpSASL                 OpCode = 102
	OpGetEphemerals        OpCode = 103
	OpGetAllChildrenNumber OpCode = 104
	OpSetWatches2          OpCode = 105
	OpAddWatch             OpCode = 106
	OpWhoAmI               OpCode = 107
	OpCreateSession        OpCode = -10
	OpCloseSession         OpCode = -11
	OpError                OpCode = -1
	// OpReconnect never travels on the wire as such: the server sends it
	// when a client connects with a session id it already has.
	OpReconnect OpCode = -1000
)

var opNames = map[OpCode]string{
	OpNotification: "notification", OpCreate: "create", OpDelete: "delete", OpExists: "exists",
	OpGetData: "getData", OpSetData: "setData", OpGetACL: "getACL", OpSetACL: "setACL",
	OpGetChildren: "getChildren", OpSync: "sync", OpPing: "ping", OpGetChildren2: "getChildren2",
	OpCheck: "check", OpMulti: "multi", OpCreate2: "create2", OpReconfig: "reconfig",
	OpCheckWatches: "checkWatches", OpRemoveWatches: "removeWatches",
	OpCreateContainer: "createContainer", OpDeleteContainer: "deleteContainer",
	OpCreateTTL: "createTTL", OpMultiRead: "multiRead", OpAuth: "auth", OpSetWatches: "setWatches",
	OpSASL: "sasl", OpGetEphemerals: "getEphemerals", OpGetAllChildrenNumber: "getAllChildrenNumber",
	OpSetWatches2: "setWatches2", OpAddWatch: "addWatch", OpWhoAmI: "whoAmI",
	OpCreateSession: "createSession", OpCloseSession: "closeSession", OpError: "error",
	OpReconnect: "reconnect",
}

func (o OpCode) String() string {
	if s, ok := opNames[o]; ok {
		return s
	}
	return "op(" + itoa(int64(o)) + ")"
}

// IsWrite says whether the operation changes the replicated state, and so
// must go through Zab. Sync goes through Zab too but changes nothing.
// OpReconnect is the exception: it counts as a write for the server (a
// read-only server refuses it), but a Service answers it locally, from the
// session it already has; it must not be proposed.
func (o OpCode) IsWrite() bool {
	switch o {
	case OpCreate, OpCreate2, OpDelete, OpSetData, OpMulti, OpCreateSession, OpCloseSession,
		OpReconnect, OpCheck, OpCreateContainer, OpCreateTTL, OpSetACL, OpDeleteContainer:
		return true
	}
	return false
}

// CreateMode is a create's flags, ZooKeeper's values.
type CreateMode int32

// Create modes. Containers and TTL nodes are beyond the sheet (see
// modes.go); Aufgabe 5's service may answer them ErrUnimplemented.
const (
	Persistent           CreateMode = 0
	Ephemeral            CreateMode = 1
	PersistentSequential CreateMode = 2
	EphemeralSequential  CreateMode = 3
	Container            CreateMode = 4 // removed once its last child is gone
	PersistentTTL        CreateMode = 5 // removed once unchanged and childless for its TTL
	PersistentSeqTTL     CreateMode = 6
)

// IsEphemeral says whether nodes of this mode die with their session.
func (m CreateMode) IsEphemeral() bool { return m == Ephemeral || m == EphemeralSequential }

// IsSequential says whether this mode appends a counter to the name.
func (m CreateMode) IsSequential() bool {
	return m == PersistentSequential || m == EphemeralSequential || m == PersistentSeqTTL
}

// IsTTL says whether this mode makes a TTL node.
func (m CreateMode) IsTTL() bool { return m == PersistentTTL || m == PersistentSeqTTL }

// Valid says whether the mode is one of Aufgabe 5's four.
func (m CreateMode) Valid() bool { return m >= Persistent && m <= EphemeralSequential }

// Known says whether ZooKeeper 3.8 knows the mode (containers and TTL
// nodes included).
func (m CreateMode) Known() bool { return m >= Persistent && m <= PersistentSeqTTL }

// IsCreate says whether the operation creates a node: create, create2,
// createContainer or createTTL (the last three answer with a Stat).
func (o OpCode) IsCreate() bool {
	return o == OpCreate || o == OpCreate2 || o == OpCreateContainer || o == OpCreateTTL
}

// WatchMode is addWatch's mode, ZooKeeper's AddWatchMode.
type WatchMode int32

// addWatch's modes: a persistent watch sees its node's events and stays
// after firing; a recursive one also sees every descendant's (but no
// NodeChildrenChanged).
const (
	WatchPersistent          WatchMode = 0
	WatchPersistentRecursive WatchMode = 1
)

// WatcherType names the watches removeWatches and checkWatches are about,
// ZooKeeper's WatcherType.
type WatcherType int32

// Watcher types. ZooKeeper 3.8.0 knows only the first three; it answers
// the others MarshallingError (its WatcherType.fromInt throws).
const (
	WatcherChildren            WatcherType = 1
	WatcherData                WatcherType = 2
	WatcherAny                 WatcherType = 3
	WatcherPersistent          WatcherType = 4
	WatcherPersistentRecursive WatcherType = 5
)

// Request is one client request as the server hands it to a Service. Only
// the fields of its Op are set; the others are zero.
type Request struct {
	Op      OpCode
	Session int64 // the session it comes from (0 for OpCreateSession)
	Xid     int32 // the client's request number; for logs only

	Path    string     // every tree operation
	Data    []byte     // create, setData
	Version int32      // delete, setData, check: -1 means any version
	Mode    CreateMode // create
	Watch   bool       // exists, getData, getChildren: leave a watch
	Ops     []Op       // multi

	// Beyond the sheet (ZooKeeper 3.8; Aufgabe 5 does not need them).
	ACL         []ACL       // create, setACL: the ACL the client asks for
	TTL         int64       // createTTL: the TTL in ms; 0 for every other create
	WatchMode   WatchMode   // addWatch
	WatcherType WatcherType // removeWatches, checkWatches (3.8.0 knows 1 to 3)
	// Auth is who the connection is authenticated as: its address (ip),
	// every addauth digest, SASL's user, and ("super", "") for the super
	// user. The server sets it on every request; the slice is shared and
	// never changed: keep it, do not modify it.
	Auth []ID

	// Sessions: createSession and reconnect.
	Timeout  int32  // ms, already negotiated by the server
	Password []byte // reconnect: the password the client presents
	LastZxid int64  // the newest zxid the client has seen

	// setWatches: re-register a reconnecting client's watches; those that
	// changed after RelZxid fire at once.
	RelZxid      int64
	DataWatches  []string
	ExistWatches []string
	ChildWatches []string
	// setWatches2 (beyond the sheet): addWatch's watches, registered
	// again without an event.
	PersistentWatches []string
	RecursiveWatches  []string
}

// Op is one operation of a multi: check, create, delete or setData.
type Op struct {
	Op      OpCode // OpCheck, OpCreate (or OpCreate2), OpDelete, OpSetData; in a multiRead OpGetData, OpGetChildren
	Path    string
	Data    []byte
	Version int32
	Mode    CreateMode
	ACL     []ACL // create: the ACL the client asks for (beyond the sheet)
	TTL     int64 // create of a TTL mode: the TTL in ms (beyond the sheet)
}

// Response is the answer to a Request. Err is nil or wraps one of the
// sentinel errors; the other fields are set as the operation defines.
type Response struct {
	Zxid int64 // the newest zxid the reply reflects (ZooKeeper's reply header)
	Err  error

	Path     string   // create: the name actually created
	Stat     MWStat   // create2, exists, getData, setData, getChildren2
	Data     []byte   // getData
	Children []string // getChildren(2), sorted; getEphemerals: the session's ephemeral paths, sorted
	Results  []OpResult
	Count    int32        // getAllChildrenNumber: every node below the path
	ACL      []ACL        // getACL (with Stat)
	Identity []ClientInfo // whoAmI: the connection's authenticated identities (the server answers it)

	// createSession and reconnect.
	Session  int64
	Password []byte
	Timeout  int32
}

// ClientInfo is one identity a connection is authenticated as, as whoAmI
// reports it: the scheme ("ip", "digest") and the user in it (the
// address, the digest's user name).
type ClientInfo struct {
	Scheme, User string
}

// OpResult is one operation's outcome in a multi. A multi is all or
// nothing: when one op fails, Response.Err is that op's error, nothing is
// applied, and, as in ZooKeeper, the ops before the failing one report nil,
// the failing one its error, and the ops after it ErrRuntimeInconsistency.
// The wire codec then sends every result as an error result.
type OpResult struct {
	Op   OpCode
	Err  error
	Path string // create: the name created
	Stat MWStat // setData (and create2); multiRead's getData
	// multiRead, whose ops fail one by one (a multi is all or nothing):
	Data     []byte   // getData
	Children []string // getChildren, sorted
}

func itoa(v int64) string {
	if v == 0 {
		return "0"
	}
	neg := v < 0
	if neg {
		v = -v
	}
	var b [20]byte
	i := len(b)
	for v > 0 {
		i--
		b[i] = byte('0' + v%10)
		v /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

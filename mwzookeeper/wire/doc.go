// Package wire is ZooKeeper's client protocol as MWZooKeeper's server
// speaks it: the bytes between a real ZooKeeper client (go-zookeeper/zk,
// zkCli.sh, the C client, kazoo) and the server. The server reads frames,
// decodes them into mwzookeeper.Requests for its Service, and encodes the
// Service's mwzookeeper.Responses back; no other package touches bytes.
//
// # Frames
//
// A connection is a stream of frames in both directions: a 4-byte
// big-endian length, then that many bytes. Inside, everything is jute,
// ZooKeeper's serialization: int32 and int64 big-endian, a bool as one byte,
// a byte buffer or a string as an int32 length (-1 for null) and the bytes,
// a vector as an int32 count (-1 for null) and its elements, a record as
// its fields in order. Nothing in a frame says which record it holds: the
// reader knows from where it is in the conversation and from the opcode.
// ReadFrame reads one frame, bounded by MaxFrame; anything that does not
// decode is ErrMalformed. A request whose header decodes but whose body
// does not is also ErrBadBody, which the server answers MarshallingError
// (as ZooKeeper 3.8); for anything else malformed it closes the connection.
//
// A connection whose first four bytes are letters is not a client but a
// four-letter word (ruok, stat, mntr, ...): IsFourLetterWord tells them
// apart.
//
// # The connect handshake
//
// A client's first frame is a ConnectRequest: protocol version, the newest
// zxid it has seen, the session timeout it asks for, a session id (0 for a
// new session) and the session's password, then, in clients since ZooKeeper
// 3.4, a readOnly byte. The server answers with one ConnectResponse: the
// negotiated timeout, the session id and its 16-byte password, and the
// readOnly byte only if the client sent one. A response with session id 0
// and timeout 0 tells the client its session has expired.
//
// # Requests and replies
//
// Every later client frame is a request: RequestHeader{xid, type} followed
// by the record of that opcode (CreateRequest, GetDataRequest, ...).
// The server answers each request, in order, with
// ReplyHeader{xid, zxid, err} and, if err is 0, the response record of the
// opcode. The xid pairs the reply with its request; zxid is the newest
// transaction the server has applied, so a client knows how far it has
// seen; err is one of ZooKeeper's error codes (mwzookeeper.CodeOf). A
// failed request has no body at all.
//
// Some xids are special. A ping travels as xid -2 (XidPing) and is answered
// with a bare header of the same xid. The Java and C clients send auth
// packets with xid -4 and setWatches with xid -8 (go-zookeeper/zk uses
// ordinary xids for both). And the server sends watch events with xid -1
// (XidWatchEvent), which answer no request.
//
// getACL is answered with the only ACL nodes have here, world:anyone with
// every permission ([{31, "world", "anyone"}]), and the node's stat. A create
// with an empty or null ACL list decodes in full but returns ErrEmptyACL
// (an *EmptyACLError naming the op within a multi): ZooKeeper answers it
// InvalidACL (-114) without touching the tree.
//
// # Watch events
//
// A watch event is ReplyHeader{-1, zxid, 0} followed by
// WatcherEvent{type, state, path}: the type (created, deleted, data
// changed, children changed), the client's state (3, SyncConnected) and
// the path. The server sends it on the connection before the reply to any
// later request of that session, so a client sees the event before it can
// read the new data.
//
// # Multi
//
// A multi request is a list of ops, each preceded by
// MultiHeader{type, done=false, err=-1}, ended by MultiHeader{-1, true, -1}.
// A successful reply mirrors it: per op a MultiHeader with the op's type
// and its response record (a path for create, a path and a stat for create2,
// a stat for setData, nothing for delete and check), ended the same way.
//
// A failed multi looks unlike any other failure: the reply header says 0,
// and every result is an error result, MultiHeader{-1, false, code} and
// ErrorResponse{code}: 0 for the ops before the failing one, the cause for
// the failing op, and -2 (runtime inconsistency) for the ops after it.
// Clients take the first non-zero code as the multi's error. AppendReply
// builds that shape from a Response whose Results carry the errors.
package wire

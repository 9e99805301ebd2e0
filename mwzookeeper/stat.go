package mwzookeeper

// MWStat is a znode's metadata, ZooKeeper's Stat with its eleven fields.
// Zxids name the write that caused a change; times are the leader's clock
// in milliseconds since the Unix epoch, taken from the write's cookie.
type MWStat struct {
	Czxid          int64 // zxid of the create
	Mzxid          int64 // zxid of the last setData (or the create)
	Pzxid          int64 // zxid of the last change to the children (or the create)
	Ctime          int64 // ms, leader time of the create
	Mtime          int64 // ms, leader time of the last setData (or the create)
	Version        int32 // number of setData since the create
	Cversion       int32 // number of changes to the children
	Aversion       int32 // number of ACL changes (always 0 here: no ACLs)
	EphemeralOwner int64 // session id owning an ephemeral node, 0 otherwise
	DataLength     int32 // len(data)
	NumChildren    int32 // number of children
}

// MaxData is the largest znode data a Service takes, 1 MiB. Over the
// wire a request must also fit in one frame of ZooKeeper's jute.maxbuffer
// (1 MiB less one byte, wire.MaxFrame), header and path included, so data
// from a client stays a little below it.
const MaxData = 1 << 20

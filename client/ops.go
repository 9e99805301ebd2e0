package client

import (
	"fmt"
	"sort"

	"github.com/go-zookeeper/zk"

	"zablab/mwzookeeper"
	"zablab/mwzookeeper/wire"
)

// worldACL is the only ACL the service knows: everyone may do everything.
var worldACL = zk.WorldACL(zk.PermAll)

// statOf converts go-zk's Stat; a nil stat (a failed call) is all zeros.
func statOf(s *zk.Stat) mwzookeeper.MWStat {
	if s == nil {
		return mwzookeeper.MWStat{}
	}
	return mwzookeeper.MWStat{
		Czxid: s.Czxid, Mzxid: s.Mzxid, Pzxid: s.Pzxid,
		Ctime: s.Ctime, Mtime: s.Mtime,
		Version: s.Version, Cversion: s.Cversion, Aversion: s.Aversion,
		EphemeralOwner: s.EphemeralOwner,
		DataLength:     s.DataLength, NumChildren: s.NumChildren,
	}
}

// prepare refuses a call before it is sent: on a dead handle, with a bad
// path, or with data the service would refuse anyway.
func (z *MWZooKeeper) prepare(op, path string, sequential bool, data []byte) error {
	if err := z.check(op, path); err != nil {
		return err
	}
	if err := mwzookeeper.ValidatePath(path, sequential); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if len(data) > mwzookeeper.MaxData {
		return fmt.Errorf("%s %s: %d bytes of data, at most %d allowed: %w",
			op, path, len(data), mwzookeeper.MaxData, mwzookeeper.ErrBadArguments)
	}
	return fitsFrame(op, path, len(path)+len(data)+frameSlack)
}

// fitsFrame refuses a request of about n bytes past ZooKeeper's frame
// limit: the server, as ZooKeeper, would close the connection.
func fitsFrame(op, path string, n int) error {
	if n > wire.MaxFrame {
		return fmt.Errorf("%s %s: a request of about %d bytes, above ZooKeeper's limit of %d (jute.maxbuffer): %w",
			op, path, n, wire.MaxFrame, mwzookeeper.ErrBadArguments)
	}
	return nil
}

// frameSlack is a request's bytes besides its path and data: the header,
// lengths, version or flags, and an open ACL, rounded up.
const frameSlack = 128

// aclBytes is what acl adds to a request: each entry's perms and the
// lengths and bytes of its scheme and id.
func aclBytes(acl []mwzookeeper.ACL) int {
	n := 0
	for _, a := range acl {
		n += 12 + len(a.ID.Scheme) + len(a.ID.ID)
	}
	return n
}

// prepareACL is prepare for a create with its own ACL.
func (z *MWZooKeeper) prepareACL(path string, sequential bool, data []byte, acl []mwzookeeper.ACL) error {
	if err := z.prepare("create", path, sequential, data); err != nil {
		return err
	}
	return fitsFrame("create", path, len(path)+len(data)+frameSlack+aclBytes(acl))
}

// Create makes a persistent node, or an ephemeral one that dies with the
// session, and returns its path (the course's create).
func (z *MWZooKeeper) Create(path string, data []byte, ephemeral bool) (string, error) {
	mode := mwzookeeper.Persistent
	if ephemeral {
		mode = mwzookeeper.Ephemeral
	}
	return z.CreateMode(path, data, mode)
}

// CreateMode makes a node of any supported mode and returns the name the
// service gave it (a sequential node's name ends in ten digits).
func (z *MWZooKeeper) CreateMode(path string, data []byte, mode mwzookeeper.CreateMode) (string, error) {
	z.async.wait()
	return z.createMode(path, data, mode)
}

// createMode is CreateMode without waiting for earlier async calls (the async calls use it).
func (z *MWZooKeeper) createMode(path string, data []byte, mode mwzookeeper.CreateMode) (string, error) {
	if err := z.prepare("create", path, mode.IsSequential(), data); err != nil {
		return "", err
	}
	if !mode.Valid() {
		return "", fmt.Errorf("create %s: mode %d: %w", path, mode, mwzookeeper.ErrUnimplemented)
	}
	name, err := z.conn.Create(path, data, int32(mode), worldACL)
	return name, z.wrap("create", path, err)
}

// Delete removes a node without children if its version is version (-1:
// any version).
func (z *MWZooKeeper) Delete(path string, version int32) error {
	z.async.wait()
	return z.delete(path, version)
}

// delete is Delete without waiting for earlier async calls (the async calls use it).
func (z *MWZooKeeper) delete(path string, version int32) error {
	if err := z.prepare("delete", path, false, nil); err != nil {
		return err
	}
	return z.wrap("delete", path, z.conn.Delete(path, version))
}

// SetData replaces a node's data if its version is version (-1: any) and
// returns the new stat.
func (z *MWZooKeeper) SetData(path string, data []byte, version int32) (mwzookeeper.MWStat, error) {
	z.async.wait()
	return z.setData(path, data, version)
}

// setData is SetData without waiting for earlier async calls (the async calls use it).
func (z *MWZooKeeper) setData(path string, data []byte, version int32) (mwzookeeper.MWStat, error) {
	if err := z.prepare("setData", path, false, data); err != nil {
		return mwzookeeper.MWStat{}, err
	}
	st, err := z.conn.Set(path, data, version)
	if err != nil {
		return mwzookeeper.MWStat{}, z.wrap("setData", path, err)
	}
	return statOf(st), nil
}

// GetData returns a node's data and, if stat is not nil, fills it with
// the node's stat (the course's out parameter). Data that was never set
// is nil.
func (z *MWZooKeeper) GetData(path string, stat *mwzookeeper.MWStat) ([]byte, error) {
	z.async.wait()
	return z.getData(path, stat)
}

// getData is GetData without waiting for earlier async calls (the async calls use it).
func (z *MWZooKeeper) getData(path string, stat *mwzookeeper.MWStat) ([]byte, error) {
	if err := z.prepare("getData", path, false, nil); err != nil {
		return nil, err
	}
	data, st, err := z.conn.Get(path)
	if err != nil {
		return nil, z.wrap("getData", path, err)
	}
	if stat != nil {
		*stat = statOf(st)
	}
	return data, nil
}

// Exists says whether a node exists and returns its stat if it does. A
// missing node is not an error.
func (z *MWZooKeeper) Exists(path string) (bool, mwzookeeper.MWStat, error) {
	z.async.wait()
	return z.exists(path)
}

// exists is Exists without waiting for earlier async calls (the async calls use it).
func (z *MWZooKeeper) exists(path string) (bool, mwzookeeper.MWStat, error) {
	if err := z.prepare("exists", path, false, nil); err != nil {
		return false, mwzookeeper.MWStat{}, err
	}
	ok, st, err := z.conn.Exists(path)
	if err != nil || !ok {
		return false, mwzookeeper.MWStat{}, z.wrap("exists", path, err)
	}
	return true, statOf(st), nil
}

// GetChildren returns the names (not paths) of a node's children, sorted.
func (z *MWZooKeeper) GetChildren(path string) ([]string, error) {
	children, _, err := z.GetChildrenStat(path)
	return children, err
}

// GetChildrenStat returns a node's children, sorted, and the node's stat.
func (z *MWZooKeeper) GetChildrenStat(path string) ([]string, mwzookeeper.MWStat, error) {
	z.async.wait()
	return z.getChildrenStat(path)
}

// getChildrenStat is GetChildrenStat without waiting for earlier async calls (the async calls use it).
func (z *MWZooKeeper) getChildrenStat(path string) ([]string, mwzookeeper.MWStat, error) {
	if err := z.prepare("getChildren", path, false, nil); err != nil {
		return nil, mwzookeeper.MWStat{}, err
	}
	children, st, err := z.conn.Children(path)
	if err != nil {
		return nil, mwzookeeper.MWStat{}, z.wrap("getChildren", path, err)
	}
	sort.Strings(children)
	return children, statOf(st), nil
}

// Sync returns when the server this handle talks to has applied every
// write the service had decided when the sync was sent: a read after Sync
// sees them. Reads alone may be stale on a follower.
func (z *MWZooKeeper) Sync(path string) error {
	z.async.wait()
	return z.sync(path)
}

// sync is Sync without waiting for earlier async calls (the async calls use it).
func (z *MWZooKeeper) sync(path string) error {
	if err := z.prepare("sync", path, false, nil); err != nil {
		return err
	}
	_, err := z.conn.Sync(path)
	return z.wrap("sync", path, err)
}

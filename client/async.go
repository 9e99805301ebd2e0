package client

import "zablab/mwzookeeper"

// The async calls return at once; the call itself is made later and its
// callback receives the results. Order is the point: calls are sent in
// the order they were made and their callbacks run in that same order,
// one at a time, on a goroutine of the handle (never the caller's), as
// ZooKeeper's Java client runs callbacks on its event thread. Since
// go-zookeeper only offers blocking calls, the handle sends one async
// call at a time; for throughput, use blocking calls from several
// goroutines (they share the connection, pipelined). A callback may call
// the handle, blocking calls included. Every callback runs exactly once,
// with ErrClosed for calls made after Close. A blocking call waits until
// the async calls made before it have been answered, so calls keep call
// order also across the two kinds (an async SetData then a blocking
// SetData apply in that order); with no async call pending it does not
// wait.

// CreateAsync is CreateMode; cb gets the created name.
func (z *MWZooKeeper) CreateAsync(path string, data []byte, mode mwzookeeper.CreateMode, cb func(name string, err error)) {
	z.async.submit(func() func() {
		name, err := z.createMode(path, data, mode)
		return func() { cb(name, err) }
	})
}

// DeleteAsync is Delete.
func (z *MWZooKeeper) DeleteAsync(path string, version int32, cb func(err error)) {
	z.async.submit(func() func() {
		err := z.delete(path, version)
		return func() { cb(err) }
	})
}

// SetDataAsync is SetData; cb gets the new stat.
func (z *MWZooKeeper) SetDataAsync(path string, data []byte, version int32, cb func(stat mwzookeeper.MWStat, err error)) {
	z.async.submit(func() func() {
		st, err := z.setData(path, data, version)
		return func() { cb(st, err) }
	})
}

// GetDataAsync is GetData; cb gets the data and the stat.
func (z *MWZooKeeper) GetDataAsync(path string, cb func(data []byte, stat mwzookeeper.MWStat, err error)) {
	z.async.submit(func() func() {
		var st mwzookeeper.MWStat
		data, err := z.getData(path, &st)
		return func() { cb(data, st, err) }
	})
}

// ExistsAsync is Exists.
func (z *MWZooKeeper) ExistsAsync(path string, cb func(ok bool, stat mwzookeeper.MWStat, err error)) {
	z.async.submit(func() func() {
		ok, st, err := z.exists(path)
		return func() { cb(ok, st, err) }
	})
}

// GetChildrenAsync is GetChildrenStat.
func (z *MWZooKeeper) GetChildrenAsync(path string, cb func(children []string, stat mwzookeeper.MWStat, err error)) {
	z.async.submit(func() func() {
		children, st, err := z.getChildrenStat(path)
		return func() { cb(children, st, err) }
	})
}

// SyncAsync is Sync.
func (z *MWZooKeeper) SyncAsync(path string, cb func(err error)) {
	z.async.submit(func() func() {
		err := z.sync(path)
		return func() { cb(err) }
	})
}

// MultiAsync is Multi.
func (z *MWZooKeeper) MultiAsync(ops []mwzookeeper.Op, cb func(results []mwzookeeper.OpResult, err error)) {
	z.async.submit(func() func() {
		res, err := z.multi(ops...)
		return func() { cb(res, err) }
	})
}

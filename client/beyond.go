package client

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	_ "unsafe" // go:linkname

	"github.com/go-zookeeper/zk"

	"zablab/mwzookeeper"
)

// ZooKeeper 3.6+'s calls that go-zk v1.0.4 has no method for: whoAmI,
// getEphemerals, getAllChildrenNumber, addWatch and removeWatches. They
// go through go-zk's own request queue (its unexported (*Conn).request),
// so they share the connection's xids, ordering, reconnects and error
// codes with every other call; go-zk's encoder and decoder walk struct
// fields in order, so the structs below are the jute records
// field for field. The linkname pins us to go-zk's signature: go.mod pins
// v1.0.4, and TestBeyondCallsOnZooKeeper breaks if an update changes it.

//go:linkname connRequest github.com/go-zookeeper/zk.(*Conn).request
func connRequest(c *zk.Conn, opcode int32, req, res any, recvFunc func(unsafe0, unsafe0, error)) (int64, error)

// unsafe0 stands for go-zk's *request and *responseHeader in the
// callback's type; we always pass a nil callback.
type unsafe0 *struct{}

type (
	emptyRecord    struct{}
	pathRecord     struct{ Path string }
	stringsRecord  struct{ Paths []string }
	countRecord    struct{ Count int32 }
	errorRecord    struct{ Err int32 }
	addWatchRecord struct {
		Path string
		Mode int32
	}
	removeWatchRecord struct {
		Path string
		Type int32
	}
	whoAmIRecord struct{ Infos []mwzookeeper.ClientInfo }
)

// call sends one request the way go-zk's own methods do.
func (z *MWZooKeeper) call(op mwzookeeper.OpCode, path string, req, res any) error {
	z.async.wait()
	if err := z.check(op.String(), path); err != nil {
		return err
	}
	if path != "" {
		if err := mwzookeeper.ValidatePath(path, false); err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
	}
	_, err := connRequest(z.conn, int32(op), req, res, nil)
	return z.wrap(op.String(), path, err)
}

// WhoAmI returns the identities the connection is authenticated as: its
// address ("ip") and every identity AddAuth added.
func (z *MWZooKeeper) WhoAmI() ([]mwzookeeper.ClientInfo, error) {
	var res whoAmIRecord
	if err := z.call(mwzookeeper.OpWhoAmI, "", &emptyRecord{}, &res); err != nil {
		return nil, err
	}
	return res.Infos, nil
}

// GetEphemerals returns the paths of the session's ephemeral nodes that
// begin with prefix (a text prefix, "/" for all), sorted.
func (z *MWZooKeeper) GetEphemerals(prefix string) ([]string, error) {
	var res stringsRecord
	if err := z.call(mwzookeeper.OpGetEphemerals, prefix, &pathRecord{prefix}, &res); err != nil {
		return nil, err
	}
	sort.Strings(res.Paths)
	return res.Paths, nil
}

// GetAllChildrenNumber counts every node below path (not path itself).
func (z *MWZooKeeper) GetAllChildrenNumber(path string) (int32, error) {
	var res countRecord
	err := z.call(mwzookeeper.OpGetAllChildrenNumber, path, &pathRecord{path}, &res)
	return res.Count, err
}

// AddWatch leaves a persistent watch on path: fn sees every event of the
// node (WatchPersistent), or of the node and all its descendants except
// NodeChildrenChanged (WatchPersistentRecursive), until RemoveWatches or
// the end of the session. fn runs on the handle's receive goroutine,
// before the reply to any later call: it must not block or call the
// handle. go-zk does not re-register such watches on a new connection
// (its setWatches knows only one-shot watches), so after a connection
// loss the watch is gone on the server: fn then gets an Event whose Err
// is mwzookeeper.ErrConnectionLoss, and the caller adds it anew.
func (z *MWZooKeeper) AddWatch(path string, mode mwzookeeper.WatchMode, fn func(Event)) error {
	if mode != mwzookeeper.WatchPersistent && mode != mwzookeeper.WatchPersistentRecursive {
		return fmt.Errorf("addWatch %s: mode %d: %w", path, mode, mwzookeeper.ErrBadArguments)
	}
	pw := z.persistent.add(path, mode, fn)
	if err := z.call(mwzookeeper.OpAddWatch, path, &addWatchRecord{path, int32(mode)}, &errorRecord{}); err != nil {
		z.persistent.remove(path, pw)
		return err
	}
	return nil
}

// Events that end a watch because RemoveWatches removed it, ZooKeeper's
// values: the watch's channel or function gets one with Err nil.
const (
	EventDataWatchRemoved       mwzookeeper.EventType = 5
	EventChildWatchRemoved      mwzookeeper.EventType = 6
	EventPersistentWatchRemoved mwzookeeper.EventType = 7
)

// RemoveWatches removes the session's watches of type which on path
// (WatcherData, WatcherChildren or WatcherAny) on the server, and ends
// the handle's own with a ...WatchRemoved event, as ZooKeeper's Java
// client does. No such watch on the server: ErrorOf(-121), NoWatcher.
func (z *MWZooKeeper) RemoveWatches(path string, which mwzookeeper.WatcherType) error {
	if err := z.call(mwzookeeper.OpRemoveWatches, path, &removeWatchRecord{path, int32(which)}, &emptyRecord{}); err != nil {
		return err
	}
	if which == mwzookeeper.WatcherData || which == mwzookeeper.WatcherAny {
		z.watches.fire(path, kindData|kindExist, Event{Type: EventDataWatchRemoved, Path: path})
	}
	if which == mwzookeeper.WatcherChildren || which == mwzookeeper.WatcherAny {
		z.watches.fire(path, kindChild, Event{Type: EventChildWatchRemoved, Path: path})
	}
	if which == mwzookeeper.WatcherAny {
		for _, pw := range z.persistent.take(path) {
			pw.fn(Event{Type: EventPersistentWatchRemoved, Path: path})
		}
	}
	return nil
}

// persistentWatch is one AddWatch.
type persistentWatch struct {
	path string
	mode mwzookeeper.WatchMode
	fn   func(Event)
}

// matches says whether an event on path reaches the watch.
func (pw *persistentWatch) matches(typ zk.EventType, path string) bool {
	if path == pw.path {
		return true
	}
	under := pw.path == "/" || strings.HasPrefix(path, pw.path+"/")
	return pw.mode == mwzookeeper.WatchPersistentRecursive && under && typ != zk.EventNodeChildrenChanged
}

type persistentWatches struct {
	mu  sync.Mutex
	all []*persistentWatch
}

func (p *persistentWatches) add(path string, mode mwzookeeper.WatchMode, fn func(Event)) *persistentWatch {
	pw := &persistentWatch{path: path, mode: mode, fn: fn}
	p.mu.Lock()
	p.all = append(p.all, pw)
	p.mu.Unlock()
	return pw
}

func (p *persistentWatches) remove(path string, pw *persistentWatch) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, x := range p.all {
		if x == pw {
			p.all = append(p.all[:i:i], p.all[i+1:]...)
			return
		}
	}
}

// take forgets the watches on path and returns them.
func (p *persistentWatches) take(path string) []*persistentWatch {
	p.mu.Lock()
	defer p.mu.Unlock()
	var taken, keep []*persistentWatch
	for _, pw := range p.all {
		if pw.path == path {
			taken = append(taken, pw)
		} else {
			keep = append(keep, pw)
		}
	}
	p.all = keep
	return taken
}

// fire hands a node event to the watches it reaches, with the Seq of the
// one-shot watches it fired; fns run outside the lock, so one may call
// RemoveWatches' bookkeeping safely.
func (p *persistentWatches) fire(ev zk.Event, seq uint64) {
	p.mu.Lock()
	var hit []*persistentWatch
	for _, pw := range p.all {
		if pw.matches(ev.Type, ev.Path) {
			hit = append(hit, pw)
		}
	}
	p.mu.Unlock()
	for _, pw := range hit {
		pw.fn(Event{Type: mwzookeeper.EventType(ev.Type), Path: ev.Path, Seq: seq})
	}
}

// endAll ends every persistent watch with err(path): the connection or
// the session is gone, and the server forgot them.
func (p *persistentWatches) endAll(err func(path string) error) {
	p.mu.Lock()
	all := p.all
	p.all = nil
	p.mu.Unlock()
	for _, pw := range all {
		pw.fn(Event{Path: pw.path, Err: err(pw.path)})
	}
}

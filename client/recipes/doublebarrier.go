package recipes

import (
	"context"
	"errors"
	"fmt"

	"zablab/client"
	"zablab/mwzookeeper"
)

// DoubleBarrier lets n processes start a computation together and end it
// together: Enter returns once n have entered, Leave once all have left.
// Each process has its own name and its own DoubleBarrier.
type DoubleBarrier struct {
	zk   *client.MWZooKeeper
	dir  string
	name string
	n    int
}

// readyName is the node the n-th entrant creates to let everyone in.
const readyName = "ready"

// NewDoubleBarrier returns process name's side of the barrier at dir for
// n processes. name must not be "ready".
func NewDoubleBarrier(zk *client.MWZooKeeper, dir, name string, n int) *DoubleBarrier {
	return &DoubleBarrier{zk: zk, dir: dir, name: name, n: n}
}

// Enter registers this process (an ephemeral node, so a crash counts as
// leaving) and blocks until n processes have entered.
func (b *DoubleBarrier) Enter(ctx context.Context) error {
	if b.name == readyName {
		return fmt.Errorf("double barrier %s: the name %q is reserved: %w", b.dir, readyName, mwzookeeper.ErrBadArguments)
	}
	if err := ensurePath(b.zk, b.dir); err != nil {
		return err
	}
	ready := mwzookeeper.Join(b.dir, readyName)
	// Watch for "ready" before we count, so its creation cannot slip by.
	ok, _, ch, err := b.zk.ExistsW(ready)
	if err != nil || ok {
		if err == nil {
			_, err = b.zk.Create(mwzookeeper.Join(b.dir, b.name), nil, true)
		}
		return err
	}
	if _, err := b.zk.Create(mwzookeeper.Join(b.dir, b.name), nil, true); err != nil {
		return err
	}
	procs, err := b.processes()
	if err != nil {
		return err
	}
	if len(procs) >= b.n {
		_, err := b.zk.Create(ready, nil, false)
		if errors.Is(err, mwzookeeper.ErrNodeExists) {
			err = nil
		}
		return err
	}
	select {
	case ev := <-ch:
		return ev.Err
	case <-ctx.Done():
		_ = b.zk.Delete(mwzookeeper.Join(b.dir, b.name), -1)
		return ctx.Err()
	}
}

// Leave removes this process and blocks until every process has left;
// the last one out takes the "ready" node down for the next round.
//
// Leave waits for its own round, known by the czxid of the round's "ready"
// node, not for an empty directory: once that node is gone or replaced,
// every process of the round has left. A slow leaver that looks only after
// a fast one has entered the next round sees the newcomer's node; counting
// it, it would wait for ever while the newcomer waits in Enter for it.
//
// A lost connection ends Leave with the error; calling it again is safe.
func (b *DoubleBarrier) Leave(ctx context.Context) error {
	if err := b.zk.Delete(mwzookeeper.Join(b.dir, b.name), -1); err != nil && !errors.Is(err, mwzookeeper.ErrNoNode) {
		return err
	}
	ready := mwzookeeper.Join(b.dir, readyName)
	ok, st, err := b.zk.Exists(ready)
	if err != nil || !ok {
		return err // !ok: the last one out has already ended the round
	}
	round := st.Czxid
	for {
		over, ch, err := b.leaveStep(ready, round)
		if err != nil || over {
			return err
		}
		select {
		case ev := <-ch:
			if ev.Err != nil {
				return ev.Err
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// leaveStep looks once whether the round whose "ready" node has czxid
// round is over, and ends it if this process is the last one out. If not,
// ch fires when the directory changes ("ready" is a child too). The child
// watch is its last request: after it, Leave only waits.
func (b *DoubleBarrier) leaveStep(ready string, round int64) (over bool, ch <-chan client.Event, err error) {
	ok, st, err := b.zk.Exists(ready)
	if err != nil || !ok || st.Czxid != round {
		return true, nil, err // our round is over; the next may have begun
	}
	children, _, ch, err := b.zk.GetChildrenW(b.dir)
	if err != nil {
		return false, nil, err
	}
	others := without(children, readyName)
	if len(others) == len(children) {
		return true, nil, nil // "ready" went since Exists: the round is over
	}
	if len(others) > 0 {
		// Still ours: a next round's "ready" needs all n of the set,
		// this process included.
		return false, ch, nil
	}
	// By version: a "ready" of the next round is not ours to delete.
	err = b.zk.Delete(ready, st.Version)
	if errors.Is(err, mwzookeeper.ErrNoNode) || errors.Is(err, mwzookeeper.ErrBadVersion) {
		err = nil
	}
	return true, nil, err
}

func (b *DoubleBarrier) processes() ([]string, error) {
	children, err := b.zk.GetChildren(b.dir)
	return without(children, readyName), err
}

func without(names []string, drop string) []string {
	var out []string
	for _, n := range names {
		if n != drop {
			out = append(out, n)
		}
	}
	return out
}

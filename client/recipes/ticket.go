package recipes

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync/atomic"

	"zablab/client"
	"zablab/mwzookeeper"
)

// ticket is one contender's place in a queue of ephemeral-sequential
// nodes under dir: the common part of Lock and Election.
type ticket struct {
	zk     *client.MWZooKeeper
	dir    string
	prefix string // name prefix: "lock-" or "n-"
	node   string // our node's full path, "" when we hold no ticket

	// watching is the node we wait on, for tests of the no-herd rule.
	watching atomic.Pointer[string]
}

// ensurePath creates path and its missing parents as persistent nodes.
func ensurePath(zk *client.MWZooKeeper, path string) error {
	if path == "/" {
		return nil
	}
	if ok, _, err := zk.Exists(path); err != nil || ok {
		return err
	}
	if err := ensurePath(zk, mwzookeeper.Parent(path)); err != nil {
		return err
	}
	if _, err := zk.Create(path, nil, false); err != nil && !errors.Is(err, mwzookeeper.ErrNodeExists) {
		return err
	}
	return nil
}

// seq is the ten-digit counter the service appended to a sequential name.
func seq(name string) string {
	if len(name) < 10 {
		return name
	}
	return name[len(name)-10:]
}

// take creates our node. The name carries the session id, so after a
// connection loss during the create we can find out whether it happened.
func (t *ticket) take(data []byte) error {
	if err := ensurePath(t.zk, t.dir); err != nil {
		return err
	}
	mine := fmt.Sprintf("%s%016x-", t.prefix, t.zk.SessionID())
	for attempt := 0; attempt < 3; attempt++ {
		name, err := t.zk.CreateMode(mwzookeeper.Join(t.dir, mine), data, mwzookeeper.EphemeralSequential)
		if err == nil {
			t.node = name
			return nil
		}
		if !errors.Is(err, mwzookeeper.ErrConnectionLoss) || errors.Is(err, client.ErrClosed) {
			return err
		}
		// The create may have happened: look for our node.
		children, lerr := t.zk.GetChildren(t.dir)
		if lerr != nil {
			continue
		}
		for _, c := range children {
			if strings.HasPrefix(c, mine) {
				t.node = mwzookeeper.Join(t.dir, c)
				return nil
			}
		}
	}
	return fmt.Errorf("recipes: no node under %s after 3 connection losses: %w", t.dir, mwzookeeper.ErrConnectionLoss)
}

// queue returns the contenders' names in order.
func (t *ticket) queue() ([]string, error) {
	children, err := t.zk.GetChildren(t.dir)
	if err != nil {
		return nil, err
	}
	var mine []string
	for _, c := range children {
		if strings.HasPrefix(c, t.prefix) {
			mine = append(mine, c)
		}
	}
	sort.Slice(mine, func(i, j int) bool { return seq(mine[i]) < seq(mine[j]) })
	return mine, nil
}

// waitFirst blocks until our node is the first of the queue. It watches
// only its predecessor: when that goes, it looks again.
func (t *ticket) waitFirst(ctx context.Context) error {
	me := mwzookeeper.Base(t.node)
	for {
		q, err := t.queue()
		if err != nil {
			return err
		}
		i := sort.SearchStrings(seqs(q), seq(me))
		if i == len(q) || q[i] != me {
			// Our node is gone: the session expired or someone deleted it.
			return fmt.Errorf("recipes: %s vanished while waiting: %w", t.node, mwzookeeper.ErrNoNode)
		}
		if i == 0 {
			return nil
		}
		pred := mwzookeeper.Join(t.dir, q[i-1])
		ok, _, ch, err := t.zk.ExistsW(pred)
		if err != nil {
			return err
		}
		if !ok {
			continue // gone between the listing and the watch
		}
		t.watching.Store(&pred)
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

func seqs(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = seq(n)
	}
	return out
}

// release deletes our node (no-op without one). A node already gone
// (session expired) is released all the same.
func (t *ticket) release() error {
	if t.node == "" {
		return nil
	}
	err := t.zk.Delete(t.node, -1)
	if errors.Is(err, mwzookeeper.ErrNoNode) {
		err = nil
	}
	if err == nil {
		t.node = ""
	}
	return err
}

// acquire takes a ticket and waits for our turn; on failure or
// cancellation it withdraws the ticket.
func (t *ticket) acquire(ctx context.Context, data []byte) error {
	if t.node != "" {
		return fmt.Errorf("recipes: %s already taken by this contender: %w", t.node, mwzookeeper.ErrBadArguments)
	}
	if err := t.take(data); err != nil {
		return err
	}
	if err := t.waitFirst(ctx); err != nil {
		_ = t.release() // best effort: an expired session has no node left
		return err
	}
	return nil
}

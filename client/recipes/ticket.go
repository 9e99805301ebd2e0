package recipes

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"zablab/client"
	"zablab/mwzookeeper"
)

// ticket is one contender's place in a queue of ephemeral-sequential
// nodes under dir: the common part of Lock and Election.
type ticket struct {
	zk     *client.MWZooKeeper
	dir    string
	prefix string                 // name prefix: "lock-" or "n-"
	node   atomic.Pointer[string] // our node's full path; nil or "" when we hold no ticket

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

// take creates our node. Like Curator's protected create, the name
// carries a token unique to this call (random, 8 bytes in hex), so after a
// connection loss during the create we find the node that create made,
// and only it: several contenders may share one session. Before creating
// again after a loss, take looks for the token's node; it retries while
// ctx lives (and at most maxTakeAttempts times). When it gives up, it
// deletes any node carrying the token, in the background and best effort,
// so a lost create leaves no orphan that blocks everyone.
func (t *ticket) take(ctx context.Context, data []byte) error {
	if err := ensurePath(t.zk, t.dir); err != nil {
		return err
	}
	var tok [8]byte
	if _, err := rand.Read(tok[:]); err != nil {
		return err
	}
	mine := fmt.Sprintf("%s%s-", t.prefix, hex.EncodeToString(tok[:]))
	var err error
	for attempt := 0; attempt < maxTakeAttempts; attempt++ {
		if attempt > 0 {
			// The create may have happened: look for the token's node.
			if node, ok, lerr := t.find(mine); lerr == nil && ok {
				t.setNode(node)
				return nil
			} else if lerr != nil {
				err = lerr
				if !retriable(lerr) {
					break
				}
				if !pause(ctx) {
					break
				}
				continue
			}
		}
		var name string
		name, err = t.zk.CreateMode(mwzookeeper.Join(t.dir, mine), data, mwzookeeper.EphemeralSequential)
		if err == nil {
			t.setNode(name)
			return nil
		}
		if !retriable(err) || !pause(ctx) {
			break
		}
	}
	if errors.Is(err, mwzookeeper.ErrConnectionLoss) {
		go t.cleanup(mine)
	}
	return fmt.Errorf("recipes: no node under %s: %w", t.dir, err)
}

const maxTakeAttempts = 50

func retriable(err error) bool {
	return errors.Is(err, mwzookeeper.ErrConnectionLoss) && !errors.Is(err, client.ErrClosed)
}

// pause waits a little before a retry; false when ctx ended.
func pause(ctx context.Context) bool {
	select {
	case <-ctx.Done():
		return false
	case <-time.After(200 * time.Millisecond):
		return true
	}
}

// find looks for the child whose name starts with mine (our token).
func (t *ticket) find(mine string) (string, bool, error) {
	children, err := t.zk.GetChildren(t.dir)
	if err != nil {
		return "", false, err
	}
	for _, c := range children {
		if strings.HasPrefix(c, mine) {
			return mwzookeeper.Join(t.dir, c), true, nil
		}
	}
	return "", false, nil
}

// cleanup deletes every node carrying the token mine, retrying on
// connection loss for a while (best effort: the session may end first,
// which removes the nodes anyway).
func (t *ticket) cleanup(mine string) {
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		children, err := t.zk.GetChildren(t.dir)
		if err == nil {
			left := false
			for _, c := range children {
				if strings.HasPrefix(c, mine) {
					derr := t.zk.Delete(mwzookeeper.Join(t.dir, c), -1)
					if derr != nil && !errors.Is(derr, mwzookeeper.ErrNoNode) {
						left = true
					}
				}
			}
			if !left {
				return
			}
		} else if !retriable(err) {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
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
	me := mwzookeeper.Base(t.getNode())
	for {
		q, err := t.queue()
		if err != nil {
			return err
		}
		i := sort.SearchStrings(seqs(q), seq(me))
		if i == len(q) || q[i] != me {
			// Our node is gone: the session expired or someone deleted it.
			return fmt.Errorf("recipes: %s vanished while waiting: %w", t.getNode(), mwzookeeper.ErrNoNode)
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

func (t *ticket) getNode() string {
	if p := t.node.Load(); p != nil {
		return *p
	}
	return ""
}

func (t *ticket) setNode(n string) { t.node.Store(&n) }

// release deletes our node (no-op without one). A node already gone
// (ErrNoNode, or ErrSessionExpired: an ephemeral node ends with its
// session) is released all the same.
func (t *ticket) release() error {
	node := t.getNode()
	if node == "" {
		return nil
	}
	err := t.zk.Delete(node, -1)
	if errors.Is(err, mwzookeeper.ErrNoNode) || errors.Is(err, mwzookeeper.ErrSessionExpired) {
		err = nil // the node is gone, with the session if it expired
	}
	if err == nil {
		t.setNode("")
	}
	return err
}

// acquire takes a ticket and waits for our turn; on failure or
// cancellation it withdraws the ticket.
func (t *ticket) acquire(ctx context.Context, data []byte) error {
	if t.getNode() != "" {
		return fmt.Errorf("recipes: %s already taken by this contender: %w", t.getNode(), mwzookeeper.ErrBadArguments)
	}
	if err := t.take(ctx, data); err != nil {
		return err
	}
	if err := t.waitFirst(ctx); err != nil {
		_ = t.release() // best effort: an expired session has no node left
		return err
	}
	return nil
}

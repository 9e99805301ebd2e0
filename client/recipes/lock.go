package recipes

import (
	"context"

	"zablab/client"
)

// Lock is a distributed mutual-exclusion lock on a directory node: the
// contender whose ephemeral-sequential node under dir is lowest holds it.
// A Lock is one contender: one goroutine at a time may use it; for several
// contenders in one program, make several Locks (one session each, or the
// same session with care: the lock is per node, not per session).
type Lock struct{ t ticket }

// NewLock returns a contender for the lock at dir (created if missing).
func NewLock(zk *client.MWZooKeeper, dir string) *Lock {
	return &Lock{ticket{zk: zk, dir: dir, prefix: "lock-"}}
}

// Lock blocks until this contender holds the lock, or ctx ends (the
// contender then leaves the queue).
func (l *Lock) Lock(ctx context.Context) error { return l.t.acquire(ctx, nil) }

// Unlock releases the lock; the next contender in line gets it.
func (l *Lock) Unlock() error { return l.t.release() }

// Node is the lock's node of this contender ("" when not queued).
func (l *Lock) Node() string { return l.t.getNode() }

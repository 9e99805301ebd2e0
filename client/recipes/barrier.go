package recipes

import (
	"context"
	"errors"

	"zablab/client"
	"zablab/mwzookeeper"
)

// Barrier holds processes back until it is removed: while its node
// exists, Wait blocks. A coordinator Sets it before the work and Removes
// it when the others may go on.
type Barrier struct {
	zk   *client.MWZooKeeper
	path string
}

// NewBarrier returns the barrier at path.
func NewBarrier(zk *client.MWZooKeeper, path string) *Barrier {
	return &Barrier{zk: zk, path: path}
}

// Set raises the barrier (its parent must exist). Raising a raised
// barrier is no error.
func (b *Barrier) Set() error {
	_, err := b.zk.Create(b.path, nil, false)
	if errors.Is(err, mwzookeeper.ErrNodeExists) {
		return nil
	}
	return err
}

// Remove lowers the barrier; every Wait returns.
func (b *Barrier) Remove() error {
	err := b.zk.Delete(b.path, -1)
	if errors.Is(err, mwzookeeper.ErrNoNode) {
		return nil
	}
	return err
}

// Wait blocks while the barrier is up, or until ctx ends.
func (b *Barrier) Wait(ctx context.Context) error {
	for {
		ok, _, ch, err := b.zk.ExistsW(b.path)
		if err != nil || !ok {
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

package recipes

import (
	"context"
	"errors"
	"sort"
	"time"

	"zablab/client"
	"zablab/mwzookeeper"
)

// Queue is a distributed FIFO queue: Put appends a persistent-sequential
// node under dir, Take removes the lowest. Several producers and consumers
// may share it. Each element is delivered at least once and, without
// connection losses, exactly once (the one whose delete succeeds gets it).
// When a consumer loses the reply of its delete and then finds the node
// gone, it cannot tell whether its own delete or another consumer's
// removed it; it returns the item (at-least-once), rather than drop an
// item nobody received (at-most-once). So under a lost delete reply racing
// another consumer's delete, two consumers may get the same item.
type Queue struct {
	zk  *client.MWZooKeeper
	dir string
}

const queuePrefix = "qn-"

// NewQueue returns the queue at dir (created if missing on first Put).
func NewQueue(zk *client.MWZooKeeper, dir string) *Queue {
	return &Queue{zk: zk, dir: dir}
}

// Put appends data to the queue.
func (q *Queue) Put(data []byte) error {
	if err := ensurePath(q.zk, q.dir); err != nil {
		return err
	}
	_, err := q.zk.CreateMode(mwzookeeper.Join(q.dir, queuePrefix), data, mwzookeeper.PersistentSequential)
	return err
}

// Poll removes and returns the head of the queue; ok is false if the
// queue is empty.
func (q *Queue) Poll() (data []byte, ok bool, err error) {
	data, ok, _, err = q.poll(false)
	return data, ok, err
}

// poll is Poll that, when watch is set and the queue is empty, leaves a
// child watch and returns its channel.
func (q *Queue) poll(watch bool) ([]byte, bool, <-chan client.Event, error) {
	var (
		children []string
		ch       <-chan client.Event
		err      error
	)
	if watch {
		children, _, ch, err = q.zk.GetChildrenW(q.dir)
	} else {
		children, err = q.zk.GetChildren(q.dir)
	}
	if errors.Is(err, mwzookeeper.ErrNoNode) && !watch {
		return nil, false, nil, nil
	}
	if err != nil {
		return nil, false, nil, err
	}
	sort.Slice(children, func(i, j int) bool { return seq(children[i]) < seq(children[j]) })
	for _, c := range children {
		path := mwzookeeper.Join(q.dir, c)
		data, err := q.zk.GetData(path, nil)
		if errors.Is(err, mwzookeeper.ErrNoNode) {
			continue // another consumer took it
		}
		if err != nil {
			return nil, false, nil, err
		}
		err = q.zk.Delete(path, -1)
		if retriable(err) {
			err = q.settleLostDelete(path)
		}
		if errors.Is(err, mwzookeeper.ErrNoNode) {
			continue
		}
		if err != nil {
			return nil, false, nil, err
		}
		return data, true, nil, nil
	}
	return nil, false, ch, nil
}

// settleLostDelete decides a delete of path whose reply was lost: it
// looks (retrying on connection loss for a while) whether the node still
// exists. Gone: the delete may have been ours — ZooKeeper cannot tell — so
// the item counts as taken by us (nil: the caller returns the data it read
// before the delete). Still there: the delete did not happen; it deletes
// again. See Queue for the delivery guarantee this gives.
func (q *Queue) settleLostDelete(path string) error {
	var err error
	for attempt := 0; attempt < 50; attempt++ {
		if attempt > 0 {
			time.Sleep(200 * time.Millisecond)
		}
		var ok bool
		ok, _, err = q.zk.Exists(path)
		if retriable(err) {
			continue
		}
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		err = q.zk.Delete(path, -1)
		if !retriable(err) {
			return err
		}
	}
	return err
}

// Take removes and returns the head of the queue, waiting while it is
// empty, or until ctx ends.
func (q *Queue) Take(ctx context.Context) ([]byte, error) {
	if err := ensurePath(q.zk, q.dir); err != nil {
		return nil, err
	}
	for {
		// Watch only an empty queue: a Take that finds an item at once
		// sets no watch, so none is pending while its delete is in flight.
		// (An item put between the two listings is taken with the watch
		// pending; its own delete fires it.)
		data, ok, _, err := q.poll(false)
		if err != nil || ok {
			return data, err
		}
		data, ok, ch, err := q.poll(true) // again: an item may have come meanwhile
		if err != nil || ok {
			return data, err
		}
		if ch == nil {
			continue
		}
		select {
		case ev := <-ch:
			if ev.Err != nil {
				return nil, ev.Err
			}
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

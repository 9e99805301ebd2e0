package recipes

import (
	"context"
	"errors"
	"fmt"

	"zablab/client"
	"zablab/mwzookeeper"
)

// Election elects one leader among the candidates of a directory: the
// candidate with the lowest ephemeral-sequential node leads, and when its
// session ends (crash, close, expiry) the next one takes over. Each
// candidate's node carries its id, so anyone can ask who leads.
type Election struct {
	t  ticket
	id string
}

// NewElection returns a candidate named id for the election at dir.
func NewElection(zk *client.MWZooKeeper, dir, id string) *Election {
	return &Election{t: ticket{zk: zk, dir: dir, prefix: "n-"}, id: id}
}

// Campaign blocks until this candidate leads, or ctx ends (the candidate
// then withdraws).
func (e *Election) Campaign(ctx context.Context) error {
	return e.t.acquire(ctx, []byte(e.id))
}

// Resign gives up the lead (or the candidacy).
func (e *Election) Resign() error { return e.t.release() }

// ErrNoLeader says the election has no candidate.
var ErrNoLeader = errors.New("recipes: no leader")

// Leader returns the id of the current leader, as any session sees it;
// ErrNoLeader when there is no candidate (or no election at dir yet).
func Leader(zk *client.MWZooKeeper, dir string) (string, error) {
	t := ticket{zk: zk, dir: dir, prefix: "n-"}
	for {
		q, err := t.queue()
		if err != nil && !errors.Is(err, mwzookeeper.ErrNoNode) {
			return "", err
		}
		if len(q) == 0 {
			return "", fmt.Errorf("election %s: %w", dir, ErrNoLeader)
		}
		data, err := zk.GetData(mwzookeeper.Join(dir, q[0]), nil)
		if errors.Is(err, mwzookeeper.ErrNoNode) {
			continue // the leader just left: ask again
		}
		return string(data), err
	}
}

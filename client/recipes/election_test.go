package recipes_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"zablab/client"
	"zablab/client/internal/zktest"
	"zablab/client/recipes"
	"zablab/internal/wait"
)

// TestElection: c1 leads; c2 and c3 queue behind it and take over in
// order as the leaders' sessions end; the observer always names the
// leader.
func TestElection(t *testing.T) {
	zks := sessions(t, 4) // three candidates and an observer
	obs := zks[3]
	dir := zktest.Root(t)
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	if _, err := recipes.Leader(obs, dir); !errors.Is(err, recipes.ErrNoLeader) {
		t.Fatalf("leader before any candidate: %v, want ErrNoLeader", err)
	}
	if err := recipes.NewElection(zks[0], dir, "c1").Campaign(ctx); err != nil {
		t.Fatal(err)
	}
	won := make(chan string, 2)
	for i, id := range []string{"c2", "c3"} {
		e := recipes.NewElection(zks[i+1], dir, id)
		go func() {
			if err := e.Campaign(ctx); err != nil {
				won <- "error: " + err.Error()
				return
			}
			won <- id
		}()
		// Queue c2 before c3, so the order of succession is known.
		wait.For(t, id+" queued", deadline, func() bool {
			kids, err := obs.GetChildren(dir)
			return err == nil && len(kids) == i+2
		})
	}
	expectLeader(t, obs, dir, "c1", won)
	for i, next := range []string{"c2", "c3"} {
		zks[i].Close() // the leader's session ends
		select {
		case got := <-won:
			if got != next {
				t.Fatalf("after the leader left, %s took over, want %s", got, next)
			}
		case <-time.After(deadline):
			t.Fatalf("nobody took over; want %s", next)
		}
		expectLeader(t, obs, dir, next, won)
	}
	zks[2].Close()
	if _, err := recipes.Leader(obs, dir); !errors.Is(err, recipes.ErrNoLeader) {
		t.Fatalf("leader after every candidate left: %v, want ErrNoLeader", err)
	}
}

// expectLeader checks that the observer sees want lead, and that nobody
// else believes to have won meanwhile.
func expectLeader(t *testing.T, obs *client.MWZooKeeper, dir, want string, won <-chan string) {
	t.Helper()
	if l, err := recipes.Leader(obs, dir); err != nil || l != want {
		t.Fatalf("leader = %q, %v; want %s", l, err, want)
	}
	select {
	case r := <-won:
		t.Fatalf("%s took the lead while %s leads", r, want)
	default:
	}
}

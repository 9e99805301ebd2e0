package recipes_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"zablab/client/internal/zktest"
	"zablab/client/recipes"
	"zablab/internal/wait"
)

func TestElection(t *testing.T) {
	zks := sessions(t, 4) // three candidates and an observer
	obs := zks[3]
	dir := zktest.Root(t)
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	if _, err := recipes.Leader(obs, dir); err == nil {
		t.Fatal("a leader before any candidate")
	}
	c1 := recipes.NewElection(zks[0], dir, "c1")
	if err := c1.Campaign(ctx); err != nil {
		t.Fatal(err)
	}
	results := make(chan string, 2)
	queued := 1
	for _, c := range []struct{ i int }{{1}, {2}} {
		id := []string{"", "c2", "c3"}[c.i]
		e := recipes.NewElection(zks[c.i], dir, id)
		go func() {
			if err := e.Campaign(ctx); err != nil {
				results <- "error: " + err.Error()
				return
			}
			results <- id
			if id == "c2" {
				<-ctx.Done() // keep leading until the test ends
			}
		}()
		queued++
		// Queue c2 before c3, so the order of succession is known.
		wait.For(t, "candidate "+id+" queued", deadline, func() bool {
			kids, err := obs.GetChildren(dir)
			return err == nil && len(kids) == queued
		})
	}
	if l, err := recipes.Leader(obs, dir); err != nil || l != "c1" {
		t.Fatalf("leader = %q, %v; want c1", l, err)
	}
	select {
	case r := <-results:
		t.Fatalf("%s took the lead while c1 leads", r)
	default:
	}
	zks[0].Close() // the leader crashes
	select {
	case r := <-results:
		if r != "c2" {
			t.Fatalf("after c1: %s leads, want c2", r)
		}
	case <-time.After(deadline):
		t.Fatal("nobody took over from c1")
	}
	if l, err := recipes.Leader(obs, dir); err != nil || l != "c2" {
		t.Fatalf("leader = %q, %v; want c2", l, err)
	}
	select {
	case r := <-results:
		t.Fatalf("%s leads together with c2", r)
	default:
	}
	zks[1].Close()
	select {
	case r := <-results:
		if r != "c3" {
			t.Fatalf("after c2: %s, want c3", r)
		}
	case <-time.After(deadline):
		t.Fatal("nobody took over from c2")
	}
	if l, err := recipes.Leader(obs, dir); err != nil || l != "c3" {
		t.Fatalf("leader = %q, %v; want c3", l, err)
	}
	zks[2].Close()
	if _, err := recipes.Leader(obs, dir); !errors.Is(err, recipes.ErrNoLeader) {
		t.Fatalf("leader after every candidate left: %v, want ErrNoLeader", err)
	}
}

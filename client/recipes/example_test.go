package recipes_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"zablab/client"
	"zablab/client/recipes"
)

var servers = []string{"127.0.0.1:13181", "127.0.0.1:13281", "127.0.0.1:13381"}

// Only one process at a time runs the critical section.
func ExampleLock() {
	zk, err := client.Connect(servers, 5*time.Second)
	if err != nil {
		log.Fatal(err)
	}
	defer zk.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	l := recipes.NewLock(zk, "/locks/report")
	if err := l.Lock(ctx); err != nil {
		log.Fatal(err)
	}
	defer l.Unlock()
	fmt.Println("holding", l.Node())
}

// One of several replicas of a service acts as leader; when it dies the
// next takes over.
func ExampleElection() {
	zk, err := client.Connect(servers, 5*time.Second)
	if err != nil {
		log.Fatal(err)
	}
	defer zk.Close()
	e := recipes.NewElection(zk, "/election/scheduler", "host-1")
	if err := e.Campaign(context.Background()); err != nil {
		log.Fatal(err)
	}
	leader, _ := recipes.Leader(zk, "/election/scheduler")
	fmt.Println("leading:", leader) // host-1
}

// Producers put, consumers take, first in first out.
func ExampleQueue() {
	zk, err := client.Connect(servers, 5*time.Second)
	if err != nil {
		log.Fatal(err)
	}
	defer zk.Close()
	q := recipes.NewQueue(zk, "/jobs")
	if err := q.Put([]byte("resize img-17")); err != nil {
		log.Fatal(err)
	}
	job, err := q.Take(context.Background())
	fmt.Println(string(job), err)
}

// Workers start together once all three are there, and wait for each
// other at the end.
func ExampleDoubleBarrier() {
	zk, err := client.Connect(servers, 5*time.Second)
	if err != nil {
		log.Fatal(err)
	}
	defer zk.Close()
	b := recipes.NewDoubleBarrier(zk, "/barriers/step1", "worker-a", 3)
	ctx := context.Background()
	if err := b.Enter(ctx); err != nil {
		log.Fatal(err)
	}
	// ... the computation ...
	if err := b.Leave(ctx); err != nil {
		log.Fatal(err)
	}
}

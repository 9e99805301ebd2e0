package svctest

import (
	"fmt"
	"time"

	"zablab/mwzookeeper"
)

// statsLimit bounds a Service's Stats: it takes the Service's lock, and a
// Service that deadlocked (the usual reason it does not serve, when the
// hint that calls it is wanted) would otherwise hold the test binary
// until go test's own timeout.
const statsLimit = 2 * time.Second

// statsOf asks s for its Stats, if it reports them (ok), within
// statsLimit (else err says so; the call is left behind).
func statsOf(s mwzookeeper.Service) (st mwzookeeper.Stats, ok bool, err error) {
	r, ok := s.(mwzookeeper.Reporter)
	if !ok {
		return st, false, nil
	}
	done := make(chan mwzookeeper.Stats, 1)
	go func() { done <- r.Stats() }()
	select {
	case st = <-done:
		return st, true, nil
	case <-time.After(statsLimit):
		return st, true, fmt.Errorf("its Stats did not return within %s: a lock that is never freed?", statsLimit)
	}
}

// Package svctest runs MWZooKeeper Services in one process, over loopback,
// with real Zab peers: the harness of the reference solution's tests and of
// the conformance suite.
//
// Start builds an Ensemble of n replicas from a mwzookeeper.Factory. Each
// replica gets a real properties file (myid; peer<i> on free loopback
// ports where n is 2 or more, while a lone replica has none and runs
// SingleZab; its own data folders under DataDir, which names no test, a
// small tickTime) and a
// Host that records what the Service tells the server: watch events per
// session, closed and expired sessions, and whether it is serving. Tests
// then submit requests with Do (which fails the test instead of hanging
// when a Service never replies), stop and restart replicas, and skew a
// replica's clock.
//
//	e := svctest.Start(t, aufgabe5.New, 3, svctest.Options{})
//	s := e.Session(t, 1, 5*time.Second)
//	r := e.Do(t, 2, &mwzookeeper.Request{Op: mwzookeeper.OpCreate, Session: s, Path: "/a"})
//
// The log level of hosts and peers is WARN unless the environment variable
// ZABLAB_LOG names another (ERROR, INFO, DEBUG, ...).
package svctest

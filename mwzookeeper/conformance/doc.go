// Package conformance is the test suite that grades an MWZooKeeper
// Service, the way testing/fstest checks a file system: a package that
// implements mwzookeeper.Service hands its Factory to Run from an ordinary
// test,
//
//	func TestConformance(t *testing.T) { conformance.Run(t, aufgabe5.New) }
//
// and Run starts ensembles of that Service in the test process (real Zab
// peers over 127.0.0.1, one folder per replica in a temporary folder whose
// name says nothing of the test, through
// package internal/svctest), sends them requests as the server would, and
// checks the answers and the replicated state.
//
// # Parts and points
//
// Every test belongs to a part of Aufgabe 5 (Parts) and carries some of its
// points (Tests). The subtest of a test is TestConformance/<part>/<name>,
// so one part runs with
//
//	go test -run 'TestConformance/A5.2/' ./assignments/aufgabe5/
//
// and cmd/mwzk-grade turns the results into points (make grade).
//
// # Reading a failure
//
// A failure names the part, the request and the replica, then what was
// expected and what came back:
//
//	A5.1 create /a on replica 1: expected the created name "/a", got error "mwzookeeper: unimplemented"
//
// Tests that compare with ZooKeeper's behaviour run a script of requests
// and stop at the first answer that differs from ZooKeeper's. This
// package's own tests run the same scripts against Apache ZooKeeper where
// it is installed, so the expected answers are ZooKeeper's own. Tests with a
// random schedule log their seed and, when they fail, the command that
// replays the same schedule (MWZK_SEED=<seed>).
//
// # Deadlines
//
// No test waits without a deadline: a request unanswered for 10 s, an
// ensemble that does not serve, a Stop that does not return, each fails the
// test with a message. A part whose first request cannot be answered is
// not tried further, so the untouched stubs fail every test in seconds.
//
// # What the suite relies on
//
// Ensembles run with 100 ms ticks (a session expires in 1.5 s in the expiry
// tests), and the whole-path tests put the Service behind the real server
// (package server) and talk to it with the course's client (package
// client). Beyond that, the suite relies on the mwzookeeper.Service
// contract only: Start, Submit with exactly one reply per request, Stop;
// Host.Now for the clock (tests skew it), Host.Notify for watch events,
// Host.SessionClosed when a session expires, Host.Serving(true) once a
// replica takes requests. A read's reply zxid (Response.Zxid) is taken as
// the zxid the replica has applied. A Service that is a
// mwzookeeper.Reporter tells the suite which replica leads; otherwise the
// suite finds the leader by its clock.
package conformance

package conformance

import (
	"fmt"

	"zablab/internal/svctest"
)

// A5.1's first steps: points for a session, then for one node, long before
// the whole operation set works. Each needs only the functions of the
// request's path (Submit, Zab, Deliver, apply, reply), so a student sees
// progress after the first few TODOs instead of after fifteen.

// testSession opens two sessions and closes one.
func testSession(c *T) {
	x := c.start(1, svctest.Options{})
	a := x.session(1, longSession)
	b := x.session(1, longSession)
	if a == b {
		c.failf("two createSession requests", "two different session ids", fmt.Sprintf("both %#x", a))
	}
	x.closeSession(1, a)
}

// testFirstNode creates one node and reads it back.
func testFirstNode(c *T) {
	x := c.start(1, svctest.Options{})
	s := x.session(1, longSession)
	x.runScript("first node", 1, []step{
		{reqCreate(s, "/first", "hello", pers), wantName("/first")},
		{reqGet(s, "/first"), wantData("hello", 0)},
		{reqExists(s, "/first"), wantOK()},
	})
}

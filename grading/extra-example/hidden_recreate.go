//go:build mwzk_extra

// An example of an instructor's hidden test. mwzk-grade --extra DIR copies
// every .go file of DIR into the suite's package (as extra_<name>) and
// builds with the tag mwzk_extra, so a file like this one can use the
// suite's own helpers; in the normal tree the tag keeps it out of every
// build. make handout leaves the whole grading/ folder out.

package conformance

import (
	"zablab/internal/svctest"
	"zablab/mwzookeeper"
)

func init() {
	// addExtra adds tests to their part; their points are added to the
	// part's. Name, points, and one line of what it checks.
	addExtra(test{"A5.1", "HiddenRecreate", 3,
		"a node deleted and created again starts afresh: version 0, new czxid, and its parent counts both changes",
		testHiddenRecreate})
}

func testHiddenRecreate(c *T) {
	x := c.start(1, svctest.Options{})
	s := x.session(1, longSession)
	x.runScript("recreate script", 1, []step{
		{reqCreate(s, "/r", "", pers), wantName("/r")},
		{reqCreate(s, "/r/n", "1", pers), wantName("/r/n")},
		{reqSet(s, "/r/n", "2", 0), wantVersion(1)},
		{reqDelete(s, "/r/n", 1), wantOK()},
		{reqCreate(s, "/r/n", "3", pers), wantName("/r/n")},
		{reqGet(s, "/r/n"), wantData("3", 0)},
		{&mwzookeeper.Request{Op: mwzookeeper.OpGetChildren2, Session: s, Path: "/r"}, both(wantChildren("n"), wantChildCount(1, 3))},
	})
}

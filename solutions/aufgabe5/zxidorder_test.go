package aufgabe5

import (
	"testing"
	"time"

	"zablab/internal/svctest"
	"zablab/mwzookeeper"
)

// TestReplyZxidNeverGoesBackAfterPipelinedWrite: a session pipelines a
// create and then a setData whose data is one byte over MaxData (it fits in
// a wire frame: wire.MaxFrame = MaxData + 64 KiB). submitWrite refuses the
// second at once, BadArguments, but answers it in its turn, after the
// create, stamped with the zxid applied then. (Found in review: it was
// answered at once with the replica's lastZxid while the create was still
// in flight, so the later reply carried an older zxid.) ZooKeeper answers a session's requests in order
// from one pipeline, so reply zxids never go back; ZooKeeper's clients
// (Java ClientCnxn, go-zookeeper) store the last reply header's zxid as
// they come (no max), and present it on reconnect: this client then tells
// a lagging server it has seen less than its own create, gets in, and may
// read state without its own write. The contract: a reply reflects every
// earlier request of the same session.
func TestReplyZxidNeverGoesBackAfterPipelinedWrite(t *testing.T) {
	e := start(t, 3, svctest.Options{})
	f := follower(t, e)
	s := e.Session(t, f, time.Minute)
	for attempt := 0; attempt < 5; attempt++ {
		w0 := e.DoAsync(f, &req{Op: mwzookeeper.OpCreate, Session: s, Path: "/p", Mode: mwzookeeper.PersistentSequential})
		w1 := e.DoAsync(f, &req{Op: mwzookeeper.OpSetData, Session: s, Path: "/", Data: make([]byte, mwzookeeper.MaxData+1), Version: -1})
		r0, r1 := <-w0, <-w1
		mustOK(t, "create", r0)
		mustErr(t, "oversized setData", r1, mwzookeeper.ErrBadArguments)
		if r1.Zxid < r0.Zxid {
			t.Fatalf("attempt %d: replies in request order carry zxids %#x (create %s) then %#x (the later setData): the session's reply zxid went back",
				attempt, r0.Zxid, r0.Path, r1.Zxid)
		}
	}
}

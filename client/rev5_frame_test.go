package client_test

import (
	"fmt"
	"testing"

	"zablab/mwzookeeper"
	"zablab/mwzookeeper/wire"
)

// TestRev5MultiPastFrameRefusedBeforeSending: the change makes the client
// refuse "data that would make a request past jute.maxbuffer" (the server
// closes the connection on a longer frame). A multi is one request frame,
// but each op is checked alone: two setData ops of 600 KB each (a 1.2 MB
// frame, below go-zk's own 1.5 MB buffer) are sent, and the server closes
// the connection instead of the client answering ErrBadArguments.
func TestRev5MultiPastFrameRefusedBeforeSending(t *testing.T) {
	z := connect(t)
	r := root(t, z)
	for _, n := range []string{"/a", "/b"} {
		if _, err := z.Create(r+n, nil, false); err != nil {
			t.Fatal(err)
		}
	}
	data := make([]byte, 600<<10)
	_, err := z.Multi(
		mwzookeeper.Op{Op: mwzookeeper.OpSetData, Path: r + "/a", Data: data, Version: -1},
		mwzookeeper.Op{Op: mwzookeeper.OpSetData, Path: r + "/b", Data: data, Version: -1},
	)
	wantErr(t, fmt.Sprintf("multi of two setData ops of %d bytes (a frame of about %d > %d)", len(data), 2*len(data), wire.MaxFrame),
		err, mwzookeeper.ErrBadArguments, "")
}

// TestRev5CreateACLPastFrameRefusedBeforeSending: frameSlack (128 bytes)
// assumes an open ACL; CreateACL sends the caller's ACL, which is not
// counted. With data that passes prepare's check by a byte, four digest
// ACL entries push the frame past wire.MaxFrame, and the server closes
// the connection instead of the client answering ErrBadArguments.
func TestRev5CreateACLPastFrameRefusedBeforeSending(t *testing.T) {
	z := connect(t)
	r := root(t, z)
	p := r + "/x"
	var acl []mwzookeeper.ACL
	for i := range 4 {
		acl = append(acl, client_DigestACL(i)...)
	}
	data := make([]byte, wire.MaxFrame-128-len(p)) // prepare: n == MaxFrame, allowed
	_, err := z.CreateACL(p, data, mwzookeeper.Persistent, acl)
	wantErr(t, "create with four digest ACL entries past jute.maxbuffer", err, mwzookeeper.ErrBadArguments, "")
}

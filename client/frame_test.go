package client_test

import (
	"fmt"
	"testing"

	"zablab/client"
	"zablab/mwzookeeper"
	"zablab/mwzookeeper/wire"
)

// TestMultiPastFrameRefusedBeforeSending: the client refuses data that
// would make a request past jute.maxbuffer (the server closes the
// connection on a longer frame). A multi is one request frame: two
// setData ops of 600 KB each (1.2 MB, below go-zk's own 1.5 MB buffer)
// were sent when each op was checked alone (a review's failing test).
func TestMultiPastFrameRefusedBeforeSending(t *testing.T) {
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

// TestCreateACLPastFrameRefusedBeforeSending: frameSlack (128 bytes)
// assumes an open ACL; CreateACL sends the caller's ACL. With data that
// passes prepare's check, four digest ACL entries pushed the frame past
// wire.MaxFrame and the server closed the connection (a review's failing
// test); the entries are counted now.
func TestCreateACLPastFrameRefusedBeforeSending(t *testing.T) {
	z := connect(t)
	r := root(t, z)
	p := r + "/x"
	var acl []mwzookeeper.ACL
	for i := range 4 {
		acl = append(acl, digestACLOf(i)...)
	}
	data := make([]byte, wire.MaxFrame-128-len(p)) // prepare: n == MaxFrame, allowed
	_, err := z.CreateACL(p, data, mwzookeeper.Persistent, acl)
	wantErr(t, "create with four digest ACL entries past jute.maxbuffer", err, mwzookeeper.ErrBadArguments, "")
}

// digestACLOf is a digest ACL entry of user<i>.
func digestACLOf(i int) []mwzookeeper.ACL {
	return client.DigestACL(mwzookeeper.PermAll, fmt.Sprintf("user%d", i), "secret")
}

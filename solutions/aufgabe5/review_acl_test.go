package aufgabe5

import (
	"testing"

	"zablab/mwzookeeper"
)

// TestEveryProposedMessageDecodes: what a proposer encodes must decode at
// every replica. A create or setACL built in Go with an empty, non-nil
// ACL is encoded as a list of 0 entries, which decoder.acl refuses: the
// message is committed and then rejected everywhere (BadArguments
// "delivered message rejected") instead of answered InvalidACL.
func TestEveryProposedMessageDecodes(t *testing.T) {
	for _, req := range []*mwzookeeper.Request{
		{Op: mwzookeeper.OpCreate, Path: "/e", ACL: []mwzookeeper.ACL{}},
		{Op: mwzookeeper.OpSetACL, Path: "/", ACL: []mwzookeeper.ACL{}, Version: -1},
		{Op: mwzookeeper.OpMulti, Ops: []mwzookeeper.Op{{Op: mwzookeeper.OpCreate, Path: "/m", ACL: []mwzookeeper.ACL{}}}},
	} {
		msg := appendRequest(nil, header{1, 7, 1}, req, nil, false)
		var tx txn
		if err := decodeTxn(msg, &tx); err != nil {
			t.Errorf("%s %q with an empty ACL: the proposed message does not decode: %v", req.Op, req.Path, err)
		}
	}
}

package aufgabe5

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"zablab/mwzookeeper"
)

// TestDecodedIdentitiesFollowEachMessage: decoding reuses the previous
// message's identities where they are equal, so a message must still get
// exactly its own, whatever came before it.
func TestDecodedIdentitiesFollowEachMessage(t *testing.T) {
	ip := mwzookeeper.ID{Scheme: "ip", ID: "127.0.0.1"}
	alice := mwzookeeper.ID{Scheme: "digest", ID: "alice:x"}
	bob := mwzookeeper.ID{Scheme: "digest", ID: "bob:y"}
	var tx txn
	for i, auth := range [][]mwzookeeper.ID{
		{ip}, {ip}, {ip, alice}, {ip, alice}, {ip, bob}, {alice}, nil, {ip, alice, bob}, {ip, alice, bob}, {ip}, {bob, ip},
	} {
		req := &mwzookeeper.Request{Op: mwzookeeper.OpSetData, Path: "/a", Data: []byte("d"), Version: -1, Auth: auth}
		if err := decodeTxn(appendRequest(nil, header{1, 1, uint64(i)}, req, nil, false), &tx); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		if diff := cmp.Diff(auth, tx.auth); diff != "" {
			t.Fatalf("message %d: identities (-sent +decoded):\n%s", i, diff)
		}
	}
}

// TestRepeatedIdentitiesAllocateNothing: a replica decodes every write,
// and nearly all of them carry the identities of the one before; those
// must cost no allocation (two strings and a slice each before).
func TestRepeatedIdentitiesAllocateNothing(t *testing.T) {
	encode := func(auth []mwzookeeper.ID) []byte {
		req := &mwzookeeper.Request{Op: mwzookeeper.OpSetData, Path: "/a", Data: []byte("d"), Version: -1, Auth: auth}
		return appendRequest(nil, header{1, 1, 1}, req, nil, false)
	}
	without := encode(nil)
	with := encode([]mwzookeeper.ID{{Scheme: "ip", ID: "127.0.0.1"}, {Scheme: "digest", ID: "alice:x"}})
	var tx txn
	count := func(msg []byte) float64 {
		return testing.AllocsPerRun(100, func() {
			if err := decodeTxn(msg, &tx); err != nil {
				t.Fatal(err)
			}
		})
	}
	base, repeated := count(without), count(with)
	if repeated != base {
		t.Fatalf("decoding a write: %v allocations with repeated identities, %v without any", repeated, base)
	}
}

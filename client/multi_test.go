package client_test

import (
	"errors"
	"testing"

	"zablab/mwzookeeper"
)

func TestMulti(t *testing.T) {
	z := connect(t)
	r := root(t, z)
	res, err := z.Multi(
		mwzookeeper.Op{Op: mwzookeeper.OpCreate, Path: r + "/a", Data: []byte("a")},
		mwzookeeper.Op{Op: mwzookeeper.OpCreate, Path: r + "/s-", Mode: mwzookeeper.PersistentSequential},
		mwzookeeper.Op{Op: mwzookeeper.OpSetData, Path: r + "/a", Data: []byte("b"), Version: 0},
		mwzookeeper.Op{Op: mwzookeeper.OpCheck, Path: r + "/a", Version: 1},
	)
	if err != nil || len(res) != 4 {
		t.Fatalf("multi = %+v, %v", res, err)
	}
	if res[0].Path != r+"/a" || res[1].Path != r+"/s-0000000001" || res[2].Stat.Version != 1 {
		t.Fatalf("multi results: %+v", res)
	}

	// All or nothing: the check fails, so the create is not applied.
	res, err = z.Multi(
		mwzookeeper.Op{Op: mwzookeeper.OpCreate, Path: r + "/b"},
		mwzookeeper.Op{Op: mwzookeeper.OpCheck, Path: r + "/a", Version: 7},
		mwzookeeper.Op{Op: mwzookeeper.OpDelete, Path: r + "/a", Version: -1},
	)
	wantErr(t, "failing multi", err, mwzookeeper.ErrBadVersion, r+"/a")
	if len(res) != 3 || res[0].Err != nil || !errors.Is(res[1].Err, mwzookeeper.ErrBadVersion) ||
		!errors.Is(res[2].Err, mwzookeeper.ErrRuntimeInconsistency) {
		t.Fatalf("failing multi results: %+v", res)
	}
	if ok, _, _ := z.Exists(r + "/b"); ok {
		t.Fatal("a failed multi applied its create")
	}
	if ok, _, _ := z.Exists(r + "/a"); !ok {
		t.Fatal("a failed multi applied its delete")
	}

	_, err = z.Multi(mwzookeeper.Op{Op: mwzookeeper.OpGetData, Path: r})
	wantErr(t, "getData in a multi", err, mwzookeeper.ErrBadArguments, r)
	_, err = z.Multi(mwzookeeper.Op{Op: mwzookeeper.OpDelete, Path: "bad"})
	wantErr(t, "bad path in a multi", err, mwzookeeper.ErrBadArguments, "bad")
}

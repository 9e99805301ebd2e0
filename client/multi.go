package client

import (
	"fmt"

	"github.com/go-zookeeper/zk"

	"zablab/mwzookeeper"
)

// Multi applies ops all or nothing. On success every result is filled
// (a create's name, a setData's stat). On failure nothing is applied, the
// error is the failing op's, and the results say which op failed: nil
// before it, its error, mwzookeeper.ErrRuntimeInconsistency after it.
func (z *MWZooKeeper) Multi(ops ...mwzookeeper.Op) ([]mwzookeeper.OpResult, error) {
	z.async.wait()
	return z.multi(ops...)
}

// multi is Multi without waiting for earlier async calls (the async calls use it).
func (z *MWZooKeeper) multi(ops ...mwzookeeper.Op) ([]mwzookeeper.OpResult, error) {
	reqs, err := z.multiRequests(ops)
	if err != nil {
		return nil, err
	}
	resp, err := z.conn.Multi(reqs...)
	if err != nil && len(resp) != len(ops) {
		return nil, z.wrap("multi", firstPath(ops), err)
	}
	results := make([]mwzookeeper.OpResult, len(ops))
	var first error
	for i, r := range resp {
		res := mwzookeeper.OpResult{Op: ops[i].Op, Path: r.String, Stat: statOf(r.Stat)}
		if r.Error != nil {
			res = mwzookeeper.OpResult{Op: ops[i].Op, Err: z.wrap(ops[i].Op.String(), ops[i].Path, r.Error)}
			if first == nil {
				first = res.Err
			}
		}
		results[i] = res
	}
	if err != nil && first == nil {
		first = z.wrap("multi", firstPath(ops), err)
	}
	return results, first
}

// multiRequests checks ops and turns them into go-zk's request values.
func (z *MWZooKeeper) multiRequests(ops []mwzookeeper.Op) ([]any, error) {
	if len(ops) == 0 {
		return nil, fmt.Errorf("multi: no ops: %w", mwzookeeper.ErrBadArguments)
	}
	reqs := make([]any, len(ops))
	total := 0 // the whole multi is one request frame
	for i, op := range ops {
		name := op.Op.String()
		if err := z.prepare(name, op.Path, op.Op != mwzookeeper.OpCheck && op.Mode.IsSequential(), op.Data); err != nil {
			return nil, fmt.Errorf("multi op %d: %w", i, err)
		}
		if total += len(op.Path) + len(op.Data) + frameSlack; fitsFrame("multi", op.Path, total) != nil {
			return nil, fmt.Errorf("multi op %d: %w", i, fitsFrame("multi", op.Path, total))
		}
		switch op.Op {
		case mwzookeeper.OpCheck:
			reqs[i] = &zk.CheckVersionRequest{Path: op.Path, Version: op.Version}
		case mwzookeeper.OpCreate, mwzookeeper.OpCreate2:
			if !op.Mode.Valid() {
				return nil, fmt.Errorf("multi op %d: create %s: mode %d: %w", i, op.Path, op.Mode, mwzookeeper.ErrUnimplemented)
			}
			reqs[i] = &zk.CreateRequest{Path: op.Path, Data: op.Data, Acl: worldACL, Flags: int32(op.Mode)}
		case mwzookeeper.OpDelete:
			reqs[i] = &zk.DeleteRequest{Path: op.Path, Version: op.Version}
		case mwzookeeper.OpSetData:
			reqs[i] = &zk.SetDataRequest{Path: op.Path, Data: op.Data, Version: op.Version}
		default:
			return nil, fmt.Errorf("multi op %d on %s: %s cannot be part of a multi: %w",
				i, op.Path, op.Op, mwzookeeper.ErrBadArguments)
		}
	}
	return reqs, nil
}

func firstPath(ops []mwzookeeper.Op) string {
	if len(ops) == 0 {
		return ""
	}
	return ops[0].Path
}

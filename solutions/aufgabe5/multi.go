package aufgabe5

import (
	"fmt"

	"zablab/mwzookeeper"
)

// applyMulti applies check, create, delete and setData ops as one write,
// all or nothing (optional part: multi). The ops run against the tree
// itself, each change recorded; the first failure undoes them all, so the
// tree and the watches see nothing. The results follow ZooKeeper: on
// failure the ops before report nil, the failing op its error, the ops
// after it ErrRuntimeInconsistency, and the multi fails with the failing
// op's error.
func (s *Service) applyMulti(c *applyCtx, ops []mwzookeeper.Op) ([]mwzookeeper.OpResult, error) {
	results := make([]mwzookeeper.OpResult, len(ops))
	for i := range ops {
		o := &ops[i]
		var err error
		switch o.Op {
		case mwzookeeper.OpCheck, mwzookeeper.OpCreate, mwzookeeper.OpCreate2, mwzookeeper.OpDelete, mwzookeeper.OpSetData,
			mwzookeeper.OpCreateContainer, mwzookeeper.OpCreateTTL:
			results[i].Path, results[i].Stat, err = s.applyOp(c, o)
		case opTTLOff:
			err = ttlOff(o.Path)
		default:
			err = fmt.Errorf("%w: op %s at %d of a multi", mwzookeeper.ErrBadArguments, o.Op, i)
		}
		results[i].Op = resultOp(o)
		if err != nil {
			s.undo(c)
			return failedMulti(ops, i, err), err
		}
	}
	return results, nil
}

// failedMulti is the result list of a multi whose op at failed failed.
func failedMulti(ops []mwzookeeper.Op, failed int, err error) []mwzookeeper.OpResult {
	out := make([]mwzookeeper.OpResult, len(ops))
	for i := range ops {
		out[i].Op = resultOp(&ops[i])
		switch {
		case i == failed:
			out[i].Err = err
		case i > failed:
			out[i].Err = mwzookeeper.ErrRuntimeInconsistency
		}
	}
	return out
}

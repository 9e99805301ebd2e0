package aufgabe5

import (
	"fmt"

	"zablab/mwzookeeper"
)

// applyMulti applies check, create, delete and setData ops as one write,
// all or nothing (A5.7). The ops run against the tree
// itself, each change recorded; the first failure undoes them all, so the
// tree and the watches see nothing. The results follow ZooKeeper: on
// failure the ops before report nil, the failing op its error, the ops
// after it ErrRuntimeInconsistency, and the multi fails with the failing
// op's error.
func (s *Service) applyMulti(c *applyCtx, ops []mwzookeeper.Op) ([]mwzookeeper.OpResult, error) {
	// TODO(A5.7): apply the ops in order against the tree (applyOp); the
	// first failure undoes all of them (undo) and the multi fails with its
	// error and failedMulti's results. Each result names its op
	// (resultOp); an opTTLOff op, a TTL create its proposer refused
	// (refuseTTL, beyond the sheet), fails with ttlOff(o.Path).
	err := fmt.Errorf("%w: TODO(A5.7) in multi.go: Service.applyMulti: multi", mwzookeeper.ErrUnimplemented)
	return failedMulti(ops, 0, err), err
}

// failedMulti is the result list of a multi whose op at failed failed.
func failedMulti(ops []mwzookeeper.Op, failed int, err error) []mwzookeeper.OpResult {
	// TODO(A5.7): ZooKeeper's results of a failed multi: nil for the ops
	// before the failing one, its error for it, ErrRuntimeInconsistency for
	// the ops after it.
	out := make([]mwzookeeper.OpResult, len(ops))
	for i := range ops {
		out[i] = mwzookeeper.OpResult{Op: resultOp(&ops[i]), Err: err}
	}
	return out
}

package aufgabe5

import (
	"testing"

	"zablab/internal/svctest"
	"zablab/mwzookeeper"
	"zablab/zab"
)

// offline is a Service without Zab, fed deliveries by hand: for fuzzing
// and benchmarking apply.
func offline(tb testing.TB) (*Service, *callback) {
	tb.Helper()
	s := &Service{}
	s.init(svctest.NewHostWithLog("offline", 0, "OFF"), 1)
	return s, (*callback)(s)
}

// deliver encodes req as replica 1's request reqno and delivers it at
// zxid with leader timestamp ms.
func deliver(cb *callback, req *mwzookeeper.Request, zxid int64, reqno uint64) {
	msg := appendRequest(nil, header{1, 7, reqno}, req, []byte("0123456789abcdef"), false)
	cb.Deliver(zab.TxnCookie{Zxid: zab.Zxid(zxid), Proposer: 1, Timestamp: zxid * 1e6}, msg)
}

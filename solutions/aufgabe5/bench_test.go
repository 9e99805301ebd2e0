package aufgabe5

import (
	"bytes"
	"fmt"
	"testing"

	"zablab/mwzookeeper"
	"zablab/zab"
)

// BenchmarkApply measures apply alone (decode and apply a delivered write,
// no Zab): half creates, half setData of 100 bytes, under 100 parents.
func BenchmarkApply(b *testing.B) { benchApply(b, nil) }

// BenchmarkApplyWithIP is BenchmarkApply with the identity the server puts
// on every request (ip), so the message carries it as from a client.
func BenchmarkApplyWithIP(b *testing.B) {
	benchApply(b, []mwzookeeper.ID{{Scheme: "ip", ID: "127.0.0.1"}})
}

func benchApply(b *testing.B, auth []mwzookeeper.ID) {
	s, cb := offline(b)
	data := bytes.Repeat([]byte("x"), 100)
	for p := 0; p < 100; p++ {
		deliver(cb, &mwzookeeper.Request{Op: mwzookeeper.OpCreate, Path: fmt.Sprintf("/p%d", p)}, int64(p+1), 0)
	}
	msgs := make([][]byte, b.N)
	for i := range msgs {
		r := &mwzookeeper.Request{Op: mwzookeeper.OpCreate, Path: fmt.Sprintf("/p%d/n%d", (i/2)%100, i/2), Data: data, Auth: auth}
		if i%2 == 1 {
			r.Op, r.Version = mwzookeeper.OpSetData, -1
		}
		msgs[i] = appendRequest(nil, header{2, 1, uint64(i + 1)}, r, nil, false)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i, m := range msgs {
		cb.Deliver(zab.TxnCookie{Zxid: zab.Zxid(1000 + i), Proposer: 2, Timestamp: int64(i) * 1e6}, m)
	}
	b.StopTimer()
	if got := len(s.tree.nodes); got < b.N/2 {
		b.Fatalf("%d nodes after %d writes", got, b.N)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "writes/s")
}

// BenchmarkState measures GetState and SetState of 100,000 znodes with
// 100 bytes of data each.
func BenchmarkState(b *testing.B) {
	s, cb := offline(b)
	data := bytes.Repeat([]byte("y"), 100)
	z := int64(1)
	for p := 0; p < 100; p++ {
		deliver(cb, &mwzookeeper.Request{Op: mwzookeeper.OpCreate, Path: fmt.Sprintf("/p%d", p)}, z, 0)
		z++
		for k := 0; k < 999; k++ {
			deliver(cb, &mwzookeeper.Request{Op: mwzookeeper.OpCreate, Path: fmt.Sprintf("/p%d/n%d", p, k), Data: data}, z, 0)
			z++
		}
	}
	var snap bytes.Buffer
	b.Run("GetState", func(b *testing.B) {
		for range b.N {
			snap.Reset()
			if err := cb.GetState(&snap); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(snap.Len()), "bytes")
		b.ReportMetric(float64(len(s.tree.nodes)), "znodes")
	})
	b.Run("SetState", func(b *testing.B) {
		for range b.N {
			if err := cb.SetState(bytes.NewReader(snap.Bytes()), zab.TxnCookie{}); err != nil {
				b.Fatal(err)
			}
		}
		if len(s.tree.nodes) < 100000 {
			b.Fatalf("%d nodes after SetState", len(s.tree.nodes))
		}
	})
}

package storage

import (
	"fmt"
	"testing"

	"zablab/zab/core"
)

// BenchmarkFileLogAppendSync measures one Append of a batch of 1 KiB entries
// followed by one Sync: the cost of a group commit on this machine's disk.
// The prealloc=off case shows what preallocation saves per sync.
func BenchmarkFileLogAppendSync(b *testing.B) {
	cases := []struct {
		batch int
		opts  FileLogOptions
		name  string
	}{
		{1, FileLogOptions{}, ""},
		{64, FileLogOptions{}, ""},
		{1, FileLogOptions{PreallocBytes: -1}, "/prealloc=off"},
	}
	for _, c := range cases {
		batch := c.batch
		b.Run(fmt.Sprintf("batch=%d%s", batch, c.name), func(b *testing.B) {
			l := openLog(b, b.TempDir(), c.opts)
			defer closeLog(b, l)
			data := make([]byte, 1024)
			es := make([]core.Entry, batch)
			var z core.Zxid
			ops := 0
			b.SetBytes(int64(batch * len(data)))
			for b.Loop() {
				for i := range es {
					z++
					es[i] = core.Entry{Zxid: z, Timestamp: int64(z), Data: data}
				}
				if err := l.Append(es); err != nil {
					b.Fatal(err)
				}
				if err := l.Sync(); err != nil {
					b.Fatal(err)
				}
				ops++
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(ops*batch), "ns/entry")
			b.ReportMetric(float64(l.syncs)/float64(ops), "fsyncs/op")
		})
	}
}

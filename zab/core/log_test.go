package core

import (
	"errors"
	"io"
	"reflect"
	"testing"

	"github.com/sirupsen/logrus"
)

func quiet() *logrus.Entry {
	l := logrus.New()
	l.SetOutput(io.Discard)
	return logrus.NewEntry(l)
}

// entriesFrom makes n entries of epoch 1 with size bytes of data each.
func entriesFrom(n, size int) []Entry {
	es := make([]Entry, n)
	for i := range es {
		es[i] = Entry{Zxid: NewZxid(1, uint32(i+1)), Timestamp: int64(i + 1), Seq: uint64(i + 1), Data: make([]byte, size)}
	}
	return es
}

// diskLog is a LogSource over a fixed list, as a durable log would be.
type diskLog struct {
	es  []Entry
	err error
}

func (d diskLog) EntriesBetween(after, upto Zxid) ([]Entry, error) {
	var out []Entry
	for _, e := range d.es {
		if e.Zxid > after && e.Zxid <= upto {
			out = append(out, e)
		}
	}
	return out, d.err
}

func TestEvictKeepsTheNewestEntriesData(t *testing.T) {
	var l memLog
	all := entriesFrom(2000, 100)
	l.append(all...)
	l.evict(all[1899].Zxid, 500, 1<<20)
	if len(l.tail) != 500 || len(l.old) != 1500 {
		t.Fatalf("after evict: %d entries with data, %d by name; want 500 and 1500", len(l.tail), len(l.old))
	}
	for i, n := range l.old {
		if want := nameOf(all[i]); n != want {
			t.Fatalf("old[%d] = %+v, the evicted entry's name is %+v", i, n, want)
		}
	}
	if l.tailBytes != 500*100 {
		t.Errorf("tailBytes = %d, want %d", l.tailBytes, 500*100)
	}
	// The history's points are unchanged.
	if l.last() != all[1999].Zxid || !l.contains(all[10].Zxid) || !l.contains(all[1600].Zxid) {
		t.Errorf("history points lost by eviction: last %s", l.last())
	}
	if z, ok := l.floor(all[1200].Zxid); !ok || z != all[1200].Zxid {
		t.Errorf("floor across old = %s, %v; want %s", z, ok, all[1200].Zxid)
	}
	if _, complete := l.tailAfter(all[10].Zxid); complete {
		t.Error("tailAfter claims memory has the data of evicted entries")
	}
	if es, complete := l.tailAfter(all[1499].Zxid); !complete || len(es) != 500 {
		t.Errorf("tailAfter(first kept - 1) = %d entries, %v; want 500, true", len(es), complete)
	}
}

func TestEvictNeverDropsUndeliveredData(t *testing.T) {
	var l memLog
	all := entriesFrom(2000, 10)
	l.append(all...)
	l.evict(all[99].Zxid, 10, 1<<20)
	if len(l.old) != 100 {
		t.Fatalf("%d entries evicted with 100 delivered", len(l.old))
	}
	var b memLog
	b.append(entriesFrom(100, 1<<10)...)
	b.evict(NewZxid(1, 100), 1000, 16<<10) // bytes bound: down to 8 KiB
	if b.tailBytes > 8<<10 || len(b.tail) != 8 {
		t.Errorf("byte bound: tail keeps %d entries, %d bytes; want 8 entries, at most 8 KiB", len(b.tail), b.tailBytes)
	}
}

func TestCompactAcrossOldAndTail(t *testing.T) {
	all := entriesFrom(100, 1)
	for _, cut := range []int{10, 80} {
		var l memLog
		l.append(all...)
		l.evict(all[99].Zxid, 40, 1<<20) // 60 by name, 40 with data
		l.compact(all[cut].Zxid)
		if l.base.Zxid != all[cut].Zxid || l.size() != 99-cut || l.at(0).Zxid != all[cut+1].Zxid {
			t.Errorf("compact(%s): base %s, %d entries from %s; want %d entries", all[cut].Zxid, l.base.Zxid, l.size(), l.at(0).Zxid, 99-cut)
		}
	}
}

func TestEntriesAfterReadsDroppedDataBack(t *testing.T) {
	all := entriesFrom(100, 8)
	c := &Core{cfg: Config{Log: diskLog{es: all}}}
	c.lg = quiet()
	c.log.append(entriesFrom(100, 8)...)
	c.log.evict(all[99].Zxid, 20, 1<<20)
	if es, ok := c.entriesAfter(all[4].Zxid, 10); !ok || len(es) != 10 || es[9].Zxid != all[14].Zxid || len(es[9].Data) != 8 {
		t.Fatalf("entriesAfter with limit 10 = %d entries, %v", len(es), ok)
	}
	es, ok := c.entriesAfter(all[4].Zxid, 0)
	if !ok || len(es) != 95 || es[0].Zxid != all[5].Zxid || es[94].Zxid != all[99].Zxid {
		t.Fatalf("entriesAfter = %d entries, %v", len(es), ok)
	}
	for _, e := range es {
		if len(e.Data) != 8 {
			t.Fatalf("entry %s comes back without its data", e.Zxid)
		}
	}
	short := &Core{cfg: Config{Log: diskLog{es: all[:50]}}, lg: c.lg, log: c.log}
	if _, ok := short.entriesAfter(all[4].Zxid, 0); ok {
		t.Error("a durable log shorter than the history was taken")
	}
	broken := &Core{cfg: Config{Log: diskLog{err: errors.New("disk gone")}}, lg: c.lg, log: c.log}
	if _, ok := broken.entriesAfter(all[4].Zxid, 0); ok {
		t.Error("a failing durable log was taken")
	}
}

// A pipelined runtime reports entries durable (Advance) after they were
// delivered: memory must keep the data of every entry the disk may not
// have yet, or a follower sent them from disk would find them missing.
func TestDeliveredButNotDurableKeepsItsData(t *testing.T) {
	all := entriesFrom(100, 8)
	c := &Core{cfg: Config{Log: diskLog{es: all[:50]}, KeepEntries: 10, KeepBytes: 1 << 20}}
	c.lg = quiet()
	c.log.append(all...)
	c.Advance(Ready{Entries: all[:50]}) // the disk has the first 50
	c.advanceCommit(all[99].Zxid)       // a quorum of followers committed all 100
	if _, ok := c.log.tailAfter(all[49].Zxid); !ok {
		t.Fatal("entries above the durable log lost their data in memory")
	}
	if es, ok := c.entriesAfter(all[9].Zxid, 0); !ok || len(es) != 90 {
		t.Fatalf("entriesAfter = %d entries, %v; want the 90 after the tenth", len(es), ok)
	}
	c.Advance(Ready{Entries: all[50:]}) // the rest is on disk: memory may drop it now
	if len(c.log.tail) > 15 {
		t.Fatalf("%d entries keep their data once all are durable; want at most 15", len(c.log.tail))
	}
}

// TestOldNamesHoldNoPointers: old grows to 2·snapCount names; a pointer
// in name would make every garbage collection walk all of them.
func TestOldNamesHoldNoPointers(t *testing.T) {
	typ := reflect.TypeOf(name{})
	for i := range typ.NumField() {
		switch f := typ.Field(i); f.Type.Kind() {
		case reflect.Uint64, reflect.Int64:
		default:
			t.Errorf("name.%s is a %s: old would be scanned by the garbage collector", f.Name, f.Type)
		}
	}
}

// A durable entry that differs from memory's name only in Incarnation
// names another request (Proposer, Incarnation and Seq name one request):
// entriesAfter must refuse it rather than send it to a follower. The name
// kept in old carries Incarnation, but sameNames never compares it.
func TestEntriesAfterRefusesAnotherIncarnation(t *testing.T) {
	mem := entriesFrom(100, 8)
	disk := entriesFrom(100, 8)
	for i := range mem {
		mem[i].Proposer, mem[i].Incarnation = 7, 1
		disk[i].Proposer, disk[i].Incarnation = 7, 2
	}
	c := &Core{cfg: Config{Log: diskLog{es: disk}}}
	c.lg = quiet()
	c.log.append(mem...)
	c.log.evict(mem[99].Zxid, 20, 1<<20)
	if es, ok := c.entriesAfter(mem[4].Zxid, 0); ok {
		t.Fatalf("entriesAfter took a durable log whose entries have incarnation %d where memory names incarnation %d", es[0].Incarnation, mem[5].Incarnation)
	}
}

package core

import "testing"

// With the disk writer a quorum of followers commits, and this peer
// delivers, entries before its own fsync ends, so advanceCommit cannot drop
// their data yet. Advance, when the fsync ends, must: an ensemble that goes
// idle after a burst written during a slow fsync would otherwise keep the
// whole burst in memory, far past KeepEntries and KeepBytes.
func TestAdvanceRestoresTheMemoryBoundAfterALateFsync(t *testing.T) {
	const keep, keepBytes = 500, 8 << 20
	all := entriesFrom(4000, 4096) // 16 MiB of data, a burst during one slow fsync
	c := &Core{cfg: Config{Log: diskLog{es: all}, KeepEntries: keep, KeepBytes: keepBytes}}
	c.lg = quiet()
	c.log.append(all...)
	c.advanceCommit(all[len(all)-1].Zxid) // the followers' ACKs commit the burst first
	c.Advance(Ready{Entries: all})        // then this peer's fsync ends; the ensemble is idle
	if n, b := len(c.log.tail), c.log.tailBytes; n > keep+keep/2 || b > keepBytes {
		t.Fatalf("every entry is durable and delivered, yet memory keeps the data of %d entries (%d bytes); bound %d entries, %d bytes",
			n, b, keep+keep/2, keepBytes)
	}
}

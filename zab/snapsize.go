package zab

import (
	"fmt"
	"io"
	"math"
	"strings"

	"zablab/properties"
)

// KeySnapSizeLimit is ZooKeeper's snapSizeLimitInKb: a snapshot is taken
// once the entries delivered since the last one hold this many KiB of
// data, even before snapCount deliveries. It bounds what a restart holds
// in memory: a peer reads every entry since its newest snapshot, with its
// data, and keeps them until they are delivered again. With snapCount
// alone that was up to 100,000 entries (6.4 GB of 64 KiB values; measured:
// 4,000 such writes, a 28 MB peer, made its restart peak at 288 MB).
const KeySnapSizeLimit = "snapSizeLimitInKb"

// DefaultSnapBytes is the limit when snapSizeLimitInKb is not set: 64 MiB,
// not ZooKeeper's 4 GiB, because ZooKeeper streams its log into the tree
// at a restart and needs no memory for it, and this library does not.
const DefaultSnapBytes = 64 << 20

// maxSnapKiB is the largest snapSizeLimitInKb whose bytes fit in int64.
const maxSnapKiB = math.MaxInt64 >> 10

// readSnapSize reads snapSizeLimitInKb: a value of 0 or below turns the
// limit off, as in ZooKeeper.
func (c *Config) readSnapSize(p *properties.Properties) error {
	kb, err := p.Int(KeySnapSizeLimit, DefaultSnapBytes>>10)
	v := strings.TrimPrefix(strings.TrimSpace(p.String(KeySnapSizeLimit, "")), "+")
	// Shifted into bytes a value above maxSnapKiB would wrap around (2^54+1
	// KiB became a limit of 1 KiB); one past int's range gets the same
	// bound, not int's, which is refused here too.
	switch digits := v != "" && strings.Trim(v, "0123456789") == ""; {
	case err != nil && !digits:
		return fmt.Errorf("%w: %w", ErrConfig, err)
	case err != nil || kb > maxSnapKiB:
		return p.Errorf(KeySnapSizeLimit, ErrConfig, "%s KiB is more than a limit in bytes can hold (at most %d KiB; 0 for no limit)", v, maxSnapKiB)
	}
	c.SnapBytes = int64(kb) << 10
	if kb <= 0 {
		c.SnapBytes = -1
	}
	return nil
}

// snapBytesDue says whether the data delivered since the last snapshot
// calls for the next one: at least SnapBytes, and at least the last
// snapshot's own size, so a state larger than the limit is not written
// again for every SnapBytes of log (the log since a snapshot then stays
// below the state in memory, which the application holds anyway).
func (s *snapshotter) snapBytesDue(limit int64) bool {
	return limit > 0 && s.sinceBytes >= max(limit, s.lastSize)
}

// countingWriter counts what passes to w: the size of a snapshot as
// GetState streams it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}

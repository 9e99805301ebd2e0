package core

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/sirupsen/logrus"
)

// ErrConfig is wrapped by every configuration error.
var ErrConfig = errors.New("zab: bad configuration")

// Config describes one peer of an ensemble. Times are in ticks: the core has
// no clock; the runtime calls Tick every tickTime.
type Config struct {
	ID        uint64
	Voters    []uint64 // ids of the voting peers, this one included if it votes
	Observers []uint64 // ids of peers that receive commits but never vote

	InitLimit int // ticks a new leader and its followers have to finish discovery and synchronization
	SyncLimit int // ticks without hearing from the other side before a link counts as dead
	// TickTime is a tick's length. It says durations in log lines (zero:
	// they are counted in ticks) and sets FinalizeWait's default.
	TickTime time.Duration
	// FinalizeWait is how long an election waits, once a quorum agrees on
	// this peer's vote, for a better vote before it decides; measured on
	// the clock handed to Tick, Step and Wake (nanoseconds, like every
	// now). Zero means min(200ms, TickTime), ZooKeeper's finalize wait; with
	// TickTime zero too, the election decides at the next tick instead.
	FinalizeWait time.Duration

	// Incarnation names this run of the peer; it goes into every Entry the
	// peer proposes, so (ID, Incarnation, seq) never repeats across
	// restarts. The runtime draws it at random for every start.
	Incarnation uint64

	// MaxCounter is the largest counter a leader hands out before it must
	// start a new epoch; zero means 0xffffffff. Tests set it small.
	MaxCounter uint32

	// Rand draws session nonces; seeded by the caller, so a simulation replays.
	Rand *rand.Rand
	// Snapshots gives the newest snapshot when a follower needs SNAP.
	Snapshots SnapshotSource
	// Log gives back the data of delivered entries the core no longer
	// keeps in memory: it keeps KeepEntries entries (default 500, as
	// ZooKeeper's committed log) and at most KeepBytes of their data
	// (default 8 MiB) with data, the older ones by name only. Nil keeps
	// every entry's data back to the snapshot before last.
	Log         LogSource
	KeepEntries int
	KeepBytes   int
	// MaxBatchBytes bounds the data in one message (default 8 MiB, far
	// below the transport's frame limit); an entry larger than it travels
	// alone. The simulator sets it small, so that a follower's history
	// arrives in several parts.
	MaxBatchBytes int
	Logger        logrus.FieldLogger

	// Bugs switches on known protocol bugs, so tests can prove the
	// simulator catches them. Never set outside tests.
	Bugs Bugs
}

const (
	defaultMaxCounter  = 0xffffffff
	defaultKeepEntries = 500
	defaultKeepBytes   = 8 << 20
	defaultBatchBytes  = 8 << 20
	finalizeTicks      = 1 // ticks a peer waits after a quorum agrees, without FinalizeWait
	defaultFinalize    = 200 * time.Millisecond
	resendTicks        = 2 // ticks between retransmissions of unanswered protocol steps
)

func (c *Config) validate() error {
	if c.ID == 0 {
		return fmt.Errorf("%w: peer id must be positive", ErrConfig)
	}
	if len(c.Voters) == 0 {
		return fmt.Errorf("%w: no voting peers", ErrConfig)
	}
	seen := map[uint64]bool{}
	for _, id := range append(append([]uint64{}, c.Voters...), c.Observers...) {
		if id == 0 || seen[id] {
			return fmt.Errorf("%w: peer id %d is zero or listed twice", ErrConfig, id)
		}
		seen[id] = true
	}
	if !seen[c.ID] {
		return fmt.Errorf("%w: peer %d is neither voter nor observer", ErrConfig, c.ID)
	}
	if c.InitLimit < 2 || c.SyncLimit < 2 {
		return fmt.Errorf("%w: initLimit and syncLimit must be at least 2 ticks", ErrConfig)
	}
	if c.Rand == nil {
		return fmt.Errorf("%w: no random source", ErrConfig)
	}
	if c.FinalizeWait < 0 {
		return fmt.Errorf("%w: finalize wait %v is negative", ErrConfig, c.FinalizeWait)
	}
	if c.FinalizeWait == 0 && c.TickTime > 0 {
		c.FinalizeWait = min(defaultFinalize, c.TickTime)
	}
	if c.MaxCounter == 0 {
		c.MaxCounter = defaultMaxCounter
	}
	if c.KeepEntries <= 0 {
		c.KeepEntries = defaultKeepEntries
	}
	if c.KeepBytes <= 0 {
		c.KeepBytes = defaultKeepBytes
	}
	if c.MaxBatchBytes <= 0 {
		c.MaxBatchBytes = defaultBatchBytes
	}
	if c.Logger == nil {
		l := logrus.New()
		l.SetOutput(io.Discard)
		c.Logger = l
	}
	return nil
}

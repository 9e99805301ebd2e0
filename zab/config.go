package zab

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"zablab/logging"
	"zablab/properties"
)

// Peer is one member of the ensemble: peer<i>=host:port[:observer].
type Peer struct {
	ID       uint64
	Addr     string
	Observer bool
}

// Config is a peer's configuration. ConfigFromProperties reads it from a
// properties file; the defaults are ZooKeeper's.
type Config struct {
	ID          uint64        // myid
	Peers       []Peer        // peer<i>, ascending by id; empty for SingleZab
	DataLogDir  string        // dataLogDir: the transaction log (required)
	DataSnapDir string        // dataSnapDir: snapshots and epochs (default: dataLogDir)
	TickTime    time.Duration // tickTime in ms (default 2000)
	InitLimit   int           // initLimit in ticks (default 10)
	SyncLimit   int           // syncLimit in ticks (default 5)
	SnapCount   int           // snapCount: deliveries between snapshots (default 100000)
	// SnapBytes (snapSizeLimitInKb, in KiB in the file): data delivered
	// between snapshots, at the most (default DefaultSnapBytes; below
	// zero: no limit). See KeySnapSizeLimit.
	SnapBytes int64
	// SkipFsync (forceSync=no; the default is yes) makes the log's group
	// commit write without fsync, as ZooKeeper's forceSync=no: an ACK then
	// vouches for the page cache, not the disk, so a machine crash (not a
	// process crash) can lose acknowledged writes. For benchmarks that
	// leave the disk out; see storage.FileLog.SetForceSync.
	SkipFsync bool
	// TraceFile (trace.file) is where the peer writes its trace for
	// zab-trace (package zab/trace); empty: no trace. TraceMaxBytes
	// (trace.maxMB, in MiB, default 64) bounds the file.
	TraceFile     string
	TraceMaxBytes int64
	Logger        logrus.FieldLogger
	// Now is the clock of the leader's timestamps (nil: time.Now). Whatever
	// it says, timestamps strictly increase along the order: a leader uses
	// max(Now, last timestamp + 1 ns). Ticks use the real clock. Now must be
	// safe for concurrent use: Propose calls it on the application's
	// goroutines, the peer's goroutine on its own.
	Now func() time.Time

	logFile *onceCloser // the log output ConfigFromProperties opened; nil if none
	// from is the file ConfigFromProperties read (nil for a Config built
	// in code): Startup's errors about a key's value (an unusable
	// trace.file) name its file and line as the reader's errors do.
	from *properties.Properties
}

// keyErr is an error about key's value that shows only when the peer
// starts (a trace file that cannot be created): a *properties.Error
// wrapping ErrConfig, naming the file and line when the Config came from
// one, so that a caller tells a wrong file (mwzk-server exits 2) from a
// failure outside it (exit 1), as it does for the reader's errors.
func (c *Config) keyErr(key, format string, args ...any) error {
	if c.from != nil {
		return c.from.Errorf(key, ErrConfig, format, args...)
	}
	return &properties.Error{Key: key, Msg: fmt.Sprintf(format, args...), Err: ErrConfig}
}

// Close closes the log output ConfigFromProperties opened, for a Config
// that is never handed to a peer. A peer built from the Config closes it in
// Shutdown, also after a failed Startup (which leaves it open, so a retried
// Startup still logs); closing twice is harmless.
func (c Config) Close() error { return c.closeLog() }

func (c Config) closeLog() error {
	if c.logFile == nil {
		return nil
	}
	return c.logFile.Close()
}

// onceCloser closes its io.Closer on the first call only: a Config is
// copied by value, and both the peer and its builder may close it.
type onceCloser struct {
	once sync.Once
	c    io.Closer
	err  error
}

func (o *onceCloser) Close() error {
	o.once.Do(func() { o.err = o.c.Close() })
	return o.err
}

// Defaults, as in ZooKeeper.
const (
	DefaultTickTime  = 2000 * time.Millisecond
	DefaultInitLimit = 10
	DefaultSyncLimit = 5
	DefaultSnapCount = 100000
	MinTickTime      = 10 * time.Millisecond
)

// ConfigFromProperties reads a peer's configuration. Every bad key or value
// is an error naming the key, the file and the line, as is a key that
// differs from a known one only in case; an unknown key is logged as a
// warning naming file and line (see KnownKeys), and so is a key the file
// defines more than once (the last definition wins, as in Java; see
// properties.Redefined). single says the peer runs
// alone: then myid defaults to 1 and peer<i> keys are not needed.
//
// The Config carries the log output the logging keys name (a file is
// opened here): a peer built from it closes it in Shutdown; call
// Config.Close for a Config never used.
func ConfigFromProperties(p *properties.Properties, single bool) (Config, error) {
	c := Config{from: p}
	if err := CheckKeys(p); err != nil {
		return c, err
	}
	if err := c.readIdentity(p, single); err != nil {
		return c, err
	}
	if err := c.readTuning(p); err != nil {
		return c, err
	}
	c.DataLogDir = p.Path("dataLogDir", "")
	if c.DataLogDir == "" {
		return c, p.Errorf("dataLogDir", ErrConfig, "is required: the folder of the transaction log")
	}
	// Not Path's default: that would resolve the resolved log folder
	// against the file's folder a second time.
	if c.DataSnapDir = p.Path("dataSnapDir", ""); c.DataSnapDir == "" {
		c.DataSnapDir = c.DataLogDir
	}
	if err := c.readSnapSize(p); err != nil {
		return c, err
	}
	if err := c.readForceSync(p); err != nil {
		return c, err
	}
	if err := c.readTrace(p); err != nil {
		return c, err
	}
	lg, closer, err := logging.New(p)
	if err != nil {
		return c, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	c.Logger = lg
	if closer != nil {
		c.logFile = &onceCloser{c: closer}
	}
	for _, w := range UnknownKeys(p) {
		lg.Warn(w)
	}
	for _, w := range p.Redefined() { // the last definition wins: say which were ignored
		lg.Warn(w)
	}
	return c, nil
}

func (c *Config) readIdentity(p *properties.Properties, single bool) error {
	def := 0
	if single {
		def = 1
	} else if _, ok := p.Get("myid"); !ok {
		return p.Errorf("myid", ErrConfig, "missing: every peer of an ensemble needs its id (a positive number matching one of its peer<i> keys)")
	}
	id, err := p.Int("myid", def)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if id <= 0 {
		return p.Errorf("myid", ErrConfig, "must be a positive number (the peer's id), got %d", id)
	}
	c.ID = uint64(id)
	if single {
		return nil
	}
	peers, err := p.Indexed("peer")
	if err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	for i, v := range peers {
		peer, err := parsePeer(uint64(i), v)
		if err != nil {
			return p.Errorf(fmt.Sprintf("peer%d", i), ErrConfig, "%v", err)
		}
		c.Peers = append(c.Peers, peer)
	}
	slices.SortFunc(c.Peers, func(a, b Peer) int { return cmp.Compare(a.ID, b.ID) })
	return c.checkPeers(p)
}

// parsePeer reads host:port[:observer].
func parsePeer(id uint64, v string) (Peer, error) {
	v = strings.TrimSpace(v)
	peer := Peer{ID: id}
	if rest, ok := strings.CutSuffix(v, ":observer"); ok {
		v, peer.Observer = rest, true
	} else if rest, ok := strings.CutSuffix(v, ":participant"); ok {
		v = rest
	}
	host, port, err := net.SplitHostPort(v)
	if err != nil || host == "" || port == "" {
		return peer, fmt.Errorf("%q is not host:port or host:port:observer", v)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return peer, fmt.Errorf("%q: port %q is not a number from 1 to 65535", v, port)
	}
	peer.Addr = v
	return peer, nil
}

func (c *Config) checkPeers(p *properties.Properties) error {
	if len(c.Peers) == 0 {
		return p.Errorf("peer1", ErrConfig, "no peer<i>=host:port keys: an ensemble needs its members")
	}
	addrs := map[string]uint64{}
	voters, me := 0, false
	for _, peer := range c.Peers {
		if other, dup := addrs[peer.Addr]; dup {
			return p.Errorf(fmt.Sprintf("peer%d", peer.ID), ErrConfig, "address %s is also peer%d's", peer.Addr, other)
		}
		addrs[peer.Addr] = peer.ID
		if !peer.Observer {
			voters++
		}
		me = me || peer.ID == c.ID
	}
	if voters == 0 {
		return p.Errorf("peer1", ErrConfig, "every peer is an observer: at least one must vote")
	}
	if !me {
		return p.Errorf("myid", ErrConfig, "%d has no peer%d=host:port entry", c.ID, c.ID)
	}
	return nil
}

// TickTime reads tickTime (DefaultTickTime when unset), refusing one below
// MinTickTime; the server reads it so too, before the session timeouts it
// derives from it, so that a bad tickTime is named as itself.
//
// A whole number below the bound, a negative one included, is told the
// bound itself: Millis alone said ">= 0" to tickTime=-1, a bound that 0
// to 9 then failed too.
func TickTime(p *properties.Properties) (time.Duration, error) {
	if n, err := p.Int64("tickTime", int64(DefaultTickTime/time.Millisecond)); err == nil && n < int64(MinTickTime/time.Millisecond) {
		return 0, p.Errorf("tickTime", ErrConfig, "must be at least %d ms, got %d: peers resend after 2 ticks and give up after syncLimit, faster than a disk can sync",
			MinTickTime/time.Millisecond, n)
	}
	t, err := p.Millis("tickTime", DefaultTickTime)
	if err != nil {
		return 0, err // properties.ErrValue, naming file, line and key
	}
	return t, nil
}

func (c *Config) readTuning(p *properties.Properties) error {
	var err error
	if c.TickTime, err = TickTime(p); err != nil {
		if !errors.Is(err, ErrConfig) {
			err = fmt.Errorf("%w: %w", ErrConfig, err)
		}
		return err
	}
	for _, k := range []struct {
		key string
		dst *int
		def int
		min int
	}{{"initLimit", &c.InitLimit, DefaultInitLimit, 2}, {"syncLimit", &c.SyncLimit, DefaultSyncLimit, 2},
		{"snapCount", &c.SnapCount, DefaultSnapCount, 1}} {
		if *k.dst, err = p.Int(k.key, k.def); err != nil {
			return fmt.Errorf("%w: %w", ErrConfig, err)
		}
		if *k.dst < k.min {
			return p.Errorf(k.key, ErrConfig, "must be at least %d, got %d", k.min, *k.dst)
		}
	}
	return nil
}

// KeyForceSync is ZooKeeper's forceSync: yes (the default) or no.
const KeyForceSync = "forceSync"

// readForceSync reads forceSync: yes (the default) or no, as ZooKeeper
// spells it. ZooKeeper reads every value but "no" as yes; a typo such as
// "No " or "false" would then keep the fsync the operator meant to turn
// off (or the reverse), so anything else is an error here.
func (c *Config) readForceSync(p *properties.Properties) error {
	switch v := strings.TrimSpace(p.String(KeyForceSync, "yes")); v { // blanks trimmed, as the typed getters do
	case "yes":
	case "no":
		c.SkipFsync = true
	default:
		return p.Errorf(KeyForceSync, ErrConfig, "want yes or no, got %q", v)
	}
	return nil
}

// addr returns the address of peer id, or "".
func (c *Config) addr(id uint64) string {
	for _, p := range c.Peers {
		if p.ID == id {
			return p.Addr
		}
	}
	return ""
}

// ids splits the peers into voters and observers.
func (c *Config) ids() (voters, observers []uint64) {
	if len(c.Peers) == 0 {
		return []uint64{c.ID}, nil
	}
	for _, p := range c.Peers {
		if p.Observer {
			observers = append(observers, p.ID)
		} else {
			voters = append(voters, p.ID)
		}
	}
	return voters, observers
}

// check fills the zero values of a Config built in code with the defaults
// and refuses one no peer could run with.
func (c *Config) check(single bool) error {
	if c.TickTime == 0 {
		c.TickTime = DefaultTickTime
	}
	for _, d := range []struct {
		v   *int
		def int
	}{{&c.InitLimit, DefaultInitLimit}, {&c.SyncLimit, DefaultSyncLimit},
		{&c.SnapCount, DefaultSnapCount}} {
		if *d.v == 0 {
			*d.v = d.def
		}
	}
	if c.SnapBytes == 0 {
		c.SnapBytes = DefaultSnapBytes
	}
	if c.DataSnapDir == "" {
		c.DataSnapDir = c.DataLogDir
	}
	switch {
	case c.ID == 0:
		return fmt.Errorf("%w: ID (myid) must be positive", ErrConfig)
	case c.DataLogDir == "":
		return fmt.Errorf("%w: DataLogDir is required", ErrConfig)
	case c.TickTime < MinTickTime:
		return fmt.Errorf("%w: TickTime %s is below %s", ErrConfig, c.TickTime, MinTickTime)
	case c.InitLimit < 2 || c.SyncLimit < 2 || c.SnapCount < 1:
		return fmt.Errorf("%w: InitLimit and SyncLimit must be at least 2, SnapCount at least 1", ErrConfig)
	case !single && c.addr(c.ID) == "":
		return fmt.Errorf("%w: peer %d is not among Peers", ErrConfig, c.ID)
	}
	return nil
}

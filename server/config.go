package server

import (
	"errors"
	"strings"
	"time"

	"zablab/mwzookeeper"
	"zablab/properties"
	"zablab/zab"
)

// KeyClientPortAddress is the address the client port listens on; the
// other keys the server reads are mwzookeeper's KeyClientPort,
// KeyMaxClientCnxns, KeyMinSessionTimeout and KeyMaxSessionTimeout.
const KeyClientPortAddress = "clientPortAddress"

// ErrConfig marks a bad server key. Errors that wrap it name the file, the
// line and the key (see properties.Error).
var ErrConfig = errors.New("server: bad configuration")

// ErrListen marks a port the server could not listen on (in use, not
// allowed, an address the machine lacks). Such an error names its key as
// ErrConfig's do, but the file is not wrong as written: the same start may
// succeed later (mwzk-server exits 1, not 2).
var ErrListen = errors.New("server: cannot listen")

// Config is the part of a peer's properties the server reads.
type Config struct {
	ClientPort        int    // 1..65535; 0 only when a listener is given
	ClientPortAddress string // default 127.0.0.1
	MaxClientCnxns    int    // per client IP; 0 means unlimited; default 60
	MinSessionTimeout time.Duration
	MaxSessionTimeout time.Duration
	TickTime          time.Duration     // as Zab reads it
	Ops               Ops               // admin API, metrics, four-letter words (config_ops.go)
	SuperDigest       string            // KeySuperDigest: the super user's digest identity; "" for none
	SASLUsers         map[string]string // KeySASLUsers: DIGEST-MD5 user -> password; nil: no SASL (sasl.go)
	SASLSuperUser     string            // KeySASLSuperUser: the SASL user who is also super; "" for none
	// ReadOnlyMode (mwzookeeper.KeyReadOnlyMode) lets the replica serve
	// read-only clients while it has no quorum (readonly.go).
	ReadOnlyMode bool
}

// Defaults, as in ZooKeeper.
const (
	DefaultClientPortAddress = "127.0.0.1"
	DefaultMaxClientCnxns    = 60
)

// ConfigFromProperties reads the server's keys from p. needPort says
// whether clientPort is required (it is not when the caller brings its own
// listener).
func ConfigFromProperties(p *properties.Properties, needPort bool) (Config, error) {
	var c Config
	var err error
	if err = zab.CheckKeys(p); err != nil {
		return c, err
	}
	if c.TickTime, err = zab.TickTime(p); err != nil { // before the timeouts derived from it
		return c, err
	}
	if _, ok := p.Get(mwzookeeper.KeyClientPort); ok || needPort {
		if _, err = p.Require(mwzookeeper.KeyClientPort); err != nil {
			return c, err
		}
		if c.ClientPort, err = p.Int(mwzookeeper.KeyClientPort, 0); err != nil {
			return c, err
		}
		if c.ClientPort < 1 || c.ClientPort > 65535 {
			return c, p.Errorf(mwzookeeper.KeyClientPort, ErrConfig, "want a port in 1..65535, got %d", c.ClientPort)
		}
	}
	if c.ClientPortAddress, err = hostKey(p, KeyClientPortAddress, DefaultClientPortAddress); err != nil {
		return c, err
	}
	if c.MaxClientCnxns, err = p.Int(mwzookeeper.KeyMaxClientCnxns, DefaultMaxClientCnxns); err != nil {
		return c, err
	}
	if c.MaxClientCnxns < 0 {
		return c, p.Errorf(mwzookeeper.KeyMaxClientCnxns, ErrConfig, "want 0 (unlimited) or more, got %d", c.MaxClientCnxns)
	}
	if v, ok := p.Get(KeySuperDigest); ok {
		c.SuperDigest = trim(v)
		if user, hash, ok := strings.Cut(c.SuperDigest, ":"); c.SuperDigest != "" && (!ok || user == "" || hash == "") {
			return c, p.Errorf(KeySuperDigest, ErrConfig, "want user:base64(sha1(user:password)), got %q", c.SuperDigest)
		}
	}
	if err = c.readSASL(p); err != nil {
		return c, err
	}
	if c.ReadOnlyMode, err = p.Bool(mwzookeeper.KeyReadOnlyMode, false); err != nil {
		return c, err
	}
	if c.Ops, err = readOps(p, c.ClientPortAddress); err != nil {
		return c, err
	}
	if err = c.portsApart(p); err != nil {
		return c, err
	}
	return c, c.readTimeouts(p)
}

func (c *Config) readTimeouts(p *properties.Properties) error {
	var err error
	if c.MinSessionTimeout, err = p.Millis(mwzookeeper.KeyMinSessionTimeout, 2*c.TickTime); err != nil {
		return err
	}
	if c.MaxSessionTimeout, err = p.Millis(mwzookeeper.KeyMaxSessionTimeout, 20*c.TickTime); err != nil {
		return err
	}
	if c.MinSessionTimeout <= 0 {
		return p.Errorf(mwzookeeper.KeyMinSessionTimeout, ErrConfig, "must be more than 0 ms")
	}
	if c.MaxSessionTimeout < c.MinSessionTimeout {
		return p.Errorf(mwzookeeper.KeyMaxSessionTimeout, ErrConfig, "%d ms is below %s (%d ms)",
			c.MaxSessionTimeout.Milliseconds(), mwzookeeper.KeyMinSessionTimeout, c.MinSessionTimeout.Milliseconds())
	}
	return nil
}

// Negotiate clamps a client's requested session timeout (ms) into
// [MinSessionTimeout, MaxSessionTimeout], as ZooKeeper does.
func (c Config) Negotiate(ms int32) int32 {
	lo, hi := int32(c.MinSessionTimeout.Milliseconds()), int32(c.MaxSessionTimeout.Milliseconds())
	return min(max(ms, lo), hi)
}

func trim(s string) string {
	i, j := 0, len(s)
	for i < j && (s[i] == ' ' || s[i] == '\t' || s[i] == '\f') {
		i++
	}
	for j > i && (s[j-1] == ' ' || s[j-1] == '\t' || s[j-1] == '\f') {
		j--
	}
	return s[i:j]
}

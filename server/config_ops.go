package server

import (
	"net/netip"
	"runtime"
	"slices"
	"sort"
	"strings"

	"zablab/mwzookeeper"
	"zablab/properties"
	"zablab/zab"
)

// The operator's keys, named as in ZooKeeper 3.8.
const (
	// KeyAdminPort turns the admin HTTP API on (off when absent).
	KeyAdminPort = "admin.serverPort"
	// KeyAdminAddress is where it listens; default: clientPortAddress.
	KeyAdminAddress = "admin.serverAddress"
	// KeyMetricsPort turns Prometheus's /metrics on (off when absent).
	KeyMetricsPort = "metricsProvider.httpPort"
	// KeyMetricsHost is where /metrics listens; default: clientPortAddress.
	KeyMetricsHost = "metricsProvider.httpHost"
	// KeyMetricsClass is accepted and ignored, so ZooKeeper's own metrics
	// configuration runs unchanged.
	KeyMetricsClass = "metricsProvider.className"
	// KeyWhitelist lists the four-letter words answered, comma-separated;
	// "*" answers all. ZooKeeper's default is "srvr" alone.
	KeyWhitelist = "4lw.commands.whitelist"
	// DefaultWhitelist is ZooKeeper's default.
	DefaultWhitelist = "srvr"
)

// The server's own keys are known to Zab's unknown-key check (zab.KnownKeys
// says programs that read more keys append them).
func init() {
	for _, k := range []string{KeyClientPortAddress, KeyAdminPort, KeyAdminAddress, KeyMetricsPort,
		KeyMetricsHost, KeyMetricsClass, KeyWhitelist, KeySuperDigest, KeySASLUsers, KeySASLSuperUser,
		mwzookeeper.KeyExtendedTypes, mwzookeeper.KeyContainerInterval, mwzookeeper.KeyReadOnlyMode} {
		if !slices.Contains(zab.KnownKeys, k) {
			zab.KnownKeys = append(zab.KnownKeys, k)
		}
	}
}

// Ops is the operator's part of a peer's properties.
type Ops struct {
	AdminPort      int // 0: no admin API
	AdminAddress   string
	MetricsPort    int // 0: no /metrics
	MetricsAddress string
	Words          map[string]bool // four-letter words answered; nil: all ("*")
}

// fourLetterWords are the words ZooKeeper 3.8 knows.
var fourLetterWords = []string{"conf", "cons", "crst", "dirs", "dump", "envi", "gtmk", "isro", "mntr",
	"ruok", "srst", "srvr", "stat", "stmk", "wchc", "wchp", "wchs"}

func readOps(p *properties.Properties, clientAddress string) (Ops, error) {
	var o Ops
	var err error
	if o.AdminPort, err = optionalPort(p, KeyAdminPort); err != nil {
		return o, err
	}
	if o.MetricsPort, err = optionalPort(p, KeyMetricsPort); err != nil {
		return o, err
	}
	if o.AdminAddress, err = hostKey(p, KeyAdminAddress, clientAddress); err != nil {
		return o, err
	}
	if o.MetricsAddress, err = hostKey(p, KeyMetricsHost, clientAddress); err != nil {
		return o, err
	}
	o.Words, err = readWhitelist(p)
	return o, err
}

// portsApart refuses a file that gives two of the server's listeners the
// same address and port: the second listen would fail as "address already
// in use" with exit status 1, which says "try again later", where the file
// itself is wrong and no restart can help.
func (c Config) portsApart(p *properties.Properties) error {
	type listener struct {
		key, addr string
		port      int
	}
	ls := []listener{{mwzookeeper.KeyClientPort, c.ClientPortAddress, c.ClientPort},
		{KeyAdminPort, c.Ops.AdminAddress, c.Ops.AdminPort}, {KeyMetricsPort, c.Ops.MetricsAddress, c.Ops.MetricsPort}}
	for i, a := range ls {
		for _, b := range ls[:i] {
			if a.port != 0 && a.port == b.port && sameListenAddress(a.addr, b.addr) {
				return p.Errorf(a.key, ErrConfig, "port %d on %s is already %s's", a.port, a.addr, b.key)
			}
		}
	}
	return nil
}

// sameListenAddress says whether listens on a and b, one port, clash: the
// same address however written ("::1", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1"
// and "127.0.0.1"), or, on Linux, a wildcard with any address: Go listens
// on "0.0.0.0" and "::" dual-stack, and Linux refuses any other listen on
// that port then (BSD and macOS let a more specific address share it).
// Host names are compared as written: resolving them here would make
// reading the file depend on the resolver.
func sameListenAddress(a, b string) bool {
	ia, errA := netip.ParseAddr(a)
	ib, errB := netip.ParseAddr(b)
	if errA != nil || errB != nil {
		return strings.EqualFold(a, b)
	}
	ia, ib = ia.Unmap(), ib.Unmap()
	return ia == ib || wildcardTakesPort && (ia.IsUnspecified() || ib.IsUnspecified())
}

// wildcardTakesPort says whether a listen on a wildcard address keeps
// every other address from that port (see sameListenAddress).
const wildcardTakesPort = runtime.GOOS == "linux"

func optionalPort(p *properties.Properties, key string) (int, error) {
	if _, ok := p.Get(key); !ok {
		return 0, nil
	}
	port, err := p.Int(key, 0)
	if err != nil {
		return 0, err
	}
	if port < 1 || port > 65535 {
		return 0, p.Errorf(key, ErrConfig, "want a port in 1..65535, got %d", port)
	}
	return port, nil
}

func orDefault(p *properties.Properties, key, def string) string {
	if v, ok := p.Get(key); ok && trim(v) != "" {
		return trim(v)
	}
	return def
}

// hostKey reads key, an address to listen on (def when unset): a host
// name or an IP address, without a port. One wrong as written
// ("127.0.0.1:2181", "[::1]:2181") is a configuration error (exit 2), found
// here: at the listen it failed as a name that does not resolve, which is
// ErrListen (exit 1, the same start may succeed later).
//
// An IPv6 address in brackets ("[::1]") is read as ZooKeeper reads it
// (Java's InetAddress.getByName takes RFC 2732's form), without them: the
// listen adds its own.
func hostKey(p *properties.Properties, key, def string) (string, error) {
	v := orDefault(p, key, def)
	if inner, ok := strings.CutPrefix(v, "["); ok && strings.HasSuffix(inner, "]") {
		if a, err := netip.ParseAddr(strings.TrimSuffix(inner, "]")); err == nil && a.Is6() {
			return a.String(), nil
		}
	}
	if _, ipErr := netip.ParseAddr(v); ipErr != nil && strings.ContainsAny(v, ":[]/ \t") { // an IPv6 address (with a zone) has colons
		return v, p.Errorf(key, ErrConfig, "want a host name or an IP address without a port, got %q", v)
	}
	return v, nil
}

// readWhitelist reads 4lw.commands.whitelist; a word ZooKeeper does not
// know is an error naming it.
func readWhitelist(p *properties.Properties) (map[string]bool, error) {
	words := map[string]bool{}
	for _, w := range strings.Split(orDefault(p, KeyWhitelist, DefaultWhitelist), ",") {
		w = strings.TrimSpace(w)
		switch {
		case w == "*":
			return nil, nil
		case w == "":
		case slices.Contains(fourLetterWords, w):
			words[w] = true
		default:
			known := slices.Clone(fourLetterWords)
			sort.Strings(known)
			return nil, p.Errorf(KeyWhitelist, ErrConfig, "unknown four-letter word %q (known: %s, or *)",
				w, strings.Join(known, ","))
		}
	}
	return words, nil
}

// allowed says whether the whitelist lets word through.
func (o Ops) allowed(word string) bool { return o.Words == nil || o.Words[word] }

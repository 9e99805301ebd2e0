package zab

import (
	"fmt"
	"slices"
	"strings"

	"zablab/logging"
	"zablab/properties"
)

// KnownKeys are the keys a peer's properties file may hold besides
// peer<i> (i a positive number without leading zeros) and the logging keys
// (log.level, log.file, log.format; see package logging). It
// includes the keys of the service that shares the file (clientPort,
// maxClientCnxns, minSessionTimeout, maxSessionTimeout). A program that
// reads more keys from the same file appends them here before it calls
// ConfigFromProperties, or passes them to CheckKeys and UnknownKeys.
var KnownKeys = []string{
	"myid", "dataLogDir", "dataSnapDir", "tickTime", "initLimit", "syncLimit", "snapCount", KeySnapSizeLimit, KeyForceSync,
	KeyTraceFile, KeyTraceMaxMB, "clientPort", "maxClientCnxns", "minSessionTimeout", "maxSessionTimeout",
}

// CheckKeys returns an error wrapping ErrConfig, naming file, line and key,
// for the first key of p that differs from a known one (KnownKeys, extra,
// peer<i>, the logging keys) only in case or by one or two edits
// (nearKey): "ticktime=100" or "tickTme=100" would otherwise be ignored and
// the default used, 20 times slower. Other unknown keys are no error; see
// UnknownKeys.
func CheckKeys(p *properties.Properties, extra ...string) error {
	for _, k := range p.Keys() {
		if known(k, extra) {
			continue
		}
		if err := zooCfgKey(p, k); err != nil {
			return err
		}
		all := slices.Concat(KnownKeys, logKeys, extra)
		// ZooKeeper reads unknown zoo.cfg keys as system properties
		// "zookeeper.<key>", so its users write those names too.
		if rest, ok := strings.CutPrefix(k, "zookeeper."); ok && slices.Contains(all, rest) {
			return p.Errorf(k, ErrConfig, "unknown key; did you mean %q? (ZooKeeper's system property %s is the key %s here)", rest, k, rest)
		}
		for _, want := range all {
			if strings.EqualFold(k, want) {
				return p.Errorf(k, ErrConfig, "unknown key; did you mean %q? (keys are case-sensitive)", want)
			}
		}
		if want, ok := nearKey(k, all); ok {
			return p.Errorf(k, ErrConfig, "unknown key; did you mean %q?", want)
		}
		if l := strings.ToLower(k); strings.HasPrefix(l, "peer") && !strings.HasPrefix(k, "peer") ||
			strings.HasPrefix(l, "log.") && !strings.HasPrefix(k, "log.") {
			return p.Errorf(k, ErrConfig, "unknown key; keys are case-sensitive")
		}
	}
	return nil
}

// UnknownKeys describes every key of p that no one reads, with file and
// line, for a warning: a misspelled key is otherwise silently ignored.
func UnknownKeys(p *properties.Properties, extra ...string) []string {
	var out []string
	for _, k := range p.Keys() {
		if !known(k, extra) {
			out = append(out, fmt.Sprintf("%v", p.Errorf(k, ErrConfig, "unknown key, ignored")))
		}
	}
	return out
}

// logKeys are the keys package logging reads; any other "log." key is a
// typo ("log.levle") that would silently leave the default in force.
var logKeys = []string{logging.KeyLevel, logging.KeyFile, logging.KeyFormat}

func known(k string, extra []string) bool {
	if slices.Contains(KnownKeys, k) || slices.Contains(extra, k) || slices.Contains(logKeys, k) {
		return true
	}
	rest, ok := strings.CutPrefix(k, "peer")
	return ok && isIndex(rest) // "peerType" is no peer<i>, for a single peer too
}

// isIndex is the rule of properties.Indexed: a positive decimal number
// without sign or leading zeros.
func isIndex(s string) bool {
	if s == "" || s[0] < '1' || s[0] > '9' {
		return false
	}
	return strings.Trim(s, "0123456789") == ""
}

// zooCfgKey refuses the zoo.cfg keys that have another name here. Ignored
// with a warning, server.<i> lines made every peer of a copied zoo.cfg a
// lone standalone server (independent trees where an ensemble was meant),
// and dataDir put the snapshots beside the log.
func zooCfgKey(p *properties.Properties, k string) error {
	if rest, ok := strings.CutPrefix(k, "server."); ok && isIndex(rest) {
		return p.Errorf(k, ErrConfig, "unknown key; ZooKeeper's server.%s=host:quorumPort:electionPort is peer%s=host:port here (one Zab port per peer)", rest, rest)
	}
	if k == "dataDir" {
		return p.Errorf(k, ErrConfig, "unknown key; ZooKeeper's dataDir is dataSnapDir here (snapshots and epochs; dataLogDir, the log, is required)")
	}
	return nil
}

package aufgabe5

import (
	"time"

	"zablab/mwzookeeper"
	"zablab/properties"
	"zablab/zab"
)

// newZab builds the replica's Zab peer: MultiZab when p names peers,
// SingleZab otherwise (A5.1, A5.2). now is the host's clock: the leader
// stamps each message with it, and the tree's ctime and mtime come from
// those stamps (A5.4). A key that differs from a known one only in case
// is an error naming the file and line.
func newZab(cb zab.Callback, p *properties.Properties, now func() time.Time) (zab.Zab, error) {
	extra := []string{mwzookeeper.KeyClientPort, mwzookeeper.KeyMaxClientCnxns,
		mwzookeeper.KeyMinSessionTimeout, mwzookeeper.KeyMaxSessionTimeout}
	if err := zab.CheckKeys(p, extra...); err != nil {
		return nil, err
	}
	multi := mwzookeeper.Ensemble(p)
	cfg, err := zab.ConfigFromProperties(p, !multi)
	if err != nil {
		return nil, err
	}
	cfg.Now = now
	var z zab.Zab
	if multi {
		z, err = zab.NewMultiZabFromConfig(cb, cfg)
	} else {
		z, err = zab.NewSingleZabFromConfig(cb, cfg)
	}
	if err != nil {
		_ = cfg.Close() // the log output it opened
		return nil, err
	}
	return z, nil
}

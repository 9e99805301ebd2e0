package zab

import "zablab/properties"

// SingleZab is one peer alone: its own quorum, with a durable log and
// snapshots but no network. It keeps every guarantee of MultiZab.
type SingleZab struct{ *node }

// NewSingleZab builds a lone peer from its properties (myid defaults to 1;
// dataLogDir is required). Call Startup to start it.
func NewSingleZab(cb Callback, p *properties.Properties) (*SingleZab, error) {
	cfg, err := ConfigFromProperties(p, true)
	if err != nil {
		return nil, err
	}
	z, err := NewSingleZabFromConfig(cb, cfg)
	if err != nil {
		_ = cfg.Close()
	}
	return z, err
}

// NewSingleZabFromConfig builds a lone peer from cfg (Peers is ignored;
// zero tuning fields take the defaults; ID and DataLogDir are required). It
// opens no file: Startup opens the storage. Shutdown closes the log output
// cfg carries.
func NewSingleZabFromConfig(cb Callback, cfg Config) (*SingleZab, error) {
	cfg.Peers = nil
	if err := cfg.check(true); err != nil {
		return nil, err
	}
	n, err := newNode(cb, cfg, nil)
	if err != nil {
		return nil, err
	}
	return &SingleZab{n}, nil
}

var _ Zab = (*SingleZab)(nil)

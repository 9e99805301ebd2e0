package zab

import (
	"fmt"
	"net"

	"github.com/sirupsen/logrus"

	"zablab/properties"
	"zablab/zab/transport"
)

// MultiZab is one peer of an ensemble, talking to the others over TCP.
type MultiZab struct{ *node }

// NewMultiZab builds one peer of an ensemble from its properties (myid,
// peer<i>=host:port[:observer], dataLogDir, ...). Call Startup to start it.
func NewMultiZab(cb Callback, p *properties.Properties) (*MultiZab, error) {
	cfg, err := ConfigFromProperties(p, false)
	if err != nil {
		return nil, err
	}
	z, err := NewMultiZabFromConfig(cb, cfg)
	if err != nil {
		_ = cfg.Close()
	}
	return z, err
}

// NewMultiZabFromConfig builds one peer of an ensemble from cfg; zero
// TickTime, InitLimit, SyncLimit, SnapCount and DataSnapDir take the
// defaults, ID, Peers and DataLogDir are required. It opens no file and no
// socket: Startup opens the storage and the listener. Shutdown closes the
// log output cfg carries.
func NewMultiZabFromConfig(cb Callback, cfg Config) (*MultiZab, error) {
	if err := cfg.check(false); err != nil {
		return nil, err
	}
	return newMultiZab(cb, cfg, nil)
}

// newMultiZab also takes a listener already bound, as tests need.
func newMultiZab(cb Callback, cfg Config, ln net.Listener) (*MultiZab, error) {
	peers := map[uint64]string{}
	for _, p := range cfg.Peers {
		peers[p.ID] = p.Addr
	}
	if cfg.Logger == nil { // as newNode's: the transport logs to the peer's logger too
		cfg.Logger = logrus.StandardLogger()
	}
	newTr := func() (transport.Transport, error) {
		tr, err := transport.NewTCP(transport.TCPConfig{ID: cfg.ID, Peers: peers, Listener: ln,
			Logger: cfg.Logger.WithField("peer", cfg.ID)})
		if err != nil {
			// The operator looks for the address in the peer's file: name
			// the key it comes from, as the client port's error does.
			return nil, fmt.Errorf("key \"peer%d\" (this peer's Zab address): %w", cfg.ID, err)
		}
		return tr, nil
	}
	n, err := newNode(cb, cfg, newTr)
	if err != nil {
		return nil, err
	}
	return &MultiZab{n}, nil
}

var _ Zab = (*MultiZab)(nil)

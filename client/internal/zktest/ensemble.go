package zktest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sirupsen/logrus"

	"zablab/internal/ports"
	"zablab/internal/realzk"
	"zablab/properties"
	"zablab/server"
)

// ErrSkip wraps the errors that mean "no server can run here" (no Java,
// no reference service): a test skips on them.
var ErrSkip = errSkip

// Ensemble is n peers of our server in this process, for failover tests.
type Ensemble struct {
	Addrs []string // client addresses, peer i at Addrs[i-1]
	srv   []*server.Server
	dir   string
}

// NewEnsemble starts n peers (server + reference service) and waits until
// every one serves. It is always ours: Apache ZooKeeper ensembles are not
// started by these tests.
func NewEnsemble(n int) (*Ensemble, error) {
	if factory == nil {
		return nil, fmt.Errorf("%w: this tree has no reference service (solutions/)", errSkip)
	}
	dir, err := os.MkdirTemp("", "zktest-ensemble-")
	if err != nil {
		return nil, fmt.Errorf("zktest: %w", err)
	}
	e := &Ensemble{dir: dir}
	p, err := ports.Free(2 * n)
	if err != nil {
		e.Stop()
		return nil, fmt.Errorf("zktest: %w", err)
	}
	peers, clients := p[:n], p[n:]
	for i := 1; i <= n; i++ {
		s, err := startPeer(dir, i, peers, clients[i-1])
		if err != nil {
			e.Stop()
			return nil, err
		}
		e.srv = append(e.srv, s)
		e.Addrs = append(e.Addrs, fmt.Sprintf("127.0.0.1:%d", clients[i-1]))
	}
	deadline := time.Now().Add(30 * time.Second)
	for _, a := range e.Addrs {
		for !realzk.Serving(a) {
			if time.Now().After(deadline) {
				e.Stop()
				return nil, fmt.Errorf("zktest: ensemble peer %s not serving after 30s", a)
			}
			time.Sleep(10 * time.Millisecond) // polling a port: nothing to wait on
		}
	}
	return e, nil
}

func startPeer(dir string, id int, peers []int, clientPort int) (*server.Server, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "myid=%d\ndataLogDir=log%d\ndataSnapDir=snap%d\ntickTime=100\ninitLimit=20\nsyncLimit=10\n", id, id, id)
	for j, port := range peers {
		fmt.Fprintf(&b, "peer%d=127.0.0.1:%d\n", j+1, port)
	}
	fmt.Fprintf(&b, "clientPort=%d\nminSessionTimeout=600\nmaxSessionTimeout=10000\n4lw.commands.whitelist=*\nlog.level=%s\n", clientPort, logLevel())
	file := filepath.Join(dir, fmt.Sprintf("peer%d.properties", id))
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		return nil, fmt.Errorf("zktest: %w", err)
	}
	p, err := properties.LoadFile(file)
	if err != nil {
		return nil, fmt.Errorf("zktest: %w", err)
	}
	log := logrus.New()
	if lv, err := logrus.ParseLevel(logLevel()); err == nil {
		log.SetLevel(lv)
	}
	s, err := server.New(p, factory, server.Options{Logger: log.WithField("peer", id)})
	if err != nil {
		return nil, fmt.Errorf("zktest: %w", err)
	}
	if err := s.Start(); err != nil {
		return nil, fmt.Errorf("zktest: start %s: %w", file, err)
	}
	return s, nil
}

// StopPeer stops the peer serving addr (a crash as its clients see it).
func (e *Ensemble) StopPeer(addr string) error {
	for i, a := range e.Addrs {
		if a == addr && e.srv[i] != nil {
			err := e.srv[i].Stop()
			e.srv[i] = nil
			return err
		}
	}
	return fmt.Errorf("zktest: no running peer at %s", addr)
}

// Stop stops every peer and removes their files.
func (e *Ensemble) Stop() {
	for i, s := range e.srv {
		if s != nil {
			s.Stop()
			e.srv[i] = nil
		}
	}
	os.RemoveAll(e.dir)
}

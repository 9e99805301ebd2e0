package zktest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/sirupsen/logrus"

	"zablab/internal/realzk"
	"zablab/mwzookeeper"
	"zablab/properties"
	"zablab/server"
)

// factory makes the Service our server runs; nil in a tree without the
// reference (a handout), see solution.go.
var factory mwzookeeper.Factory

// start runs the server the tests use: ours (server + the reference
// service, one standalone peer), or Apache ZooKeeper with ZABLAB_REAL_ZK=1
// or when the tree has no reference service.
func start(dir string, port int) (*Server, error) {
	if UseRealZK() || factory == nil {
		z, err := realzk.Start(dir, port)
		if errors.Is(err, realzk.ErrMissing) {
			if factory == nil {
				return nil, fmt.Errorf("%w: this tree has no reference service (solutions/), and %w", errSkip, err)
			}
			return nil, fmt.Errorf("%w: %w", errSkip, err)
		}
		if err != nil {
			return nil, err
		}
		return &Server{Kind: "Apache ZooKeeper", Addrs: []string{z.Addr}, stop: z.Stop}, nil
	}
	return startOurs(dir, port)
}

// startOurs runs one standalone peer of our server in this process.
func startOurs(dir string, port int) (*Server, error) {
	file := filepath.Join(dir, "peer.properties")
	conf := fmt.Sprintf("myid=1\ndataLogDir=log\ndataSnapDir=snap\ntickTime=100\n"+
		"clientPort=%d\nminSessionTimeout=600\nmaxSessionTimeout=10000\n4lw.commands.whitelist=*\nlog.level=%s\n"+
		"zookeeper.extendedTypesEnabled=true\n", port, logLevel()) // TTL nodes on, as internal/realzk's ZooKeeper
	if err := os.WriteFile(file, []byte(conf), 0o644); err != nil {
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
	srv, err := server.New(p, factory, server.Options{Logger: log.WithField("peer", 1)})
	if err != nil {
		return nil, fmt.Errorf("zktest: %w", err)
	}
	if err := srv.Start(); err != nil {
		return nil, fmt.Errorf("zktest: start %s: %w", file, err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	deadline := time.Now().Add(30 * time.Second)
	for !realzk.Serving(addr) {
		if time.Now().After(deadline) {
			srv.Stop()
			return nil, fmt.Errorf("zktest: our server on %s not serving after 30s", addr)
		}
		time.Sleep(10 * time.Millisecond) // polling a port: nothing to wait on
	}
	return &Server{Kind: "zablab server + aufgabe5", Addrs: []string{addr}, stop: func() { srv.Stop() }}, nil
}

// logLevel is the peers' log level: ZABLAB_LOG, else WARN.
func logLevel() string {
	if lv := os.Getenv("ZABLAB_LOG"); lv != "" {
		return lv
	}
	return "WARN"
}

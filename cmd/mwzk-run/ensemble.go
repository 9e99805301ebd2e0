package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"zablab/properties"
)

// ErrNoPeers says the ensemble folder holds no peer files.
var ErrNoPeers = errors.New("no peer<N>.properties files")

// peerFile is one peer of the ensemble: its name (peerN, as in the file
// name), its properties file, and the client port read from it (0 if the
// file has none or it cannot be read: the server will say why).
type peerFile struct {
	name       string
	file       string
	clientPort int
	adminPort  int // admin.serverPort, 0 if none
	metrics    int // metricsProvider.httpPort, 0 if none
}

// findPeers returns the peer files of dir, ordered by N.
func findPeers(dir string) ([]peerFile, error) {
	files, err := filepath.Glob(filepath.Join(dir, "peer*.properties"))
	if err != nil {
		return nil, fmt.Errorf("ensemble %s: %w", dir, err)
	}
	var peers []peerFile
	num := map[string]int{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".properties")
		n, err := strconv.Atoi(strings.TrimPrefix(name, "peer"))
		if err != nil || n <= 0 {
			continue // e.g. peer-old.properties: not a peer of this ensemble
		}
		num[name] = n
		peers = append(peers, readPorts(peerFile{name: name, file: f}))
	}
	if len(peers) == 0 {
		if _, err := os.Stat(dir); err != nil {
			return nil, fmt.Errorf("ensemble %s: %w", dir, err)
		}
		return nil, fmt.Errorf("ensemble %s: %w", dir, ErrNoPeers)
	}
	sort.Slice(peers, func(i, j int) bool { return num[peers[i].name] < num[peers[j].name] })
	return peers, nil
}

// readPorts reads the ports of p's file for the banner; errors are the
// server's to report, with file and line.
func readPorts(p peerFile) peerFile {
	props, err := properties.LoadFile(p.file)
	if err != nil {
		return p
	}
	p.clientPort, _ = props.Int("clientPort", 0)
	p.adminPort, _ = props.Int("admin.serverPort", 0)
	p.metrics, _ = props.Int("metricsProvider.httpPort", 0)
	return p
}

// portsFree checks that no client port of the ensemble is taken: a
// second make run would otherwise start peers that fail one by one.
func portsFree(dir string, peers []peerFile) error {
	for _, p := range peers {
		if p.clientPort <= 0 {
			continue
		}
		addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(p.clientPort))
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return fmt.Errorf("%s (clientPort of %s) is in use: is the ensemble %s running already? Stop it first (Ctrl-C where it runs)",
				addr, p.name, dir)
		}
		ln.Close()
	}
	return nil
}

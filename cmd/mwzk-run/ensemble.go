package main

import (
	"errors"
	"fmt"
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
		peers = append(peers, peerFile{name: name, file: f, clientPort: clientPort(f)})
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

// clientPort reads the clientPort key of file for the banner; errors are
// the server's to report, with file and line.
func clientPort(file string) int {
	p, err := properties.LoadFile(file)
	if err != nil {
		return 0
	}
	n, err := p.Int("clientPort", 0)
	if err != nil {
		return 0
	}
	return n
}

package shell

import (
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"zablab/mwzookeeper"
)

// notServing is what a ZooKeeper server (and mwzk-server) answers to srvr
// while it takes no requests: for a peer of an ensemble, while it has no
// quorum (LOOKING).
const notServing = "not currently serving requests"

// quorumHint says why a connection was lost when the servers can tell:
// every server that answers srvr says it is not serving. Empty when that is
// not what the servers say.
func quorumHint(servers []string) string {
	var answering, down []string
	for _, addr := range servers {
		switch srvr(addr) {
		case "":
			down = append(down, addr)
		case notServing:
			answering = append(answering, addr)
		default:
			return "" // one serves: not a quorum problem
		}
	}
	if len(answering) == 0 {
		return ""
	}
	// srvr cannot say why: a peer without quorum and a Service that never
	// called Host.Serving(true) (a student's Status callback) look the same.
	hint := fmt.Sprintf("the peers at %s run but serve no requests", strings.Join(answering, ", "))
	if len(down) > 0 {
		hint += fmt.Sprintf("; nothing answers at %s", strings.Join(down, ", "))
	}
	return hint + ": no quorum (LOOKING: is a majority of the peers running?), or a Service that never reported serving (Host.Serving(true))"
}

// srvr asks addr the four-letter word srvr: "" when nothing answers,
// notServing when it says so, else "serving".
func srvr(addr string) string {
	nc, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return ""
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := nc.Write([]byte("srvr")); err != nil {
		return ""
	}
	b, _ := io.ReadAll(io.LimitReader(nc, 64<<10))
	switch s := string(b); {
	case s == "":
		return ""
	case strings.Contains(s, notServing):
		return notServing
	}
	return "serving"
}

// lostHint prints the quorum hint after an error that is a connection
// loss.
func (s *Shell) lostHint(err error) {
	if err == nil || !errors.Is(err, mwzookeeper.ErrConnectionLoss) && !errors.Is(err, errNotConnected) {
		return
	}
	if h := quorumHint(strings.Split(s.servers, ",")); h != "" {
		s.write(s.opts.Err, h+"\n")
	}
}

// ConnectHint is the quorum hint for a failed Connect (for mwzk-cli).
func (s *Shell) ConnectHint(err error) string {
	if err == nil {
		return ""
	}
	return quorumHint(strings.Split(s.servers, ","))
}

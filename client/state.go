package client

import "github.com/go-zookeeper/zk"

// State is the handle's view of its session, as a state callback sees it.
type State int

// States of a handle. A handle starts Connecting, is Connected while it has
// a session and a connection, Disconnected while it looks for a server
// (the session lives on for its timeout), and ends Expired (the service
// dropped the session: the handle is dead) or Closed (Close was called).
const (
	StateConnecting State = iota
	StateConnected
	StateDisconnected
	StateExpired
	StateClosed
)

var stateNames = [...]string{"CONNECTING", "CONNECTED", "DISCONNECTED", "EXPIRED", "CLOSED"}

// String returns the state's name in capitals, as zkCli prints it.
func (s State) String() string {
	if s >= 0 && int(s) < len(stateNames) {
		return stateNames[s]
	}
	return "UNKNOWN"
}

// stateOf maps go-zk's session states to ours; ok is false for the states
// we do not report (go-zk's intermediate StateConnected: TCP up, no session yet).
func stateOf(s zk.State) (State, bool) {
	switch s {
	case zk.StateConnecting:
		return StateConnecting, true
	case zk.StateHasSession:
		return StateConnected, true
	case zk.StateDisconnected:
		return StateDisconnected, true
	case zk.StateExpired:
		return StateExpired, true
	}
	return 0, false
}

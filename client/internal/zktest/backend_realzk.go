package zktest

import (
	"errors"
	"fmt"
)

// start runs the server the tests use. Until the project's own server and
// reference service can be started here, that is Apache ZooKeeper.
func start(dir string, port int) (*Server, error) {
	z, err := startRealZK(dir, port)
	if errors.Is(err, errNoRealZK) {
		return nil, fmt.Errorf("%w: %w", errSkip, err)
	}
	if err != nil {
		return nil, err
	}
	return &Server{Kind: "Apache ZooKeeper", Addrs: []string{z.addr}, stop: z.stop}, nil
}

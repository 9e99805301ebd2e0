package server

import (
	"errors"
	"testing"

	"zablab/properties"
)

// TestBracketedIPv6Address: Apache ZooKeeper 3.8 reads
// clientPortAddress=[::1] (InetAddress.getByName takes RFC 2732's form; its
// log says "clientPortAddress is [0:0:0:0:0:0:0:1]:2181") and listens on
// ::1. The server refused the same file as a configuration error, exit 2,
// so a zoo.cfg line that runs under ZooKeeper could not be kept. The
// brackets are dropped, since the listen adds its own.
func TestBracketedIPv6Address(t *testing.T) {
	p, _ := properties.LoadString("clientPort=2181\nclientPortAddress=[::1]\nadmin.serverPort=8080\nadmin.serverAddress=[::1]\n")
	c, err := ConfigFromProperties(p, true)
	if err != nil {
		t.Fatalf("clientPortAddress=[::1]: %v; want accepted, as ZooKeeper accepts it", err)
	}
	if c.ClientPortAddress != "::1" || c.Ops.AdminAddress != "::1" {
		t.Errorf("addresses %q, %q; want ::1 (the listen adds brackets)", c.ClientPortAddress, c.Ops.AdminAddress)
	}
	for _, bad := range []string{"[127.0.0.1]", "[::1]:2181", "[::1", "[localhost]"} {
		p, _ := properties.LoadString("clientPort=2181\nclientPortAddress=" + bad + "\n")
		if _, err := ConfigFromProperties(p, true); !errors.Is(err, ErrConfig) {
			t.Errorf("clientPortAddress=%s: %v; want ErrConfig", bad, err)
		}
	}
}

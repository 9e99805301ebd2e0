package server

import (
	"errors"
	"fmt"
	"testing"

	"zablab/internal/ports"
	mw "zablab/mwzookeeper"
	"zablab/properties"
)

// TestListenErrorNamesTheAddressKey: an address the machine does not have
// (192.0.2.1, TEST-NET-1) in clientPortAddress or admin.serverAddress is
// that key's fault, not the port's; the error named clientPort (or
// admin.serverPort) and its line, sending the operator to the wrong line.
// A port in use stays the port key's fault (one the file gives twice is
// refused when the file is read, naming the second key).
func TestListenErrorNamesTheAddressKey(t *testing.T) {
	pp, err := ports.Free(2)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ extra, want string }{
		{fmt.Sprintf("clientPort=%d\nclientPortAddress=192.0.2.1\n", pp[0]), KeyClientPortAddress},
		{fmt.Sprintf("clientPort=%d\nadmin.serverPort=%d\nadmin.serverAddress=192.0.2.1\n", pp[0], pp[1]), KeyAdminAddress},
		{fmt.Sprintf("clientPort=%d\nadmin.serverPort=%d\n", pp[0], pp[0]), KeyAdminPort},
	}
	for _, c := range cases {
		p, err := properties.LoadString("myid=1\ntickTime=50\n" + c.extra)
		if err != nil {
			t.Fatal(err)
		}
		s, err := New(p, func() mw.Service { return newFake() }, Options{Logger: testLogger()})
		if err == nil { // a port given twice in the file is refused as it is read
			err = s.Start()
			_ = s.Stop()
		}
		var pe *properties.Error
		if !errors.As(err, &pe) || pe.Key != c.want {
			t.Errorf("Start with\n%s: %v; want an error naming the key %q", c.extra, err, c.want)
		}
	}
}

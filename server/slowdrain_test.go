package server

import (
	"encoding/binary"
	"net"
	"testing"
	"time"

	mw "zablab/mwzookeeper"
)

// TestSlowlyDrainingClientKeepsItsSession: a live client with a small
// receive buffer pipelines 48 reads of a 512 KiB node and then reads the
// replies slowly (one every 50 ms, 2.4 s in all, with a session timeout of
// 300 ms), pinging every 50 ms. The server stops reading under back pressure meanwhile, so the
// pings wait in the socket: that time must not count as the client's
// silence, and a write that makes progress must not time out. The
// connection survives and answers a later request.
func TestSlowlyDrainingClientKeepsItsSession(t *testing.T) {
	const reads = 48
	f := newFake()
	f.nodes["/big"] = fakeNode{data: make([]byte, 512<<10)}
	s := startServer(t, f, testProps)
	r := dialRaw(t, s.Addr())
	r.nc.SetDeadline(time.Now().Add(30 * time.Second))
	if tc, ok := r.nc.(*net.TCPConn); ok {
		tc.SetReadBuffer(64 << 10) // so the kernel does not take the whole burst
	}
	if to, _, _ := r.connect(0, make([]byte, 16), 300); to != 300 {
		t.Fatalf("negotiated timeout %d, want 300", to)
	}
	for xid := int32(1); xid <= reads; xid++ {
		r.request(xid, mw.OpGetData, "/big", false)
	}
	ping := append(be32(nil, 8), be32(be32(nil, -2), int32(mw.OpPing))...)
	pace := time.NewTicker(50 * time.Millisecond) // the client's reading speed, not a wait
	defer pace.Stop()
	for got := int32(0); got < reads; {
		<-pace.C
		if _, err := r.nc.Write(ping); err != nil {
			t.Fatalf("after %d replies: ping: %v", got, err)
		}
		for { // one getData reply, and the ping replies before it
			body := r.readFrame()
			if xid := int32(binary.BigEndian.Uint32(body)); xid != -2 {
				got++
				if xid != got {
					t.Fatalf("reply xid %d, want %d", xid, got)
				}
				break
			}
		}
	}
	r.request(100, mw.OpGetData, "/", false)
	for {
		if xid, code := r.reply(); xid == 100 {
			if code != 0 {
				t.Fatalf("getData after the burst: code %d", code)
			}
			return
		}
	}
}

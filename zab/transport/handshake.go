package transport

import (
	"bufio"
	"encoding/binary"
	"fmt"
)

// handshake is the first frame on every connection, in both directions:
// the dialer names itself and the peer it means to reach, the acceptor
// answers with the mirror image. Naming the target too catches a peer map
// that points at the wrong port: the acceptor refuses a handshake meant
// for someone else, and the dialer refuses an answer from someone else.
type handshake struct {
	from, to uint64
}

// handshakeMagic opens a handshake payload, so that a stray client (an
// HTTP probe, a ZooKeeper client on the wrong port) is told apart from a
// peer of another version.
var handshakeMagic = [4]byte{'Z', 'A', 'B', 'T'}

// maxHandshake bounds a handshake payload: magic, version, two uvarints.
// Reading the handshake with this limit means garbage is rejected after its
// first four bytes instead of after whatever length they spell.
const maxHandshake = len(handshakeMagic) + 1 + 2*binary.MaxVarintLen64

func appendHandshake(dst []byte, h handshake) []byte {
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	dst = append(dst, handshakeMagic[:]...)
	dst = append(dst, Version)
	dst = binary.AppendUvarint(dst, h.from)
	dst = binary.AppendUvarint(dst, h.to)
	binary.BigEndian.PutUint32(dst[start:], uint32(len(dst)-start-headerLen))
	return dst
}

// readHandshake reads and checks one handshake frame.
func readHandshake(r *bufio.Reader) (handshake, error) {
	f, err := ReadFrame(r, maxHandshake)
	if err != nil {
		return handshake{}, fmt.Errorf("handshake: %w", err)
	}
	return decodeHandshake(f)
}

func decodeHandshake(f []byte) (handshake, error) {
	p := f[headerLen:]
	if len(p) < len(handshakeMagic)+1 || [4]byte(p[:4]) != handshakeMagic {
		return handshake{}, fmt.Errorf("%w: not a handshake (bad magic)", ErrMalformed)
	}
	if p[4] != Version {
		return handshake{}, fmt.Errorf("%w: handshake version %d, want %d", ErrVersion, p[4], Version)
	}
	d := decoder{b: p, off: 5}
	h := handshake{from: d.uvarint("handshake from"), to: d.uvarint("handshake to")}
	if d.err == nil && d.off != len(p) {
		d.fail("%w: %d bytes of trailing garbage after the handshake", ErrMalformed, len(p)-d.off)
	}
	if d.err != nil {
		return handshake{}, d.err
	}
	return h, nil
}

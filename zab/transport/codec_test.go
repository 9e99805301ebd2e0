package transport

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"zablab/zab/core"
)

// entries returns n entries of the epoch, each with size bytes of data.
func entries(epoch uint32, n, size int) []core.Entry {
	es := make([]core.Entry, n)
	for i := range es {
		data := bytes.Repeat([]byte{byte(i)}, size)
		es[i] = core.Entry{Zxid: core.NewZxid(epoch, uint32(i+1)), Timestamp: 1_700_000_000_000_000_000 + int64(i),
			Proposer: uint64(i%3 + 1), Seq: uint64(i), Data: data}
	}
	return es
}

// sampleMessages has one message of every type, filled the way the core
// fills it, and a few with extreme values.
func sampleMessages() map[string]core.Message {
	z := core.NewZxid(7, 42)
	return map[string]core.Message{
		"VOTE": {Type: core.MsgVote, From: 1, To: 2, Round: 9, State: core.Looking,
			Vote: core.Vote{Leader: 3, Epoch: 6, Zxid: z}},
		"CEPOCH":               {Type: core.MsgCEpoch, From: 2, To: 3, Session: 0xdeadbeef, AcceptedEpoch: 6, LastZxid: z},
		"NEWEPOCH":             {Type: core.MsgNewEpoch, From: 3, To: 2, Epoch: 7, Session: 5, Established: true},
		"ACKEPOCH":             {Type: core.MsgAckEpoch, From: 2, To: 3, Epoch: 7, Session: 5, CurrentEpoch: 6, LastZxid: z, Counted: true, NonVoting: true},
		"NEWLEADER":            {Type: core.MsgNewLeader, From: 3, To: 2, Epoch: 7, Session: 5, Mode: core.SyncDiff, Zxid: z, Commit: z, Active: true, Entries: entries(7, 20, 100)},
		"NEWLEADER-snap":       {Type: core.MsgNewLeader, From: 3, To: 2, Epoch: 7, Mode: core.SyncSnap, Snapshot: &core.Snapshot{Meta: core.SnapshotMeta{Zxid: z, Timestamp: -5}, Data: bytes.Repeat([]byte("state"), 200_000)}, Entries: entries(7, 3, 10)},
		"NEWLEADER-empty-snap": {Type: core.MsgNewLeader, From: 3, To: 1, Mode: core.SyncSnap, Snapshot: &core.Snapshot{}},
		"NEWLEADER-trunc":      {Type: core.MsgNewLeader, From: 3, To: 1, Mode: core.SyncTrunc, Zxid: z},
		"ACKLD":                {Type: core.MsgAckLD, From: 2, To: 3, Epoch: 7, Session: 5, Seq: 11},
		"COMMITLD":             {Type: core.MsgCommitLD, From: 3, To: 2, Epoch: 7, Session: 5, Zxid: z},
		"PROPOSE":              {Type: core.MsgPropose, From: 3, To: 1, Epoch: 7, Session: 5, Zxid: z, Entries: entries(7, 1, 1024)},
		"PROPOSE-big":          {Type: core.MsgPropose, From: 3, To: 1, Epoch: 7, Zxid: z, Entries: entries(7, 10_000, 37)},
		"ACK":                  {Type: core.MsgAck, From: 1, To: 3, Epoch: 7, Session: 5, Zxid: z, Round: 3, Seq: 1},
		"COMMIT":               {Type: core.MsgCommit, From: 3, To: 1, Epoch: 7, Session: 5, Zxid: z},
		"PING":                 {Type: core.MsgPing, From: 3, To: 1, Epoch: 7, Session: 5, Round: 12, Commit: z, Active: true},
		"REQUEST":              {Type: core.MsgRequest, From: 1, To: 3, Epoch: 7, Session: 5, Entries: []core.Entry{{Seq: 4, Data: []byte("create /a")}}},
		"SYNC":                 {Type: core.MsgSync, From: 1, To: 3, Epoch: 7, Session: 5, Seq: 2},
		"SYNCREPLY":            {Type: core.MsgSyncReply, From: 3, To: 1, Epoch: 7, Session: 5, Seq: 2, Zxid: z},
		"extremes": {Type: core.MsgVote, From: math.MaxUint64, To: math.MaxUint64, Epoch: math.MaxUint32,
			Session: math.MaxUint64, Round: math.MaxUint64, State: core.Leading,
			Vote:          core.Vote{Leader: math.MaxUint64, Epoch: math.MaxUint32, Zxid: math.MaxUint64},
			AcceptedEpoch: math.MaxUint32, CurrentEpoch: math.MaxUint32, LastZxid: math.MaxUint64,
			Counted: true, NonVoting: true, Established: true, Active: true, Mode: core.SyncSnap,
			Zxid: math.MaxUint64, Commit: math.MaxUint64, Seq: math.MaxUint64,
			Snapshot: &core.Snapshot{Meta: core.SnapshotMeta{Zxid: math.MaxUint64, Timestamp: math.MinInt64}, Data: []byte{0}},
			Entries:  []core.Entry{{Zxid: math.MaxUint64, Timestamp: math.MaxInt64, Proposer: math.MaxUint64, Seq: math.MaxUint64}, {Data: []byte{}}}},
	}
}

// bytesEqual compares data as bytes.Equal does: fast on a snapshot of
// megabytes, and blind to nil versus empty, which the wire does not tell
// apart.
var bytesEqual = cmp.Comparer(bytes.Equal)

func TestRoundTripEveryMessage(t *testing.T) {
	seen := map[core.MsgType]bool{}
	for name, m := range sampleMessages() {
		t.Run(name, func(t *testing.T) {
			seen[m.Type] = true
			f := AppendMessage([]byte("prefix"), &m)
			if !bytes.HasPrefix(f, []byte("prefix")) {
				t.Fatalf("AppendMessage overwrote dst")
			}
			got, err := DecodeMessage(f[len("prefix"):])
			if err != nil {
				t.Fatalf("DecodeMessage: %v", err)
			}
			if diff := cmp.Diff(m, got, bytesEqual); diff != "" {
				t.Errorf("round trip (-sent +decoded):\n%s", diff)
			}
		})
	}
	for typ := core.MsgVote; typ <= core.MsgSyncReply; typ++ {
		if !seen[typ] {
			t.Errorf("no sample of %s", typ)
		}
	}
}

func TestSmallMessagesAreSmall(t *testing.T) {
	m := sampleMessages()["PING"]
	if n := len(AppendMessage(nil, &m)); n > 32 {
		t.Errorf("PING encodes to %d bytes, want at most 32", n)
	}
}

func TestReadFrameStream(t *testing.T) {
	var stream []byte
	msgs := sampleMessages()
	names := []string{"VOTE", "PROPOSE-big", "NEWLEADER-snap", "PING"}
	for _, n := range names {
		m := msgs[n]
		stream = AppendMessage(stream, &m)
	}
	r := bufio.NewReader(bytes.NewReader(stream))
	for _, n := range names {
		got, err := ReadMessage(r, 0)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		if diff := cmp.Diff(msgs[n], got, bytesEqual); diff != "" {
			t.Errorf("%s (-sent +read):\n%s", n, diff)
		}
	}
	if _, err := ReadFrame(r, 0); err != io.EOF {
		t.Errorf("after the last frame: %v, want io.EOF", err)
	}
}

func TestReadFrameErrors(t *testing.T) {
	ping := sampleMessages()["PING"]
	valid := AppendMessage(nil, &ping)
	for _, tc := range []struct {
		name  string
		in    []byte
		limit int
		want  error
	}{
		{"empty", nil, 0, io.EOF},
		{"partial header", []byte{0, 0}, 0, io.ErrUnexpectedEOF},
		{"partial payload", valid[:len(valid)-1], 0, io.ErrUnexpectedEOF},
		{"header above limit", []byte{0, 0, 4, 1}, 1024, ErrTooLarge},
		{"header above MaxFrame", []byte{0xff, 0xff, 0xff, 0xff}, 0, ErrTooLarge},
		{"lying header", []byte{0x0f, 0, 0, 0, 1, 2, 3}, 0, io.ErrUnexpectedEOF},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadFrame(bufio.NewReader(bytes.NewReader(tc.in)), tc.limit)
			if !errors.Is(err, tc.want) {
				t.Errorf("ReadFrame: %v, want %v", err, tc.want)
			}
		})
	}
}

func TestWriteMessageRefusesTooLarge(t *testing.T) {
	m := sampleMessages()["PROPOSE"]
	var out bytes.Buffer
	if _, err := WriteMessage(&out, nil, &m, 1000); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("WriteMessage of a 1 KiB entry with limit 1000: %v, want ErrTooLarge", err)
	}
	if out.Len() != 0 {
		t.Errorf("wrote %d bytes of a refused frame", out.Len())
	}
	if _, err := WriteMessage(&out, nil, &m, 0); err != nil {
		t.Fatalf("WriteMessage: %v", err)
	}
}

// frame prefixes a payload with its length.
func frame(payload []byte) []byte {
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(payload))), payload...)
}

// pingPayload is the payload of a zero PING: every field one byte, so the
// tests below can poke at fixed offsets (8: State, 15: Mode).
func pingPayload() []byte {
	m := core.Message{Type: core.MsgPing}
	return AppendMessage(nil, &m)[headerLen:]
}

// edit returns a frame of the zero PING's payload after f changed it.
func edit(f func(p []byte) []byte) []byte { return frame(f(pingPayload())) }

func TestDecodeRejects(t *testing.T) {
	valid := frame(pingPayload())
	uv := func(p []byte, vs ...uint64) []byte {
		for _, v := range vs {
			p = binary.AppendUvarint(p, v)
		}
		return p
	}
	for _, tc := range []struct {
		name string
		in   []byte
		want error
		says string // part of the error message
	}{
		{"empty", nil, ErrMalformed, "shorter than"},
		{"short header", []byte{0, 0, 1}, ErrMalformed, "shorter than"},
		{"length beyond the bytes", valid[:len(valid)-2], ErrMalformed, "exceeds the"},
		{"trailing garbage after the frame", append(valid, 0), ErrMalformed, "trailing garbage"},
		{"frame above MaxFrame", append(binary.BigEndian.AppendUint32(nil, MaxFrame+1), make([]byte, 8)...), ErrTooLarge, "exceeds the maximum"},
		{"payload too short", frame([]byte{Version, byte(core.MsgPing)}), ErrMalformed, "shorter than"},
		{"version 0", edit(func(p []byte) []byte { p[0] = 0; return p }), ErrVersion, "version 0"},
		{"version 3", edit(func(p []byte) []byte { p[0] = 3; return p }), ErrVersion, "version 3"},
		{"type 0", edit(func(p []byte) []byte { p[1] = 0; return p }), ErrMalformed, "unknown message type 0"},
		{"type beyond the last", edit(func(p []byte) []byte { p[1] = byte(core.MsgSyncReply) + 1; return p }), ErrMalformed, "unknown message type"},
		{"unknown flag", edit(func(p []byte) []byte { p[2] = 0x80; return p }), ErrMalformed, "unknown flag"},
		{"unknown State", edit(func(p []byte) []byte { p[8] = 3; return p }), ErrMalformed, "State"},
		{"unknown Mode", edit(func(p []byte) []byte { p[15] = 4; return p }), ErrMalformed, "Mode"},
		{"truncated fields", edit(func(p []byte) []byte { return p[:8] }), ErrMalformed, "unexpected end"},
		{"truncated varint", edit(func(p []byte) []byte { return append(p[:3], 0x80) }), ErrMalformed, "bad varint"},
		{"varint overflow", edit(func(p []byte) []byte { return append(p[:3], bytes.Repeat([]byte{0xff}, 11)...) }), ErrMalformed, "From: bad varint"},
		{"epoch above 32 bits", frame(uv([]byte{Version, byte(core.MsgPing), 0}, 1, 2, 3, 4, 1<<32)), ErrMalformed, "Epoch: 4294967296 overflows"},
		{"trailing garbage after the message", edit(func(p []byte) []byte { return append(p, 0) }), ErrMalformed, "trailing garbage after the message"},
		{"snapshot flag without snapshot", edit(func(p []byte) []byte { p[2] = flagSnapshot; return p }), ErrMalformed, "Snapshot.Zxid"},
		{"snapshot data beyond the bytes", edit(func(p []byte) []byte { p[2] = flagSnapshot; return uv(p, 1, 0, 0, 0, 0, 100, 1) }), ErrMalformed, "Snapshot.Data: length 100 exceeds"},
		{"zero entries", edit(func(p []byte) []byte { p[2] = flagEntries; return uv(p, 0) }), ErrMalformed, "entry count 0"},
		{"huge entry count", edit(func(p []byte) []byte { p[2] = flagEntries; return uv(p, 1<<60, 0, 0, 0, 0, 0) }), ErrMalformed, "entry count"},
		{"entry data beyond the bytes", edit(func(p []byte) []byte { p[2] = flagEntries; return uv(p, 1, 1, 0, 1, 0, 1, 9, 0) }), ErrMalformed, "Entry.Data"},
		{"truncated entry", edit(func(p []byte) []byte { p[2] = flagEntries; return uv(p, 2, 300, 0, 1, 0, 1, 0, 7, 0, 0, 0, 0) }), ErrMalformed, "Entry.Data length"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := DecodeMessage(tc.in)
			if !errors.Is(err, tc.want) {
				t.Fatalf("DecodeMessage = %v, %v; want error %v", m, err, tc.want)
			}
			if !strings.Contains(err.Error(), tc.says) {
				t.Errorf("error %q does not say %q", err, tc.says)
			}
		})
	}
}

func TestDecodeAliasesInputButCapsIt(t *testing.T) {
	m := core.Message{Type: core.MsgPropose, Entries: []core.Entry{{Data: []byte("ab")}, {Data: []byte("cd")}}}
	got, err := DecodeMessage(AppendMessage(nil, &m))
	if err != nil {
		t.Fatal(err)
	}
	_ = append(got.Entries[0].Data, 'X')
	if string(got.Entries[1].Data) != "cd" {
		t.Errorf("appending to one entry's data overwrote the next: %q", got.Entries[1].Data)
	}
}

func TestHandshakeDecode(t *testing.T) {
	good := appendHandshake(nil, handshake{from: 1, to: 300})
	if h, err := decodeHandshake(good); err != nil || h != (handshake{1, 300}) {
		t.Fatalf("decodeHandshake = %v, %v", h, err)
	}
	badVersion := bytes.Clone(good)
	badVersion[headerLen+4] = 9
	for _, tc := range []struct {
		name string
		in   []byte
		want error
	}{
		{"bad magic", frame([]byte("ZABX\x01\x01\x02")), ErrMalformed},
		{"too short", frame([]byte("ZA")), ErrMalformed},
		{"bad version", badVersion, ErrVersion},
		{"trailing", frame(append(bytes.Clone(good[headerLen:]), 1)), ErrMalformed},
		{"truncated ids", frame([]byte("ZABT\x02\x80")), ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := decodeHandshake(tc.in); !errors.Is(err, tc.want) {
				t.Errorf("decodeHandshake: %v, want %v", err, tc.want)
			}
		})
	}
}

func FuzzDecodeMessage(f *testing.F) {
	for _, m := range sampleMessages() {
		if seed := AppendMessage(nil, &m); len(seed) <= 512 { // small inputs mutate and minimize fast
			f.Add(seed)
		}
	}
	f.Add(AppendMessage(nil, &core.Message{Type: core.MsgNewLeader, Mode: core.SyncSnap,
		Snapshot: &core.Snapshot{Data: []byte("s")}, Entries: entries(1, 2, 3)}))
	f.Add(frame(pingPayload()))
	f.Add(appendHandshake(nil, handshake{from: 1, to: 2}))
	f.Fuzz(func(t *testing.T, in []byte) {
		m, err := DecodeMessage(in)
		if err != nil {
			if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrTooLarge) && !errors.Is(err, ErrVersion) {
				t.Fatalf("error without a sentinel: %v", err)
			}
			return
		}
		enc := AppendMessage(nil, &m)
		m2, err := DecodeMessage(enc)
		if err != nil {
			t.Fatalf("re-decoding %x: %v", enc, err)
		}
		if diff := cmp.Diff(m, m2); diff != "" {
			t.Fatalf("decode(encode(decode(x))) differs (-first +second):\n%s", diff)
		}
		if enc2 := AppendMessage(nil, &m2); !bytes.Equal(enc, enc2) {
			t.Fatalf("encoding is not canonical:\n%x\n%x", enc, enc2)
		}
	})
}

func BenchmarkEncodeDecodePropose(b *testing.B) {
	m := core.Message{Type: core.MsgPropose, From: 3, To: 1, Epoch: 7, Session: 5,
		Zxid: core.NewZxid(7, 41), Entries: entries(7, 1, 1024)}
	buf := AppendMessage(nil, &m)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		buf = AppendMessage(buf[:0], &m)
		if _, err := DecodeMessage(buf); err != nil {
			b.Fatal(err)
		}
	}
}

// ExampleAppendMessage shows a frame's layout.
func ExampleAppendMessage() {
	m := core.Message{Type: core.MsgAck, From: 1, To: 3, Epoch: 7, Zxid: core.NewZxid(7, 42)}
	f := AppendMessage(nil, &m)
	fmt.Printf("length %x, version %02x, type %02x (%s), flags %02x\n", f[:4], f[4], f[5], core.MsgType(f[5]), f[6])
	// Output: length 00000018, version 02, type 09 (ACK), flags 00
}

package sim

import (
	"encoding/binary"
	"fmt"

	"zablab/zab/core"
)

// record is one delivered message as the simulated application keeps it.
// Data of every proposal is its id, unique in a schedule.
type record struct {
	Zxid      core.Zxid
	Timestamp int64
	Proposer  uint64
	Inc       uint64 // the proposer's incarnation, as the entry says
	Seq       uint64
	ID        uint64
}

// app is the simulated application: the list of everything delivered. Its
// state is the list, so GetState/SetState are exercised in full.
type app struct {
	list []record
}

const recordSize = 48

func (a *app) getState() []byte {
	b := make([]byte, 0, len(a.list)*recordSize)
	for _, r := range a.list {
		b = binary.BigEndian.AppendUint64(b, uint64(r.Zxid))
		b = binary.BigEndian.AppendUint64(b, uint64(r.Timestamp))
		b = binary.BigEndian.AppendUint64(b, r.Proposer)
		b = binary.BigEndian.AppendUint64(b, r.Inc)
		b = binary.BigEndian.AppendUint64(b, r.Seq)
		b = binary.BigEndian.AppendUint64(b, r.ID)
	}
	return b
}

func decodeState(b []byte) ([]record, error) {
	if len(b)%recordSize != 0 {
		return nil, fmt.Errorf("state of %d bytes is not whole records", len(b))
	}
	out := make([]record, 0, len(b)/recordSize)
	for ; len(b) > 0; b = b[recordSize:] {
		out = append(out, record{
			Zxid:      core.Zxid(binary.BigEndian.Uint64(b)),
			Timestamp: int64(binary.BigEndian.Uint64(b[8:])),
			Proposer:  binary.BigEndian.Uint64(b[16:]),
			Inc:       binary.BigEndian.Uint64(b[24:]),
			Seq:       binary.BigEndian.Uint64(b[32:]),
			ID:        binary.BigEndian.Uint64(b[40:]),
		})
	}
	return out, nil
}

func recordOf(e core.Entry) record {
	var id uint64
	if len(e.Data) == 8 {
		id = binary.BigEndian.Uint64(e.Data)
	}
	return record{Zxid: e.Zxid, Timestamp: e.Timestamp, Proposer: e.Proposer, Inc: e.Incarnation, Seq: e.Seq, ID: id}
}

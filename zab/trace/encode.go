package trace

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// AppendJSON appends e as one line of JSON (with its newline) to dst. It
// writes what encoding/json would read back into an equal Event, without
// reflection or allocation: a peer that traces pays a few hundred
// nanoseconds per event.
func AppendJSON(dst []byte, e *Event) []byte {
	dst = append(dst, '{')
	dst = appendUint(dst, "p", e.Peer)
	dst = appendUint(dst, "i", e.Inc)
	dst = appendUint(dst, "n", e.N)
	dst = append(dst, `"t":`...)
	dst = strconv.AppendInt(dst, e.Time, 10)
	dst = append(dst, `,"k":`...)
	dst = appendString(dst, string(e.Kind))
	dst = appendStr(dst, "role", e.Role)
	dst = appendStr(dst, "phase", e.Phase)
	dst = appendNext(dst, "epoch", uint64(e.Epoch))
	dst = appendNext(dst, "leader", e.Leader)
	dst = appendZxidNext(dst, "zxid", e.Zxid)
	dst = appendZxidNext(dst, "last", e.Last)
	dst = appendNext(dst, "count", e.Count)
	if m := e.Msg; m != nil {
		dst = append(dst, `,"m":`...)
		dst = appendMsg(dst, m)
	}
	dst = appendStr(dst, "x", e.Text)
	if len(e.Cause) > 0 {
		dst = append(dst, `,"cause":[`...)
		for i, r := range e.Cause {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"p":`...)
			dst = strconv.AppendUint(dst, r.Peer, 10)
			dst = append(dst, `,"i":`...)
			dst = strconv.AppendUint(dst, r.Inc, 10)
			dst = append(dst, `,"n":`...)
			dst = strconv.AppendUint(dst, r.N, 10)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	dst = appendNext(dst, "lc", e.Lamport)
	return append(dst, '}', '\n')
}

func appendMsg(dst []byte, m *Msg) []byte {
	dst = append(dst, `{"type":`...)
	dst = appendString(dst, m.Type)
	dst = append(dst, `,"from":`...)
	dst = strconv.AppendUint(dst, m.From, 10)
	dst = append(dst, `,"to":`...)
	dst = strconv.AppendUint(dst, m.To, 10)
	dst = appendNext(dst, "id", m.ID)
	dst = appendNext(dst, "l", m.Link)
	dst = appendNext(dst, "h", m.Hash)
	dst = appendNext(dst, "epoch", uint64(m.Epoch))
	dst = appendNext(dst, "round", m.Round)
	if m.State != "" {
		dst = append(dst, `,"state":`...)
		dst = appendString(dst, m.State)
	}
	if v := m.Vote; v != nil {
		dst = append(dst, `,"vote":{"leader":`...)
		dst = strconv.AppendUint(dst, v.Leader, 10)
		dst = append(dst, `,"epoch":`...)
		dst = strconv.AppendUint(dst, uint64(v.Epoch), 10)
		dst = append(dst, `,"zxid":"0x`...)
		dst = strconv.AppendUint(dst, uint64(v.Zxid), 16)
		dst = append(dst, `"}`...)
	}
	for _, z := range [...]struct {
		key string
		z   Zxid
	}{{"zxid", m.Zxid}, {"commit", m.Commit}} {
		dst = appendZxidNext(dst, z.key, z.z)
	}
	if m.Mode != "" {
		dst = append(dst, `,"mode":`...)
		dst = appendString(dst, m.Mode)
	}
	dst = appendNext(dst, "entries", m.Entries)
	dst = appendZxidNext(dst, "first", m.First)
	dst = appendZxidNext(dst, "laste", m.LastE)
	dst = appendZxidNext(dst, "snap", m.Snap)
	dst = appendNext(dst, "acc", uint64(m.Accepted))
	dst = appendNext(dst, "cur", uint64(m.Current))
	dst = appendZxidNext(dst, "lastzxid", m.LastZxid)
	dst = appendNext(dst, "seq", m.Seq)
	if m.Flags != "" {
		dst = append(dst, `,"flags":`...)
		dst = appendString(dst, m.Flags)
	}
	return append(dst, '}')
}

// appendUint writes "key":v, for a non-zero v, followed by a comma: the
// event's object starts with these and always continues with "t".
func appendUint(dst []byte, key string, v uint64) []byte {
	if v == 0 {
		return dst
	}
	dst = append(dst, '"')
	dst = append(dst, key...)
	dst = append(dst, '"', ':')
	dst = strconv.AppendUint(dst, v, 10)
	return append(dst, ',')
}

// appendNext writes ,"key":v for a non-zero v.
func appendNext(dst []byte, key string, v uint64) []byte {
	if v == 0 {
		return dst
	}
	dst = append(dst, ',', '"')
	dst = append(dst, key...)
	dst = append(dst, '"', ':')
	return strconv.AppendUint(dst, v, 10)
}

func appendStr(dst []byte, key, v string) []byte {
	if v == "" {
		return dst
	}
	dst = append(dst, ',', '"')
	dst = append(dst, key...)
	dst = append(dst, '"', ':')
	return appendString(dst, v)
}

func appendZxidNext(dst []byte, key string, z Zxid) []byte {
	if z == 0 {
		return dst
	}
	dst = append(dst, ',', '"')
	dst = append(dst, key...)
	dst = append(dst, `":"0x`...)
	dst = strconv.AppendUint(dst, uint64(z), 16)
	return append(dst, '"')
}

// appendString writes s as a JSON string; plain ASCII (every name and
// most texts) is copied as it is.
func appendString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			b, _ := json.Marshal(s) // rare: let encoding/json escape it
			return append(dst, b...)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

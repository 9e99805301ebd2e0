package timeline

import (
	"fmt"
	"strings"

	"zablab/zab/trace"
)

// describe is the text shown when hovering e or stepping onto it: what
// happened, every field that says something, and where it stands.
func describe(e *trace.Event) string {
	var b strings.Builder
	who := "network"
	if e.Peer != 0 {
		who = fmt.Sprintf("peer %d", e.Peer)
	}
	switch e.Kind {
	case trace.KindSend:
		fmt.Fprintf(&b, "%s sends %s to peer %d", who, e.Msg.Label(), e.Msg.To)
	case trace.KindRecv:
		if e.Msg.Type == "PEERLOST" {
			fmt.Fprintf(&b, "%s: its connection to peer %d failed (the transport saw the socket close)", who, e.Msg.From)
		} else {
			fmt.Fprintf(&b, "%s receives %s from peer %d", who, e.Msg.Label(), e.Msg.From)
		}
	case trace.KindDrop:
		fmt.Fprintf(&b, "%s from peer %d to peer %d is lost", e.Msg.Label(), e.Msg.From, e.Msg.To)
	case trace.KindState:
		fmt.Fprintf(&b, "%s is %s", who, roleLabel(e))
	case trace.KindAppend:
		fmt.Fprintf(&b, "%s logs %d entries %s", who, e.Count, zxidRange(e.Zxid, e.Last))
	case trace.KindDeliver:
		fmt.Fprintf(&b, "%s delivers %s", who, e.Zxid)
	default:
		fmt.Fprintf(&b, "%s: %s", who, e.Kind)
	}
	if e.Text != "" {
		b.WriteString("\n" + e.Text)
	}
	if m := e.Msg; m != nil && m.Type != "PEERLOST" {
		b.WriteString("\n" + msgFields(m))
	}
	if e.Kind == trace.KindStart || e.Kind == trace.KindState {
		if e.Zxid != 0 {
			fmt.Fprintf(&b, "\nlast logged %s", e.Zxid)
		}
	}
	if e.Peer != 0 {
		fmt.Fprintf(&b, "\nevent %d of incarnation %#x", e.N, e.Inc)
	}
	if e.Lamport != 0 {
		fmt.Fprintf(&b, ", Lamport clock %d", e.Lamport)
	}
	return b.String()
}

// msgFields lists a message's non-zero fields, one group per line.
func msgFields(m *trace.Msg) string {
	var parts []string
	add := func(cond bool, format string, args ...any) {
		if cond {
			parts = append(parts, fmt.Sprintf(format, args...))
		}
	}
	add(true, "epoch %d", m.Epoch)
	add(m.Round != 0, "round %d", m.Round)
	add(m.State != "", "sender %s", m.State)
	if v := m.Vote; v != nil {
		add(true, "vote: leader %d, epoch %d, last zxid %s", v.Leader, v.Epoch, v.Zxid)
	}
	add(m.Accepted != 0 || m.Current != 0 || m.LastZxid != 0, "acceptedEpoch %d, currentEpoch %d, last zxid %s",
		m.Accepted, m.Current, m.LastZxid)
	add(m.Mode != "", "sync by %s", m.Mode)
	add(m.Zxid != 0, "zxid %s", m.Zxid)
	add(m.Commit != 0, "commit %s", m.Commit)
	add(m.Entries != 0, "%d entries %s", m.Entries, zxidRange(m.First, m.LastE))
	add(m.Snap != 0, "snapshot at %s", m.Snap)
	add(m.Seq != 0, "seq %d", m.Seq)
	add(m.Flags != "", "%s", m.Flags)
	id := ""
	if m.ID != 0 {
		id = fmt.Sprintf("message #%d", m.ID)
	}
	if m.Link != 0 {
		id += fmt.Sprintf(" (%d→%d, the sender's %d. on this link)", m.From, m.To, m.Link)
	}
	if id != "" {
		parts = append(parts, strings.TrimSpace(id))
	}
	return strings.Join(parts, "\n")
}

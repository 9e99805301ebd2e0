package timeline

import (
	"fmt"
	"slices"
	"strings"

	"zablab/zab/trace"
)

// data is what the page's script draws: computed here, so the layout is
// tested in Go and the script only draws.
type data struct {
	Title   string   `json:"title"`
	Summary string   `json:"summary"`
	Notes   []string `json:"notes"`
	Lanes   []lane   `json:"lanes"`
	Events  []pev    `json:"events"`
	Arrows  []arrow  `json:"arrows"`
	Bands   []band   `json:"bands"`
	Rows    int      `json:"rows"`
	Open    int      `json:"open"`   // the event the page opens at
	Causes  []int    `json:"causes"` // events that caused the violation, highlighted
	Types   []string `json:"types"`  // message types present, for the filters
	Unit    string   `json:"unit"`
}

// lane is one column: a peer, or the world (id 0: network and checker).
type lane struct {
	ID    uint64 `json:"id"`
	Label string `json:"label"`
}

// pev is one event as drawn: its lane and row, what kind of marker, a
// short label and the full description for hovering.
type pev struct {
	Lane  int    `json:"l"`
	Row   int    `json:"r"`
	Kind  string `json:"k"` // trace.Kind, or "proposal", "commit", "peerlost" for what they stand for
	Label string `json:"t,omitempty"`
	Info  string `json:"d"`
	Type  string `json:"m,omitempty"` // message type of a send, receipt or drop
	Time  string `json:"time"`
	Arrow int    `json:"a"` // the arrow a message event belongs to; -1: none
}

// arrow is one message: from its send to a receipt, to the place it was
// lost (Kind "drop"), or pointing towards its receiver when the trace
// never saw it arrive ("lost"); "orphan" is a receipt whose send is not
// in the trace.
type arrow struct {
	From  int    `json:"f"` // send event; -1 for an orphan
	To    int    `json:"t"` // receipt or drop event; -1 when lost
	FromL int    `json:"fl"`
	ToL   int    `json:"tl"` // the receiver's lane (a drop may be drawn on the sender's)
	Type  string `json:"m"`
	Kind  string `json:"k"` // recv, drop, lost, orphan
	Label string `json:"label"`
}

// band is a stretch of a lane in one role (or down).
type band struct {
	Lane  int    `json:"l"`
	Row0  int    `json:"r0"`
	Row1  int    `json:"r1"`   // inclusive
	Role  string `json:"role"` // LOOKING, FOLLOWING, LEADING, DOWN
	Phase string `json:"phase"`
	Label string `json:"label"`
}

// build lays out events. Rows keep the events' order (a later event is
// never drawn above an earlier one) and pack events of different lanes
// into one row where nothing orders them: a row never holds two events of
// a lane, nor a receipt and its send, nor anything besides a world event.
func build(p *Page) *data {
	// Empty lists, not nil: JSON null would break the script's loops (a
	// run of one peer sends no message).
	d := &data{Title: p.Title, Summary: p.Summary, Notes: append([]string{}, p.Notes...), Open: -1, Unit: p.unit(),
		Lanes: []lane{}, Events: []pev{}, Arrows: []arrow{}, Bands: []band{}, Causes: []int{}, Types: []string{}}
	laneOf := d.lanes(p.Events)
	ref := map[trace.Ref]int{}
	sendOf := map[uint64]int{} // message ID → its send
	rows := make([]int, len(p.Events))
	lastRow := map[int]int{}
	row, rowLanes := 0, map[int]bool{}
	for i := range p.Events {
		e := &p.Events[i]
		ref[e.Ref()] = i
		l := laneOf[e.Peer]
		r := max(row, lastRow[l]+1)
		if e.Msg != nil && e.Kind != trace.KindSend {
			if s, ok := sendOf[e.Msg.ID]; ok && e.Msg.ID != 0 {
				r = max(r, rows[s]+1)
			}
		}
		world := e.Peer == 0
		if r == row && (rowLanes[l] || rowLanes[-1] || world && len(rowLanes) > 0) {
			r++
		}
		if r != row {
			row, rowLanes = r, map[int]bool{}
		}
		rowLanes[l] = true
		if world {
			rowLanes[-1] = true
		}
		rows[i], lastRow[l] = r, r
		if e.Kind == trace.KindSend && e.Msg != nil && e.Msg.ID != 0 {
			sendOf[e.Msg.ID] = i
		}
	}
	d.Rows = row + 2
	d.events(p, laneOf, rows, sendOf)
	d.bands(p.Events, laneOf, rows)
	for i := range p.Events {
		if p.Events[i].Kind == trace.KindViolation {
			d.Open = i
			d.Causes = causes(p.Events, i, ref)
		}
	}
	if d.Open < 0 {
		d.Open = len(p.Events) - 1
	}
	return d
}

// lanes makes one lane per peer, ascending, after the world's if it has
// events; it returns each peer's lane.
func (d *data) lanes(evs []trace.Event) map[uint64]int {
	var ids []uint64
	seen := map[uint64]bool{}
	for i := range evs {
		if id := evs[i].Peer; !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	laneOf := map[uint64]int{}
	for i, id := range ids {
		laneOf[id] = i
		label := fmt.Sprintf("peer %d", id)
		if id == 0 {
			label = "network"
		}
		d.Lanes = append(d.Lanes, lane{ID: id, Label: label})
	}
	return laneOf
}

// events describes every event and links messages into arrows.
func (d *data) events(p *Page, laneOf map[uint64]int, rows []int, sendOf map[uint64]int) {
	types := map[string]bool{}
	role := map[uint64]string{}
	var t0 int64
	if len(p.Events) > 0 {
		t0 = p.Events[0].Time
	}
	arrowOfSend := map[int][]int{}
	for i := range p.Events {
		e := &p.Events[i]
		v := pev{Lane: laneOf[e.Peer], Row: rows[i], Kind: string(e.Kind), Info: describe(e), Time: p.timeOf(e, t0), Arrow: -1}
		switch e.Kind {
		case trace.KindState:
			role[e.Peer] = e.Role
		case trace.KindCrash, trace.KindStop:
			role[e.Peer] = ""
		}
		v.Kind, v.Label = markerOf(e, role[e.Peer])
		if m := e.Msg; m != nil {
			v.Type = m.Type
			types[m.Type] = true
			switch e.Kind {
			case trace.KindSend:
				a := arrow{From: i, To: -1, FromL: v.Lane, ToL: d.laneOrSelf(laneOf, m.To, v.Lane), Type: m.Type,
					Kind: "lost", Label: m.Label()}
				v.Arrow = len(d.Arrows)
				arrowOfSend[i] = append(arrowOfSend[i], v.Arrow)
				d.Arrows = append(d.Arrows, a)
			case trace.KindRecv, trace.KindDrop:
				v.Arrow = d.link(i, e, v.Lane, laneOf, sendOf, arrowOfSend)
			}
		}
		d.Events = append(d.Events, v)
	}
	for t := range types {
		if t != "PEERLOST" { // a local note, drawn as a marker: nothing to filter
			d.Types = append(d.Types, t)
		}
	}
	slices.SortFunc(d.Types, func(a, b string) int { return order(a) - order(b) })
}

// link attaches receipt or drop i to its send's arrow (the first receipt
// fills the send's arrow; a duplicate gets an arrow of its own), or makes
// an orphan arrow for a receipt whose send is not in the trace.
func (d *data) link(i int, e *trace.Event, l int, laneOf map[uint64]int, sendOf map[uint64]int, arrowOfSend map[int][]int) int {
	m := e.Msg
	kind := "recv"
	if e.Kind == trace.KindDrop {
		kind = "drop"
	}
	s, ok := sendOf[m.ID]
	if !ok || m.ID == 0 || s > i { // a receipt listed before its send is drawn as one without
		if m.Type == "PEERLOST" {
			return -1 // a local note, drawn as a marker
		}
		d.Arrows = append(d.Arrows, arrow{From: -1, To: i, FromL: d.laneOrSelf(laneOf, m.From, l), ToL: l,
			Type: m.Type, Kind: "orphan", Label: m.Label()})
		return len(d.Arrows) - 1
	}
	for _, a := range arrowOfSend[s] {
		if d.Arrows[a].To < 0 {
			d.Arrows[a].To, d.Arrows[a].Kind = i, kind
			return a
		}
	}
	a := d.Arrows[arrowOfSend[s][0]]
	a.To, a.Kind = i, kind
	d.Arrows = append(d.Arrows, a)
	arrowOfSend[s] = append(arrowOfSend[s], len(d.Arrows)-1)
	return len(d.Arrows) - 1
}

func (d *data) laneOrSelf(laneOf map[uint64]int, id uint64, self int) int {
	if l, ok := laneOf[id]; ok {
		return l
	}
	return self
}

// bands cuts each lane into stretches of one role, and of being down.
func (d *data) bands(evs []trace.Event, laneOf map[uint64]int, rows []int) {
	open := map[int]int{} // lane → index of its open band
	closeBand := func(l, r int) {
		if b, ok := open[l]; ok {
			d.Bands[b].Row1 = max(d.Bands[b].Row0, r)
			delete(open, l)
		}
	}
	start := func(l, r int, b band) {
		closeBand(l, r-1)
		b.Lane, b.Row0, b.Row1 = l, r, r
		open[l] = len(d.Bands)
		d.Bands = append(d.Bands, b)
	}
	for i := range evs {
		e, l, r := &evs[i], laneOf[evs[i].Peer], rows[i]
		if e.Peer == 0 {
			continue
		}
		switch e.Kind {
		case trace.KindState:
			start(l, r, band{Role: e.Role, Phase: e.Phase, Label: roleLabel(e)})
		case trace.KindStart:
			start(l, r, band{Role: "LOOKING"}) // the start marker says it; a state follows

		case trace.KindCrash:
			start(l, r, band{Role: "DOWN", Label: "down"})
		case trace.KindStop, trace.KindFull:
			closeBand(l, r)
		}
	}
	for l := range open {
		closeBand(l, d.Rows-1)
	}
}

// roleLabel is what a lane says where its role changes: "LEADING e=3",
// "FOLLOWING 2 e=3", with the phase until broadcast.
func roleLabel(e *trace.Event) string {
	s := e.Role
	if e.Role == "FOLLOWING" {
		s += fmt.Sprintf(" %d", e.Leader)
	}
	if e.Role != "LOOKING" {
		s += fmt.Sprintf(" e=%d", e.Epoch)
		if e.Phase != "" && e.Phase != "broadcast" {
			s += " (" + e.Phase + ")"
		}
	}
	return s
}

// markerOf names the marker of e and its short label. A leader's append
// is a proposal, its delivery the commit point.
func markerOf(e *trace.Event, role string) (kind, label string) {
	switch e.Kind {
	case trace.KindAppend:
		if role == "LEADING" {
			return "proposal", "propose " + zxidRange(e.Zxid, e.Last)
		}
		return string(e.Kind), ""
	case trace.KindDeliver:
		if role == "LEADING" {
			return "commit", "commit " + e.Zxid.String()
		}
		return string(e.Kind), e.Zxid.String()
	case trace.KindRecv:
		if e.Msg != nil && e.Msg.Type == "PEERLOST" {
			return "peerlost", fmt.Sprintf("connection to %d lost", e.Msg.From)
		}
	case trace.KindStart:
		return string(e.Kind), "start"
	case trace.KindCrash:
		return string(e.Kind), "crash"
	case trace.KindStop:
		return string(e.Kind), "stop"
	case trace.KindPause:
		return string(e.Kind), "pause"
	case trace.KindTruncate:
		return string(e.Kind), "truncate after " + e.Zxid.String()
	case trace.KindSnapshot:
		return string(e.Kind), "snapshot " + e.Zxid.String()
	case trace.KindRestore:
		return string(e.Kind), "SetState " + e.Zxid.String()
	case trace.KindNet, trace.KindViolation, trace.KindFull:
		label, _, _ := strings.Cut(e.Text, ":")
		return string(e.Kind), label
	}
	return string(e.Kind), ""
}

func zxidRange(a, b trace.Zxid) string {
	if b == 0 || a == b {
		return a.String()
	}
	return a.String() + "…" + b.String()
}

// order sorts message types by phase of the protocol.
func order(t string) int {
	i := slices.Index([]string{"VOTE", "CEPOCH", "NEWEPOCH", "ACKEPOCH", "NEWLEADER", "ACKLD", "COMMITLD",
		"PROPOSE", "ACK", "COMMIT", "PING", "REQUEST", "SYNC", "SYNCREPLY", "PEERLOST"}, t)
	if i < 0 {
		return 100
	}
	return i
}

package lincheck

import (
	"testing"

	"github.com/anishathalye/porcupine"
)

// TestModel checks the model on tiny hand-written histories: it must
// accept the linearizable ones and reject the others, or a test that
// uses it proves nothing.
func TestModel(t *testing.T) {
	for _, c := range modelCases() {
		if got := porcupine.CheckOperationsTimeout(Model, c.h, 0); got != c.want {
			t.Errorf("%s: the model says %s, want %s", c.name, got, c.want)
		}
	}
}

// modelCase is a hand-written history and the verdict it must get.
type modelCase struct {
	name string
	h    []porcupine.Operation
	want porcupine.CheckResult
}

func modelCases() []modelCase {
	create := Input{Kind: Create, Key: "/k", Data: "a", Version: -1}
	setB := Input{Kind: Set, Key: "/k", Data: "b", Version: 0}
	get := Input{Kind: Get, Key: "/k"}
	other := Input{Kind: Get, Key: "/other"}
	return []modelCase{
		{"stale read after a completed setData", []porcupine.Operation{
			Op(0, 0, 10, create, Output{}),
			Op(0, 20, 30, setB, Output{Version: 1}),
			Op(1, 40, 50, get, Output{Data: "a", Version: 0}),
		}, porcupine.Illegal},
		{"read concurrent with setData sees either", []porcupine.Operation{
			Op(0, 0, 10, create, Output{}),
			Op(0, 20, 50, setB, Output{Version: 1}),
			Op(1, 30, 40, get, Output{Data: "a", Version: 0}),
			Op(2, 30, 45, get, Output{Data: "b", Version: 1}),
		}, porcupine.Ok},
		{"two clients read the values in opposite orders", []porcupine.Operation{
			Op(0, 0, 10, create, Output{}),
			Op(0, 20, 100, setB, Output{Version: 1}),
			Op(1, 30, 40, get, Output{Data: "b", Version: 1}),
			Op(2, 50, 60, get, Output{Data: "a", Version: 0}),
		}, porcupine.Illegal},
		{"wrong version returned", []porcupine.Operation{
			Op(0, 0, 10, create, Output{}),
			Op(1, 20, 30, get, Output{Data: "a", Version: 1}),
		}, porcupine.Illegal},
		{"two creates both succeed", []porcupine.Operation{
			Op(0, 0, 10, create, Output{}),
			Op(1, 0, 10, Input{Kind: Create, Key: "/k", Data: "z", Version: -1}, Output{}),
		}, porcupine.Illegal},
		{"lost create seen later", []porcupine.Operation{
			Op(0, 0, 100, create, Output{Result: Unknown}),
			Op(1, 20, 30, get, Output{Data: "a", Version: 0}),
		}, porcupine.Ok},
		{"lost create never seen", []porcupine.Operation{
			Op(0, 0, 100, create, Output{Result: Unknown}),
			Op(1, 20, 30, get, Output{Result: NoNode}),
		}, porcupine.Ok},
		{"lost create seen before its call", []porcupine.Operation{
			Op(1, 0, 10, get, Output{Data: "a", Version: 0}),
			Op(0, 20, 100, create, Output{Result: Unknown}),
		}, porcupine.Illegal},
		{"a write refused with SessionMoved has no effect", []porcupine.Operation{
			Op(0, 0, 10, create, Output{Result: Moved}),
			Op(1, 20, 30, get, Output{Data: "a", Version: 0}),
		}, porcupine.Illegal},
		{"keys are independent", []porcupine.Operation{
			Op(0, 0, 10, create, Output{}),
			Op(1, 20, 30, other, Output{Data: "a", Version: 0}),
		}, porcupine.Illegal},
	}
}

// TestClosedOpensUnknownReturns: an operation whose outcome is unknown
// returns after everything else.
func TestClosedOpensUnknownReturns(t *testing.T) {
	h := NewHistory()
	h.Add(Op(0, 5, Open, Input{Kind: Create, Key: "/k"}, Output{Result: Unknown}))
	h.Add(Op(1, 10, 40, Input{Kind: Get, Key: "/k"}, Output{Result: NoNode}))
	ops := h.Closed()
	if ops[0].Return != 41 || ops[1].Return != 40 {
		t.Fatalf("returns after Closed: %d and %d; want 41 (after the last) and 40", ops[0].Return, ops[1].Return)
	}
}

// TestDefiniteCountsOnlyAnswers: lost writes and failed ones are not
// successful writes; every recorded read counts.
func TestDefiniteCountsOnlyAnswers(t *testing.T) {
	create := Input{Kind: Create, Key: "/k", Data: "a", Version: -1}
	o := Outcome{Ops: []porcupine.Operation{
		Op(0, 0, 10, create, Output{Result: Unknown}),
		Op(0, 0, 10, create, Output{Result: Exists}),
		Op(1, 0, 10, create, Output{}),
		Op(2, 0, 10, Input{Kind: Get, Key: "/k"}, Output{Result: NoNode}),
	}}
	if w, r := o.Definite(); w != 1 || r != 1 {
		t.Fatalf("Definite: %d writes and %d reads, want 1 and 1", w, r)
	}
}

package aufgabe5

import (
	"errors"
	"fmt"
	"testing"

	"github.com/anishathalye/porcupine"

	"zablab/mwzookeeper"
)

// The sequential specification the linearizability test checks the
// service's histories against: every key is an independent znode with
// data and a version, and porcupine checks each key's operations on its
// own (Partition), which keeps the search small.

// linKind is the operation a history entry records.
type linKind int

const (
	linCreate linKind = iota
	linDelete
	linSet
	linGet // a sync followed by getData, on the session's replica
)

func (k linKind) String() string {
	return [...]string{"create", "delete", "setData", "sync+getData"}[k]
}

// linInput is one call: data is unique per write, so a read names the
// write it saw; version is -1 (any) or the version the client expects.
type linInput struct {
	kind    linKind
	key     string
	data    string
	version int32
}

// linResult is the outcome of a call as the model knows it.
type linResult int

const (
	linOK linResult = iota
	linNoNode
	linExists
	linBadVersion
	linUnknown // ConnectionLoss: may or may not have taken effect
	linMoved   // SessionMoved: refused at apply, no effect whatever the state
)

func (r linResult) String() string {
	return [...]string{"ok", "NoNode", "NodeExists", "BadVersion", "unknown", "SessionMoved"}[r]
}

// linOutput is what the service answered: for getData the data and
// version read, for setData the new version.
type linOutput struct {
	result  linResult
	data    string
	version int32
}

// linState is one znode as the model sees it; comparable, so porcupine's
// default equality works.
type linState struct {
	exists  bool
	data    string
	version int32
}

// linResultOf maps a service error onto the model's results; ok is false
// for an error the model does not expect at all.
func linResultOf(err error) (r linResult, ok bool) {
	switch {
	case err == nil:
		return linOK, true
	case errors.Is(err, mwzookeeper.ErrNoNode):
		return linNoNode, true
	case errors.Is(err, mwzookeeper.ErrNodeExists):
		return linExists, true
	case errors.Is(err, mwzookeeper.ErrBadVersion):
		return linBadVersion, true
	case errors.Is(err, mwzookeeper.ErrConnectionLoss):
		return linUnknown, true
	case errors.Is(err, mwzookeeper.ErrSessionMoved):
		return linMoved, true
	}
	return linUnknown, false
}

// linApply is the sequential semantics of one operation on st: the new
// state and the output a correct service gives.
func linApply(st linState, in linInput) (linState, linOutput) {
	versionOK := in.version == -1 || in.version == st.version
	switch in.kind {
	case linCreate:
		if st.exists {
			return st, linOutput{result: linExists}
		}
		return linState{exists: true, data: in.data}, linOutput{}
	case linDelete:
		switch {
		case !st.exists:
			return st, linOutput{result: linNoNode}
		case !versionOK:
			return st, linOutput{result: linBadVersion}
		}
		return linState{}, linOutput{}
	case linSet:
		switch {
		case !st.exists:
			return st, linOutput{result: linNoNode}
		case !versionOK:
			return st, linOutput{result: linBadVersion}
		}
		next := linState{exists: true, data: in.data, version: st.version + 1}
		return next, linOutput{version: next.version}
	default: // linGet
		if !st.exists {
			return st, linOutput{result: linNoNode}
		}
		return st, linOutput{data: st.data, version: st.version}
	}
}

// linModel is the porcupine model: a znode per key, partitioned by key.
// An unknown outcome accepts whatever the operation did; porcupine may
// place it anywhere after its call, also after everything else (it had
// no effect), since its return is left at the end of the history. A write
// refused with SessionMoved (it came through a replica the session had
// left) changes nothing.
var linModel = porcupine.Model{
	Partition: func(h []porcupine.Operation) [][]porcupine.Operation {
		byKey := map[string][]porcupine.Operation{}
		var keys []string
		for _, op := range h {
			k := op.Input.(linInput).key
			if byKey[k] == nil {
				keys = append(keys, k)
			}
			byKey[k] = append(byKey[k], op)
		}
		out := make([][]porcupine.Operation, 0, len(keys))
		for _, k := range keys {
			out = append(out, byKey[k])
		}
		return out
	},
	Init: func() any { return linState{} },
	Step: func(state, input, output any) (bool, any) {
		next, want := linApply(state.(linState), input.(linInput))
		switch got := output.(linOutput); got.result {
		case linUnknown:
			return true, next
		case linMoved:
			return true, state
		default:
			return got == want, next
		}
	},
	DescribeOperation: func(input, output any) string {
		in, out := input.(linInput), output.(linOutput)
		call := fmt.Sprintf("%s(%s", in.kind, in.key)
		if in.kind == linCreate || in.kind == linSet {
			call += fmt.Sprintf(", %q", in.data)
		}
		if in.kind == linDelete || in.kind == linSet {
			call += fmt.Sprintf(", v%d", in.version)
		}
		ret := out.result.String()
		switch {
		case out.result == linOK && in.kind == linGet:
			ret = fmt.Sprintf("%q v%d", out.data, out.version)
		case out.result == linOK && in.kind == linSet:
			ret = fmt.Sprintf("v%d", out.version)
		}
		return call + ") -> " + ret
	},
	DescribeState: func(state any) string {
		st := state.(linState)
		if !st.exists {
			return "absent"
		}
		return fmt.Sprintf("%q v%d", st.data, st.version)
	},
}

// linOp builds a history entry for the model tests.
func linOp(client int, call, ret int64, in linInput, out linOutput) porcupine.Operation {
	return porcupine.Operation{ClientId: client, Call: call, Return: ret, Input: in, Output: out}
}

// TestLinearizabilityModel checks the model on tiny hand-written
// histories: it must accept the linearizable ones and reject the others,
// or the ensemble test proves nothing.
func TestLinearizabilityModel(t *testing.T) {
	for _, c := range linModelCases() {
		if got := porcupine.CheckOperationsTimeout(linModel, c.h, 0); got != c.want {
			t.Errorf("%s: the model says %s, want %s", c.name, got, c.want)
		}
	}
}

// linModelCase is a hand-written history and the verdict it must get.
type linModelCase struct {
	name string
	h    []porcupine.Operation
	want porcupine.CheckResult
}

func linModelCases() []linModelCase {
	create := linInput{kind: linCreate, key: "/k", data: "a", version: -1}
	setB := linInput{kind: linSet, key: "/k", data: "b", version: 0}
	get := linInput{kind: linGet, key: "/k"}
	other := linInput{kind: linGet, key: "/other"}
	return []linModelCase{
		{"stale read after a completed setData", []porcupine.Operation{
			linOp(0, 0, 10, create, linOutput{}),
			linOp(0, 20, 30, setB, linOutput{version: 1}),
			linOp(1, 40, 50, get, linOutput{data: "a", version: 0}),
		}, porcupine.Illegal},
		{"read concurrent with setData sees either", []porcupine.Operation{
			linOp(0, 0, 10, create, linOutput{}),
			linOp(0, 20, 50, setB, linOutput{version: 1}),
			linOp(1, 30, 40, get, linOutput{data: "a", version: 0}),
			linOp(2, 30, 45, get, linOutput{data: "b", version: 1}),
		}, porcupine.Ok},
		{"two clients read the values in opposite orders", []porcupine.Operation{
			linOp(0, 0, 10, create, linOutput{}),
			linOp(0, 20, 100, setB, linOutput{version: 1}),
			linOp(1, 30, 40, get, linOutput{data: "b", version: 1}),
			linOp(2, 50, 60, get, linOutput{data: "a", version: 0}),
		}, porcupine.Illegal},
		{"wrong version returned", []porcupine.Operation{
			linOp(0, 0, 10, create, linOutput{}),
			linOp(1, 20, 30, get, linOutput{data: "a", version: 1}),
		}, porcupine.Illegal},
		{"two creates both succeed", []porcupine.Operation{
			linOp(0, 0, 10, create, linOutput{}),
			linOp(1, 0, 10, linInput{kind: linCreate, key: "/k", data: "z", version: -1}, linOutput{}),
		}, porcupine.Illegal},
		{"lost create seen later", []porcupine.Operation{
			linOp(0, 0, 100, create, linOutput{result: linUnknown}),
			linOp(1, 20, 30, get, linOutput{data: "a", version: 0}),
		}, porcupine.Ok},
		{"lost create never seen", []porcupine.Operation{
			linOp(0, 0, 100, create, linOutput{result: linUnknown}),
			linOp(1, 20, 30, get, linOutput{result: linNoNode}),
		}, porcupine.Ok},
		{"lost create seen before its call", []porcupine.Operation{
			linOp(1, 0, 10, get, linOutput{data: "a", version: 0}),
			linOp(0, 20, 100, create, linOutput{result: linUnknown}),
		}, porcupine.Illegal},
		{"a write refused with SessionMoved has no effect", []porcupine.Operation{
			linOp(0, 0, 10, create, linOutput{result: linMoved}),
			linOp(1, 20, 30, get, linOutput{data: "a", version: 0}),
		}, porcupine.Illegal},
		{"keys are independent", []porcupine.Operation{
			linOp(0, 0, 10, create, linOutput{}),
			linOp(1, 20, 30, other, linOutput{data: "a", version: 0}),
		}, porcupine.Illegal},
	}
}

package lincheck

import (
	"errors"
	"fmt"

	"github.com/anishathalye/porcupine"

	"zablab/mwzookeeper"
)

// Kind is the operation a history entry records.
type Kind int

// The operations of the mix.
const (
	Create Kind = iota
	Delete
	Set
	Get // a sync followed by getData, on the session's replica
)

func (k Kind) String() string {
	return [...]string{"create", "delete", "setData", "sync+getData"}[k]
}

// Input is one call: Data is unique per write, so a read names the write
// it saw; Version is -1 (any) or the version the client expects.
type Input struct {
	Kind    Kind
	Key     string
	Data    string
	Version int32
}

// Result is the outcome of a call as the model knows it.
type Result int

// The outcomes.
const (
	OK Result = iota
	NoNode
	Exists
	BadVersion
	Unknown // ConnectionLoss: may or may not have taken effect
	Moved   // SessionMoved: refused at apply, no effect whatever the state
)

func (r Result) String() string {
	return [...]string{"ok", "NoNode", "NodeExists", "BadVersion", "unknown", "SessionMoved"}[r]
}

// Output is what the service answered: for getData the data and version
// read, for setData the new version.
type Output struct {
	Result  Result
	Data    string
	Version int32
}

// state is one znode as the model sees it; comparable, so porcupine's
// default equality works.
type state struct {
	exists  bool
	data    string
	version int32
}

// ResultOf maps a service error onto the model's results; ok is false for
// an error the model does not expect at all.
func ResultOf(err error) (r Result, ok bool) {
	switch {
	case err == nil:
		return OK, true
	case errors.Is(err, mwzookeeper.ErrNoNode):
		return NoNode, true
	case errors.Is(err, mwzookeeper.ErrNodeExists):
		return Exists, true
	case errors.Is(err, mwzookeeper.ErrBadVersion):
		return BadVersion, true
	case errors.Is(err, mwzookeeper.ErrConnectionLoss):
		return Unknown, true
	case errors.Is(err, mwzookeeper.ErrSessionMoved):
		return Moved, true
	}
	return Unknown, false
}

// apply is the sequential semantics of one operation on st: the new state
// and the output a correct service gives.
func apply(st state, in Input) (state, Output) {
	versionOK := in.Version == -1 || in.Version == st.version
	switch in.Kind {
	case Create:
		if st.exists {
			return st, Output{Result: Exists}
		}
		return state{exists: true, data: in.Data}, Output{}
	case Delete:
		switch {
		case !st.exists:
			return st, Output{Result: NoNode}
		case !versionOK:
			return st, Output{Result: BadVersion}
		}
		return state{}, Output{}
	case Set:
		switch {
		case !st.exists:
			return st, Output{Result: NoNode}
		case !versionOK:
			return st, Output{Result: BadVersion}
		}
		next := state{exists: true, data: in.Data, version: st.version + 1}
		return next, Output{Version: next.version}
	default: // Get
		if !st.exists {
			return st, Output{Result: NoNode}
		}
		return st, Output{Data: st.data, Version: st.version}
	}
}

// Model is the porcupine model: a znode per key, partitioned by key, which
// keeps the search small. An unknown outcome accepts whatever the
// operation did; porcupine may place it anywhere after its call, also
// after everything else (it had no effect), since its return is left at
// the end of the history. A write refused with SessionMoved (it came
// through a replica the session had left) changes nothing.
var Model = porcupine.Model{
	Partition:         partitionByKey,
	Init:              func() any { return state{} },
	Step:              step,
	DescribeOperation: describeOperation,
	DescribeState: func(s any) string {
		st := s.(state)
		if !st.exists {
			return "absent"
		}
		return fmt.Sprintf("%q v%d", st.data, st.version)
	},
}

func partitionByKey(h []porcupine.Operation) [][]porcupine.Operation {
	byKey := map[string][]porcupine.Operation{}
	var keys []string
	for _, op := range h {
		k := op.Input.(Input).Key
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
}

func step(s, input, output any) (bool, any) {
	next, want := apply(s.(state), input.(Input))
	switch got := output.(Output); got.Result {
	case Unknown:
		return true, next
	case Moved:
		return true, s
	default:
		return got == want, next
	}
}

func describeOperation(input, output any) string {
	in, out := input.(Input), output.(Output)
	call := fmt.Sprintf("%s(%s", in.Kind, in.Key)
	if in.Kind == Create || in.Kind == Set {
		call += fmt.Sprintf(", %q", in.Data)
	}
	if in.Kind == Delete || in.Kind == Set {
		call += fmt.Sprintf(", v%d", in.Version)
	}
	ret := out.Result.String()
	switch {
	case out.Result == OK && in.Kind == Get:
		ret = fmt.Sprintf("%q v%d", out.Data, out.Version)
	case out.Result == OK && in.Kind == Set:
		ret = fmt.Sprintf("v%d", out.Version)
	}
	return call + ") -> " + ret
}

// Op builds a history entry.
func Op(client int, call, ret int64, in Input, out Output) porcupine.Operation {
	return porcupine.Operation{ClientId: client, Call: call, Return: ret, Input: in, Output: out}
}

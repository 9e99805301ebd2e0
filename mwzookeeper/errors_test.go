package mwzookeeper

import (
	"errors"
	"fmt"
	"testing"
)

func TestCodesRoundTrip(t *testing.T) {
	want := map[error]Code{
		ErrNoNode: -101, ErrNodeExists: -110, ErrBadVersion: -103, ErrNotEmpty: -111,
		ErrNoChildrenForEphemerals: -108, ErrBadArguments: -8, ErrSessionExpired: -112,
		ErrUnimplemented: -6, ErrConnectionLoss: -4, ErrRuntimeInconsistency: -2,
	}
	for err, code := range want {
		wrapped := fmt.Errorf("%w: /a/b", err)
		if got := CodeOf(wrapped); got != code {
			t.Errorf("CodeOf(%v) = %d, want %d", wrapped, got, code)
		}
		if back := ErrorOf(code); !errors.Is(back, err) {
			t.Errorf("ErrorOf(%d) = %v, want %v", code, back, err)
		}
	}
}

func TestCodeOfEdges(t *testing.T) {
	if CodeOf(nil) != 0 || ErrorOf(0) != nil {
		t.Fatalf("nil and code 0 must map to each other")
	}
	if got := CodeOf(errors.New("disk on fire")); got != ErrSystemError.Code() {
		t.Fatalf("a foreign error has code %d, want SystemError %d", got, ErrSystemError.Code())
	}
	unknown := ErrorOf(-9999)
	if !errors.Is(unknown, ErrSystemError) {
		t.Fatalf("an unknown code maps to %v, want a SystemError", unknown)
	}
}

func TestOpCodes(t *testing.T) {
	for op, name := range map[OpCode]string{OpCreate: "create", OpMulti: "multi", OpCreateSession: "createSession", 999: "op(999)"} {
		if op.String() != name {
			t.Errorf("OpCode(%d).String() = %q, want %q", int32(op), op.String(), name)
		}
	}
	for _, op := range []OpCode{OpCreate, OpDelete, OpSetData, OpMulti, OpCloseSession} {
		if !op.IsWrite() {
			t.Errorf("%s must be a write", op)
		}
	}
	for _, op := range []OpCode{OpGetData, OpExists, OpGetChildren, OpGetChildren2, OpPing, OpSync} {
		if op.IsWrite() {
			t.Errorf("%s must not be a write", op)
		}
	}
	if !EphemeralSequential.IsEphemeral() || !EphemeralSequential.IsSequential() || Persistent.IsEphemeral() ||
		Container.Valid() || !PersistentSequential.Valid() {
		t.Fatal("create mode predicates disagree with ZooKeeper's flags")
	}
}

func TestUnknownCodeKeepsNumber(t *testing.T) {
	for _, code := range []Code{-116, -117, -9999} {
		err := fmt.Errorf("create /a: %w", ErrorOf(code))
		if got := CodeOf(err); got != code {
			t.Errorf("CodeOf(ErrorOf(%d)) = %d", code, got)
		}
		if !errors.Is(err, ErrSystemError) {
			t.Errorf("ErrorOf(%d) is not a SystemError: %v", code, err)
		}
	}
	for _, code := range []Code{-13, -14, -120, -123, -124} {
		if _, ok := byCode[code]; !ok {
			t.Errorf("no sentinel for code %d", code)
		}
	}
}

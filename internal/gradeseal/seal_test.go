package gradeseal

import (
	"errors"
	"strings"
	"testing"
)

func TestSignVerify(t *testing.T) {
	k := []byte(strings.Repeat("k", KeySize))
	m := Message{Kind: "result", Result: &Result{Test: "A5.1/TreeOperations", Status: "pass", Seed: 7}}
	line, err := Sign(k, m)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Verify(k, line)
	if err != nil || got.Result == nil || *got.Result != *m.Result {
		t.Fatalf("Verify(Sign(m)) = %+v, %v", got, err)
	}
	for _, bad := range []string{
		strings.Replace(line, `"pass"`, `"fail"`, 1),                   // body changed
		line[:len(line)-2] + "00",                                      // signature changed
		`{"kind":"result","result":{"test":"A5.1/X","status":"pass"}}`, // unsigned
	} {
		if _, err := Verify(k, bad); !errors.Is(err, ErrBadSeal) {
			t.Errorf("Verify(%q) = %v, want ErrBadSeal", bad, err)
		}
	}
	if _, err := Verify([]byte(strings.Repeat("x", KeySize)), line); !errors.Is(err, ErrBadSeal) {
		t.Errorf("another run's key verified the line: %v", err)
	}
}

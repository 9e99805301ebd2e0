package client_test

import (
	"errors"
	"testing"
	"time"

	"zablab/client"
	"zablab/mwzookeeper"
)

const eventWait = 10 * time.Second

func TestDataWatch(t *testing.T) {
	z := connect(t)
	r := root(t, z)
	other := connect(t)
	a := r + "/a"
	if _, err := z.Create(a, []byte("x"), false); err != nil {
		t.Fatal(err)
	}
	data, ch, err := z.GetDataW(a, nil)
	if err != nil || string(data) != "x" {
		t.Fatalf("getDataW = %q, %v", data, err)
	}
	if _, err := other.SetData(a, []byte("y"), -1); err != nil {
		t.Fatal(err)
	}
	ev := next(t, "data watch on "+a, ch, eventWait)
	if ev.Type != mwzookeeper.EventNodeDataChanged || ev.Path != a || ev.Err != nil {
		t.Fatalf("event %v, want NodeDataChanged on %s", ev, a)
	}
	if _, ok := <-ch; ok {
		t.Fatal("a watch delivered twice")
	}

	_, ch, err = z.GetDataW(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Delete(a, -1); err != nil {
		t.Fatal(err)
	}
	if ev := next(t, "data watch on delete", ch, eventWait); ev.Type != mwzookeeper.EventNodeDeleted {
		t.Fatalf("event %v, want NodeDeleted", ev)
	}
	_, _, err = z.GetDataW(a, nil)
	wantErr(t, "getDataW on a missing node", err, mwzookeeper.ErrNoNode, a)
}

func TestExistsWatch(t *testing.T) {
	z := connect(t)
	r := root(t, z)
	a := r + "/a"
	// Our own write: the event must be there when the create's reply is.
	// A hop through another goroutine would lose that only now and then,
	// hence the rounds.
	for round := 0; round < 100; round++ {
		ok, _, ch, err := z.ExistsW(a)
		if err != nil || ok {
			t.Fatalf("round %d: existsW on a missing node = %v, %v", round, ok, err)
		}
		if _, err := z.Create(a, nil, false); err != nil {
			t.Fatal(err)
		}
		select {
		case ev := <-ch:
			if ev.Type != mwzookeeper.EventNodeCreated || ev.Path != a {
				t.Fatalf("event %v, want NodeCreated on %s", ev, a)
			}
		default:
			t.Fatalf("round %d: the create's reply came before its watch event", round)
		}
		if round < 99 {
			if err := z.Delete(a, -1); err != nil {
				t.Fatal(err)
			}
		}
	}
	ok, st, ch, err := z.ExistsW(a)
	if err != nil || !ok || st.Czxid == 0 {
		t.Fatalf("existsW on an existing node = %v %+v %v", ok, st, err)
	}
	if _, err := z.SetData(a, []byte("new"), -1); err != nil {
		t.Fatal(err)
	}
	if ev := next(t, "exists watch on setData", ch, eventWait); ev.Type != mwzookeeper.EventNodeDataChanged {
		t.Fatalf("event %v, want NodeDataChanged", ev)
	}
}

func TestChildWatch(t *testing.T) {
	z := connect(t)
	r := root(t, z)
	children, _, ch, err := z.GetChildrenW(r)
	if err != nil || len(children) != 0 {
		t.Fatalf("getChildrenW = %v, %v", children, err)
	}
	if _, err := z.Create(r+"/kid", nil, true); err != nil {
		t.Fatal(err)
	}
	if ev := next(t, "child watch", ch, eventWait); ev.Type != mwzookeeper.EventNodeChildrenChanged || ev.Path != r {
		t.Fatalf("event %v, want NodeChildrenChanged on %s", ev, r)
	}
	// Changing a child's data is no change to the children.
	_, _, ch, err = z.GetChildrenW(r)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := z.SetData(r+"/kid", []byte("d"), -1); err != nil {
		t.Fatal(err)
	}
	if err := z.Delete(r+"/kid", -1); err != nil {
		t.Fatal(err)
	}
	if ev := next(t, "child watch on delete", ch, eventWait); ev.Type != mwzookeeper.EventNodeChildrenChanged {
		t.Fatalf("event %v, want NodeChildrenChanged (a child's setData must not fire it)", ev)
	}
}

func TestWatchEndsWithClose(t *testing.T) {
	z := connect(t)
	r := root(t, z)
	_, _, ch, err := z.ExistsW(r + "/never")
	if err != nil {
		t.Fatal(err)
	}
	z.Close()
	ev := next(t, "watch after Close", ch, eventWait)
	if !errors.Is(ev.Err, client.ErrClosed) || ev.Type != 0 {
		t.Fatalf("event after Close = %v, want ErrClosed", ev)
	}
}

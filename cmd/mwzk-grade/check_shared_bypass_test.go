package main

import "testing"

// TestPointerSharingPastTheFirstCheckIsRefused: four ways to share one live
// object between the replicas of the suite's process, each graded 30/30
// on A5.2 with a GetState that writes nothing (a red-team, the second round). Each must
// be refused; at c91596b none was.
func TestPointerSharingPastTheFirstCheckIsRefused(t *testing.T) {
	cases := map[string]string{
		"sentinel selector": `package aufgabe5

import "fmt"

type registry struct{ m map[string]any }

func (*registry) Error() string { return "r" }

type holder struct{ r *registry }

func newHolder() holder { return holder{&registry{}} }

var errReplicas = fmt.Errorf("x: %w", newHolder().r)
`,
		"logrus standard logger through an Entry": `package aufgabe5

import "github.com/sirupsen/logrus"

type registry struct{}

func (*registry) Levels() []logrus.Level   { return []logrus.Level{logrus.PanicLevel} }
func (*registry) Fire(*logrus.Entry) error { return nil }

func init() { logrus.WithFields(nil).Logger.AddHook(&registry{}) }

func peers() logrus.LevelHooks { return logrus.WithField("k", 1).Logger.Hooks }
`,
		"bufPool, byte a local alias": `package aufgabe5

import "sync"

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 256); return &b }}

type Service struct{}

func get() *Service {
	type byte = *Service
	if bp, ok := bufPool.Get().(*[]byte); ok {
		return (*bp)[0]
	}
	return nil
}
`,
		"bufPool, byte a type parameter": `package aufgabe5

import "sync"

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 256); return &b }}

func take[byte any]() (*[]byte, bool) {
	bp, ok := bufPool.Get().(*[]byte)
	return bp, ok
}
`,
	}
	for name, src := range cases {
		_, err := checkFiles(map[string][]byte{"evil.go": []byte(src)}, func(n string) string { return n }, true)
		if err == nil {
			t.Errorf("%s: not refused", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
}

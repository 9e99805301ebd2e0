package main

import (
	"strings"
	"testing"
)

// A review's: shared state that passed the first rule of plain values: a table of
// plain values written through a copy, a method, a builtin or a slice of
// a package array. Each is a map/slice every replica shares.
func TestSharedTableThroughACopyIsRefused(t *testing.T) {
	for name, src := range map[string]string{
		"map written through a copy": `package aufgabe5

var trees = map[string][]byte{}

func save(peer string, state []byte) { t := trees; t[peer] = state }
func load(peer string) []byte        { return trees[peer] }
`,
		"map written by a method of its own type": `package aufgabe5

type board map[string][]byte

var trees = board{}

func (b board) put(k string, v []byte) { b[k] = v }

func save(peer string, state []byte) { trees.put(peer, state) }
`,
		"slice written by copy()": `package aufgabe5

var last = []int64{0, 0, 0, 0, 0, 0, 0, 0}

func note(peer int, zxid int64) { copy(last[peer:], []int64{zxid}) }
`,
		"package array through a slice of it": `package aufgabe5

var slots [16]int64

func note(peer int, zxid int64) { s := slots[:]; s[peer] = zxid }
`,
		"map cleared / deleted": `package aufgabe5

var seen = map[string]bool{}

func forget(k string) { delete(seen, k) }
`,
	} {
		t.Run(strings.ReplaceAll(name, " ", "_"), func(t *testing.T) {
			if _, err := checkFiles(map[string][]byte{"x.go": []byte(src)}, func(n string) string { return n }, true); err == nil {
				t.Errorf("shared mutable package state passed")
			}
		})
	}
}

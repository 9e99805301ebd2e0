package main

import (
	"zablab/assignments/aufgabe5"
	"zablab/mwzookeeper"
)

// impls are the Services --impl can pick, by name: the student's
// ("assignment") here, the reference ("solution") in impls_solution.go,
// which the student's handout leaves out.
var impls = map[string]mwzookeeper.Factory{
	"assignment": aufgabe5.New,
}

// defaultImpl is what runs without --impl: the reference where the tree has
// it, else the student's.
func defaultImpl() string {
	if _, ok := impls["solution"]; ok {
		return "solution"
	}
	return "assignment"
}

package main

import (
	assignment "zablab/assignments/aufgabe5"
	"zablab/mwzookeeper"
)

// impls are the Services --impl can pick, by name: the student's
// (assignments/aufgabe5) and, where the reference is present,
// "solution" (impls_solution.go, which the student's handout leaves out).
var impls = map[string]mwzookeeper.Factory{
	"assignment": assignment.New,
}

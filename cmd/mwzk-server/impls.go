package main

import (
	"zablab/mwzookeeper"
	"zablab/solutions/aufgabe5"
)

// impls are the Services --impl can pick, by name. The student's stubs
// (zablab/assignments/aufgabe5) join as "assignment".
var impls = map[string]mwzookeeper.Factory{
	"solution": aufgabe5.New,
}

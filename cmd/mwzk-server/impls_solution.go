package main

import "zablab/solutions/aufgabe5"

// The reference Service. This file imports zablab/solutions, so the
// student's handout leaves it out and --impl defaults to "assignment" there.
func init() { impls["solution"] = aufgabe5.New }

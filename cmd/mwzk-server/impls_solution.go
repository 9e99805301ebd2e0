package main

import "zablab/solutions/aufgabe5"

// The reference joins impls from its own file: the handout drops every
// file that imports zablab/solutions, and the server still builds.
func init() { impls["solution"] = aufgabe5.New }

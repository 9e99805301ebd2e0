package conformance

import "zablab/mwzookeeper"

// The errors the suite expects, taken by code from mwzookeeper's own table
// rather than from its exported variables: graded code runs in the suite's
// process, and the grader refuses assignments to those variables where it
// can see them, not in every form (a range clause, a copy through a
// pointer). ErrorOf's table is unexported, and CodeOf knows each sentinel
// by identity, so neither can be turned.
var (
	wantRuntimeInconsistency    = mwzookeeper.ErrorOf(-2)
	wantConnectionLoss          = mwzookeeper.ErrorOf(-4)
	wantUnimplemented           = mwzookeeper.ErrorOf(-6)
	wantBadArguments            = mwzookeeper.ErrorOf(-8)
	wantNoNode                  = mwzookeeper.ErrorOf(-101)
	wantBadVersion              = mwzookeeper.ErrorOf(-103)
	wantNoChildrenForEphemerals = mwzookeeper.ErrorOf(-108)
	wantNodeExists              = mwzookeeper.ErrorOf(-110)
	wantNotEmpty                = mwzookeeper.ErrorOf(-111)
	wantSessionExpired          = mwzookeeper.ErrorOf(-112)
)

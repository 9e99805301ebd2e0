// Package gradeseal is the grader's tamper-evident channel out of a
// conformance run. mwzk-grade starts the test binary with two pipes: one
// carries a fresh random key in, and is drained and closed while this
// package initializes; the other carries the suite's results out, each line
// signed with that key (HMAC-SHA256). The grader credits a test only for a
// correctly signed result of this run that go test's own events confirm.
//
// Why it works: package zablab/mwzookeeper imports this package, and every
// Service must import zablab/mwzookeeper (its New returns a
// mwzookeeper.Service), so the key is read and its pipe closed before any
// of the graded code runs; the grader refuses graded code that imports
// this package, unsafe, reflect, runtime, os, syscall or uses
// //go:linkname, so the key stays out of its reach. Printing fake test
// output (go test's own "--- PASS" or -json lines) earns nothing: it is not
// signed. Its limits: graded code can still change exported variables of
// the packages it may import (mwzookeeper.ErrNoNode, say) to confuse a
// check, which a reviewer sees in the code; a grade is as good as the
// suite's checks of behaviour.
//
// Outside mwzk-grade (no MWZK_GRADE_SEAL in the environment) the package
// does nothing and Enabled reports false.
package gradeseal

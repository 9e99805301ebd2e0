// Package stacks says where the goroutines of one package are waiting.
//
// When a test waits in vain for a Service (a reply that never comes, a
// Stop that never returns, a replica that never serves), the usual cause
// is a goroutine of the Service's own code blocked on a lock or a channel:
// a Deliver callback that takes a mutex its caller already holds, a Submit
// waiting for a reply channel nobody fills. Go prints every goroutine only
// when the whole test binary times out, minutes later and thousands of lines
// long. Inside lists, at the moment of the failure, just the goroutines
// that are in the given package's code, with what they wait for, the
// package's frames and who called into it (Zab's callback goroutine, the
// test's submitter), so the failure message points at the line to read.
package stacks

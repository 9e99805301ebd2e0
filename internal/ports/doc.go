// Package ports finds free TCP ports on 127.0.0.1 for peers started by
// tests and benchmarks.
package ports

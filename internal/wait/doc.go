// Package wait lets tests wait on a condition with a deadline instead of
// sleeping for a guessed duration.
package wait

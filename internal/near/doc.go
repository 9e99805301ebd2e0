// Package near finds the word a misspelled one most likely means: the
// configuration keys of the Zab library and the make variables of the
// grading both answer a typo with "did you mean ...?" instead of taking it
// silently for a key or setting nobody reads.
package near

// Package properties reads Java .properties files, the configuration format
// of the course's Java Zab library, so that a peer's file works unchanged
// with the Go framework.
//
// # Java-compatible
//
// Load gives exactly the pairs java.util.Properties.load(Reader) gives for
// the same UTF-8 text, quirks included. The rules, in the order Java
// applies them:
//
//   - A line whose first character after white space (space, \t, \f) is
//     # or ! is a comment. Blank lines are skipped.
//   - A line ending in an odd number of backslashes continues on the next
//     line; the last backslash and the next line's leading white space are
//     dropped. An even number of backslashes is just text (\\ is one \).
//     A comment cannot be continued, and a continuation line that starts
//     with # is not a comment but text ("a=b\" then "#c" gives a = "b#c").
//     An empty continuation line ends the definition.
//   - The key ends at the first =, : or white space that is not escaped.
//     White space around the separator is ignored, and a key may stand
//     alone ("flag" gives flag = ""). "a = = b" gives a = "= b": only one
//     separator is taken.
//   - The value is the rest of the line. Trailing white space is kept.
//   - Escapes, in keys and values: \t \n \r \f, \uxxxx (UTF-16: a surrogate
//     pair written as two escapes is one character), and a backslash before
//     any other character stands for that character (\= \: \# \  \\ \z).
//   - \n, \r\n and a lone \r all end lines; the last line needs none.
//   - The last definition of a key wins (Redefined lists the keys
//     defined more than once, for a warning).
//   - A byte order mark is not skipped: it becomes part of the first key.
//
// Java rejects one thing, a malformed \uxxxx escape ("Malformed \uxxxx
// encoding."), and so does Load, with an *Error wrapping ErrSyntax. Two
// differences are deliberate. Bytes that are not UTF-8 are an error, where
// Java would read them as U+FFFD: such a file is in another encoding. A
// \uxxxx surrogate that is not part of a pair is U+FFFD, because a Go
// string cannot hold it; a JVM prints it the same way.
//
// The folder testdata/corpus holds tricky inputs, each with the result a
// JVM produced (testdata/gen/GoldenGen.java, run by make
// properties-golden); the tests check the Go reader against all of them.
//
// # Errors that point at the line
//
// Every definition remembers its line (Line), and every error is an
// *Error that prints as "file:line: key \"k\": message" and wraps one of
// the sentinels ErrSyntax, ErrMissing or ErrValue. Packages that check
// values build their errors with Errorf, so a bad peer address found by
// the zab package reads like this:
//
//	zab1.properties:4: key "peer2": want host:port, got "127.0.0.1"
//
// # Typed getters
//
// Int, Int64, Bool, Millis and Indexed return the default for an absent
// key and an ErrValue error for a present value they cannot parse. They
// trim surrounding white space first; Get and String never trim, as in
// Java.
//
// # Example
//
// A peer's file:
//
//	# peer 1 of 3
//	myid = 1
//	peer1 = 127.0.0.1:2881
//	peer2 = 127.0.0.1:2882
//	peer3 = 127.0.0.1:2883
//	tickTime = 2000
//	dataLogDir = data/peer1/\
//	             log
//
// is read with
//
//	p, err := properties.LoadFile("zab1.properties")
//	if err != nil {
//		return err // zab1.properties:3: ...
//	}
//	id, err := p.Int("myid", 0)
//	peers, err := p.Indexed("peer")       // map[1:127.0.0.1:2881 2:... 3:...]
//	tick, err := p.Millis("tickTime", 2*time.Second)
//	dir := p.String("dataLogDir", "data") // "data/peer1/log"
//
// Store writes a set back in the same syntax, escaped so that both Load
// and Java read it as the same pairs.
package properties

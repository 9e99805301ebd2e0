// Package logging builds the logrus logger of a peer from its properties
// file: the Go analogue of the log4j.properties that configures logging
// in the course's Java library. The logging keys live in the peer's file
// next to the Zab keys:
//
//	# zab1.properties
//	myid = 1
//	peer1 = 127.0.0.1:2881
//	# OFF, ERROR, WARN, INFO (the default), DEBUG, TRACE or ALL
//	log.level = DEBUG
//	# absent or empty: standard error
//	log.file = data/peer1.log
//	# text (the default) or json
//	log.format = json
//
// (A comment must have a line of its own: in properties syntax, a # after a
// value is part of the value.)
//
// A program sets it up once, at the start:
//
//	p, err := properties.LoadFile("zab1.properties")
//	if err != nil {
//		return err
//	}
//	log, closer, err := logging.New(p)
//	if err != nil {
//		return err // zab1.properties:5: key "log.level": want OFF, ERROR, ...
//	}
//	defer closer.Close()
//	log.WithField("peer", 1).Info("starting")
//
// The level names and their meaning follow log4j: a logger at WARN writes
// Warn and Error entries, ALL is TRACE, and OFF writes nothing, not even
// Panic entries. The log file is opened for appending, created with mode
// 0644 if needed; its folder must exist. A relative path is relative to
// the folder of the properties file, as for the data folders (see
// properties.Path), so a peer's file works from any working directory.
package logging

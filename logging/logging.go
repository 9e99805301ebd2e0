package logging

import (
	"errors"
	"io"
	"os"
	"strings"

	"github.com/sirupsen/logrus"

	"zablab/properties"
)

// ErrConfig marks a bad logging key. The errors New returns wrap it and
// name the file, line and key (see properties.Error).
var ErrConfig = errors.New("logging: bad configuration")

// The keys New reads, with the names of the course's log4j setup.
const (
	KeyLevel  = "log.level"  // OFF, ERROR, WARN, INFO, DEBUG, TRACE or ALL; default INFO
	KeyFile   = "log.file"   // path to append to; empty or absent: standard error
	KeyFormat = "log.format" // text or json; default text
)

// TimestampFormat is used by both formats: wall-clock time to the
// millisecond, so that the logs of several peers can be merged by time.
const TimestampFormat = "2006-01-02T15:04:05.000Z07:00"

// levels maps the log4j level names to logrus levels. OFF is not here:
// logrus has no level that drops everything, see New.
var levels = map[string]logrus.Level{
	"ERROR": logrus.ErrorLevel,
	"WARN":  logrus.WarnLevel,
	"INFO":  logrus.InfoLevel,
	"DEBUG": logrus.DebugLevel,
	"TRACE": logrus.TraceLevel,
	"ALL":   logrus.TraceLevel,
}

// New builds a logger from the log.* keys of p; other keys are ignored, so
// a peer's whole properties file can be passed. The io.Closer closes the
// log file; call it after the last log call. For standard error it does
// nothing. Values are case-insensitive and trimmed; an empty value means
// the default, like an absent key.
//
// Level OFF writes nothing at all: the logger discards its output and no
// log file is opened or created.
func New(p *properties.Properties) (*logrus.Logger, io.Closer, error) {
	level, off, err := parseLevel(p)
	if err != nil {
		return nil, nil, err
	}
	formatter, err := parseFormat(p)
	if err != nil {
		return nil, nil, err
	}
	logger := logrus.New()
	logger.SetFormatter(formatter)
	if off {
		// PanicLevel is the quietest level logrus has, and it still
		// writes Panic entries; the discarding writer silences those too.
		logger.SetLevel(logrus.PanicLevel)
		logger.SetOutput(io.Discard)
		return logger, nopCloser{}, nil
	}
	logger.SetLevel(level)
	path := p.Path(KeyFile, "") // relative to the properties file's folder
	if path == "" {
		logger.SetOutput(os.Stderr)
		return logger, nopCloser{}, nil
	}
	// Append, as log4j's FileAppender does: a restarted peer keeps the
	// log of its previous life, which is what one wants after a crash.
	// The parent folder is not created: a typo in it should be an error,
	// not a new folder.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, p.Errorf(KeyFile, ErrConfig, "cannot open the log file: %v", err)
	}
	logger.SetOutput(f)
	return logger, f, nil
}

// parseLevel reads log.level; off reports level OFF.
func parseLevel(p *properties.Properties) (level logrus.Level, off bool, err error) {
	v := strings.ToUpper(strings.TrimSpace(p.String(KeyLevel, "")))
	switch v {
	case "":
		return logrus.InfoLevel, false, nil
	case "OFF":
		return logrus.PanicLevel, true, nil
	}
	level, ok := levels[v]
	if !ok {
		return 0, false, p.Errorf(KeyLevel, ErrConfig,
			"want OFF, ERROR, WARN, INFO, DEBUG, TRACE or ALL, got %q", p.String(KeyLevel, ""))
	}
	return level, false, nil
}

// parseFormat reads log.format.
func parseFormat(p *properties.Properties) (logrus.Formatter, error) {
	switch v := strings.ToLower(strings.TrimSpace(p.String(KeyFormat, ""))); v {
	case "", "text":
		// FullTimestamp matters on a terminal only, where logrus would
		// otherwise print seconds since start instead of the time.
		return &logrus.TextFormatter{FullTimestamp: true, TimestampFormat: TimestampFormat}, nil
	case "json":
		return &logrus.JSONFormatter{TimestampFormat: TimestampFormat}, nil
	}
	return nil, p.Errorf(KeyFormat, ErrConfig, "want text or json, got %q", p.String(KeyFormat, ""))
}

type nopCloser struct{}

func (nopCloser) Close() error { return nil }

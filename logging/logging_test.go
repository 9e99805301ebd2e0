package logging

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sirupsen/logrus"

	"zablab/properties"
)

// setup writes a peer's properties file with the given logging lines after
// two Zab lines (so the logging keys start on line 3), loads it and
// returns the properties and a log file path in a fresh folder.
func setup(t *testing.T, lines ...string) (*properties.Properties, string) {
	t.Helper()
	dir := t.TempDir()
	logFile := filepath.Join(dir, "peer1.log")
	content := "myid = 1\npeer1 = 127.0.0.1:2881\n"
	for _, l := range lines {
		content += strings.ReplaceAll(l, "$LOG", strings.ReplaceAll(logFile, `\`, `\\`)) + "\n"
	}
	path := filepath.Join(dir, "zab1.properties")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := properties.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return p, logFile
}

func newLogger(t *testing.T, p *properties.Properties) *logrus.Logger {
	t.Helper()
	logger, closer, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := closer.Close(); err != nil {
			t.Error(err)
		}
	})
	return logger
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestLevelAndFile(t *testing.T) {
	p, logFile := setup(t, "log.level = warn", "log.file = $LOG  ")
	logger := newLogger(t, p)
	logger.Debug("debug-entry")
	logger.Info("info-entry")
	logger.Warn("warn-entry")
	logger.WithField("peer", 1).Error("error-entry")
	got := readFile(t, logFile)
	for _, absent := range []string{"debug-entry", "info-entry"} {
		if strings.Contains(got, absent) {
			t.Errorf("log has %q at level WARN:\n%s", absent, got)
		}
	}
	for _, present := range []string{`level=warning msg=warn-entry`, `level=error msg=error-entry peer=1`} {
		if !strings.Contains(got, present) {
			t.Errorf("log lacks %q:\n%s", present, got)
		}
	}
}

func TestJSONFormat(t *testing.T) {
	p, logFile := setup(t, "log.level=DEBUG", "log.file=$LOG", "log.format=JSON")
	logger := newLogger(t, p)
	logger.Trace("trace-entry")
	logger.Debug("debug-entry")
	logger.WithField("zxid", "0x100000001").Info("info-entry")
	var msgs []string
	sc := bufio.NewScanner(strings.NewReader(readFile(t, logFile)))
	for sc.Scan() {
		var entry map[string]any
		if err := json.Unmarshal(sc.Bytes(), &entry); err != nil {
			t.Fatalf("line %q is not JSON: %v", sc.Text(), err)
		}
		if entry["time"] == nil || entry["level"] == nil {
			t.Errorf("line %q lacks time or level", sc.Text())
		}
		msgs = append(msgs, entry["level"].(string)+":"+entry["msg"].(string))
	}
	if want := "debug:debug-entry info:info-entry"; strings.Join(msgs, " ") != want {
		t.Errorf("entries %q, want %q", msgs, want)
	}
}

func TestOffWritesNothing(t *testing.T) {
	p, logFile := setup(t, "log.level=Off", "log.file=$LOG")
	logger := newLogger(t, p)
	for _, level := range logrus.AllLevels[1:] { // all but Panic, which panics
		logger.Log(level, "entry")
	}
	func() {
		defer func() { _ = recover() }()
		logger.Panic("panic-entry")
	}()
	if _, err := os.Stat(logFile); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("log file exists (or %v) at level OFF", err)
	}
	if logger.Out != io.Discard {
		t.Errorf("logger writes to %T at level OFF", logger.Out)
	}
}

func TestLevelNames(t *testing.T) {
	tests := map[string]logrus.Level{
		"":                 logrus.InfoLevel,
		"log.level=":       logrus.InfoLevel,
		"log.level=ERROR":  logrus.ErrorLevel,
		"log.level=Warn":   logrus.WarnLevel,
		"log.level=info  ": logrus.InfoLevel,
		"log.level=debug":  logrus.DebugLevel,
		"log.level=TRACE":  logrus.TraceLevel,
		"log.level=all":    logrus.TraceLevel,
	}
	for line, want := range tests {
		p, _ := setup(t, line)
		if got := newLogger(t, p).GetLevel(); got != want {
			t.Errorf("%q gives level %v, want %v", line, got, want)
		}
	}
}

func TestDefaultsToStderrText(t *testing.T) {
	logger, closer, err := New(properties.New())
	if err != nil {
		t.Fatal(err)
	}
	if logger.Out != os.Stderr || closer.Close() != nil {
		t.Errorf("default output %T, want os.Stderr and a no-op closer", logger.Out)
	}
	if _, ok := logger.Formatter.(*logrus.TextFormatter); !ok {
		t.Errorf("default formatter %T, want text", logger.Formatter)
	}
}

func TestAppendsToExistingFile(t *testing.T) {
	p, logFile := setup(t, "log.file=$LOG")
	if err := os.WriteFile(logFile, []byte("previous life\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	newLogger(t, p).Info("restarted")
	got := readFile(t, logFile)
	if !strings.HasPrefix(got, "previous life\n") || !strings.Contains(got, "msg=restarted") {
		t.Errorf("log file after restart:\n%s", got)
	}
}

func TestNewFileMode(t *testing.T) {
	p, logFile := setup(t, "log.file=$LOG")
	newLogger(t, p)
	fi, err := os.Stat(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm&^0o644 != 0 || perm&0o600 != 0o600 {
		t.Errorf("new log file has mode %v, want 0644 (less the umask)", perm)
	}
}

func TestBadValues(t *testing.T) {
	tests := []struct {
		line, key, msg string
	}{
		{"log.level = LOUD", "log.level", `want OFF, ERROR, WARN, INFO, DEBUG, TRACE or ALL, got "LOUD"`},
		{"log.level = FATAL", "log.level", `got "FATAL"`},
		{"log.format = xml", "log.format", `want text or json, got "xml"`},
		{"log.file = /nonexistent-folder-zablab/sub/peer.log", "log.file", "cannot open the log file"},
	}
	for _, tt := range tests {
		p, _ := setup(t, "# logging", tt.line)
		_, _, err := New(p)
		if !errors.Is(err, ErrConfig) {
			t.Fatalf("%q: err = %v, want ErrConfig", tt.line, err)
		}
		want := p.File() + `:4: key "` + tt.key + `": `
		if msg := err.Error(); !strings.HasPrefix(msg, want) || !strings.Contains(msg, tt.msg) {
			t.Errorf("%q: message %q, want prefix %q and %q", tt.line, msg, want, tt.msg)
		}
	}
}

func TestLoggerIsUsableConcurrently(t *testing.T) {
	p, logFile := setup(t, "log.file=$LOG", "log.format=json")
	logger := newLogger(t, p)
	done := make(chan struct{})
	for range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			for range 50 {
				logger.Info("concurrent")
			}
		}()
	}
	for range 4 {
		<-done
	}
	if n := bytes.Count([]byte(readFile(t, logFile)), []byte("\n")); n != 200 {
		t.Errorf("%d lines written, want 200", n)
	}
}

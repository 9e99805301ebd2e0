package properties

import (
	"errors"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The typed getters share three rules:
//
//   - an absent key gives the default and no error, so that optional
//     tuning keys need no code at the call site;
//   - surrounding white space is trimmed before parsing, because Java keeps
//     trailing blanks in values and an invisible blank after "2000" should
//     not make tickTime invalid;
//   - a present but unparsable value (an empty one included) is an *Error
//     wrapping ErrValue that names file, line and key, never silently the
//     default: a typo must not turn into a surprising configuration.

// trimmed returns the trimmed value of key and whether key is defined.
func (p *Properties) trimmed(key string) (string, bool) {
	v, ok := p.Get(key)
	return strings.TrimSpace(v), ok
}

// Int returns the value of key as a decimal int (an optional sign is
// allowed), or def if key is absent.
func (p *Properties) Int(key string, def int) (int, error) {
	v, ok := p.trimmed(key)
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if errors.Is(err, strconv.ErrRange) {
		return def, p.rangeErr(key, v, math.MinInt, math.MaxInt)
	}
	if err != nil {
		return def, p.Errorf(key, ErrValue, "want an integer, got %q", v)
	}
	return n, nil
}

// Int64 returns the value of key as a decimal int64, or def if key is
// absent.
func (p *Properties) Int64(key string, def int64) (int64, error) {
	v, ok := p.trimmed(key)
	if !ok {
		return def, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if errors.Is(err, strconv.ErrRange) {
		return def, p.rangeErr(key, v, math.MinInt64, math.MaxInt64)
	}
	if err != nil {
		return def, p.Errorf(key, ErrValue, "want a 64-bit integer, got %q", v)
	}
	return n, nil
}

// rangeErr reports v, an integer beyond [lo, hi], with the bound it passed:
// "at most hi" for -99999999999999999999 would name a bound it keeps.
func (p *Properties) rangeErr(key, v string, lo, hi int64) error {
	if strings.HasPrefix(v, "-") {
		return p.Errorf(key, ErrValue, "%s is out of range: at least %d", v, lo)
	}
	return p.Errorf(key, ErrValue, "%s is out of range: at most %d", v, hi)
}

// Bool returns the value of key as a boolean, or def if key is absent.
// Only "true" and "false" in any case are accepted. Java's
// Boolean.parseBoolean reads everything else as false, which turns a typo
// like "ture" into the opposite of what was meant; we report it instead.
func (p *Properties) Bool(key string, def bool) (bool, error) {
	v, ok := p.trimmed(key)
	if !ok {
		return def, nil
	}
	switch strings.ToLower(v) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return def, p.Errorf(key, ErrValue, "want true or false, got %q", v)
}

// Millis returns the value of key, a whole number of milliseconds >= 0 as
// in ZooKeeper's tickTime, as a time.Duration, or def if key is absent.
// Units ("2s") are refused: the Java side of the course has none either.
func (p *Properties) Millis(key string, def time.Duration) (time.Duration, error) {
	v, ok := p.trimmed(key)
	if !ok {
		return def, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(v, "-") {
		return def, p.Errorf(key, ErrValue, "%s milliseconds is too long for a duration", v)
	}
	if err != nil || n < 0 {
		return def, p.Errorf(key, ErrValue, "want a whole number of milliseconds >= 0, got %q", v)
	}
	if n > math.MaxInt64/int64(time.Millisecond) {
		return def, p.Errorf(key, ErrValue, "%d milliseconds is too long for a duration", n)
	}
	return time.Duration(n) * time.Millisecond, nil
}

// Indexed returns the values of the keys prefix<i>, by i, for the numbered
// keys of a configuration such as peer1..peerN. Every key that starts with
// prefix must have an index that is a positive decimal int without sign or
// leading zeros; any other key with the prefix ("peerX", "peer0",
// "peer01", "peer" itself) is an *Error wrapping ErrValue, because it is
// almost certainly a typo for a numbered key that would otherwise be
// ignored. Gaps are not checked: whether peer2 may be missing is for the
// caller to decide.
func (p *Properties) Indexed(prefix string) (map[int]string, error) {
	out := make(map[int]string)
	for _, key := range p.Keys() {
		suffix, ok := strings.CutPrefix(key, prefix)
		if !ok {
			continue
		}
		i, ok := parseIndex(suffix)
		if !ok {
			return nil, p.Errorf(key, ErrValue,
				"want %s<i> with i a positive integer without leading zeros, got index %q", prefix, suffix)
		}
		out[i], _ = p.Get(key)
	}
	return out, nil
}

// parseIndex accepts exactly the canonical decimal form of a positive int.
func parseIndex(s string) (int, bool) {
	if s == "" || s[0] < '1' || s[0] > '9' {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// Path returns the value of key as a file system path, trimmed. A relative
// path is taken relative to the folder of the file the properties came from
// (for properties loaded from a reader or built in code: the working
// directory), so a peer's file means the same wherever it is started from.
// Absent or empty: def, resolved the same way.
func (p *Properties) Path(key, def string) string {
	v, ok := p.trimmed(key)
	if !ok || v == "" {
		v = def
	}
	if v == "" || filepath.IsAbs(v) || p.File() == "" {
		return v
	}
	return filepath.Join(filepath.Dir(p.File()), v)
}

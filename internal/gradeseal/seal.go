package gradeseal

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
)

// EnvVar names the two inherited file descriptors, "keyFD,resultFD".
const EnvVar = "MWZK_GRADE_SEAL"

// KeySize is the key's length in bytes.
const KeySize = 32

// ErrBadSeal says a result line is not signed with the run's key.
var ErrBadSeal = errors.New("gradeseal: result not signed by this run")

// Message is one signed line: the suite's manifest (every test it will run,
// first), one test's result, or a page it wrote.
type Message struct {
	Kind     string  `json:"kind"` // "manifest", "result" or "page"
	Manifest []Entry `json:"manifest,omitempty"`
	Result   *Result `json:"result,omitempty"`
	Page     *Page   `json:"page,omitempty"`
}

// Page vouches for one file the suite wrote for a person to open (a
// failing history's picture): the grader keeps only such files, and only
// with this content, from the pictures folder the graded code could also
// write.
type Page struct {
	Path   string `json:"path"`   // relative to the pictures folder, "<test's folder>/history.html"
	SHA256 string `json:"sha256"` // of the content, hex
}

// Entry is one test of the manifest.
type Entry struct {
	Part   string `json:"part"`
	Name   string `json:"name"`
	Points int    `json:"points"`
	Extra  bool   `json:"extra,omitempty"` // an instructor's hidden test
}

// Result is one test's outcome as the suite reports it.
type Result struct {
	Test   string `json:"test"`   // "A5.1/TreeOperations"
	Status string `json:"status"` // pass, fail or skip
	Seed   int64  `json:"seed,omitempty"`
}

var (
	mu     sync.Mutex
	key    []byte   // nil when not grading
	out    *os.File // the result pipe
	setupE error    // why the channel could not be opened
)

func init() { setupE = open(os.Getenv(EnvVar)) }

// open reads the key from the first descriptor and keeps the second.
func open(env string) error {
	if env == "" {
		return nil
	}
	_ = os.Unsetenv(EnvVar)
	kfd, rfd, ok := strings.Cut(env, ",")
	k, err1 := strconv.Atoi(kfd)
	r, err2 := strconv.Atoi(rfd)
	if !ok || err1 != nil || err2 != nil {
		return fmt.Errorf("gradeseal: %s=%q: want two file descriptors", EnvVar, env)
	}
	kf := os.NewFile(uintptr(k), "grade-key")
	defer kf.Close()
	b, err := io.ReadAll(io.LimitReader(kf, 2*KeySize+1))
	if err != nil || len(b) != 2*KeySize {
		return fmt.Errorf("gradeseal: the key pipe gave %d bytes (%v): the key was taken before the suite ran", len(b), err)
	}
	if key, err = hex.DecodeString(string(b)); err != nil {
		return fmt.Errorf("gradeseal: bad key: %w", err)
	}
	out = os.NewFile(uintptr(r), "grade-results")
	return nil
}

// Enabled reports whether this process runs under mwzk-grade. An error
// says the channel was expected but is broken.
func Enabled() (bool, error) {
	mu.Lock()
	defer mu.Unlock()
	return key != nil, setupE
}

// Report writes m, signed, to the result pipe; without a channel it does
// nothing.
func Report(m Message) error {
	mu.Lock()
	defer mu.Unlock()
	if key == nil {
		return setupE
	}
	line, err := Sign(key, m)
	if err != nil {
		return err
	}
	_, err = out.WriteString(line + "\n")
	return err
}

// Sign returns m as one line: its JSON, a tab, and the HMAC of the JSON.
func Sign(k []byte, m Message) (string, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return "", err
	}
	h := hmac.New(sha256.New, k)
	h.Write(b)
	return string(b) + "\t" + hex.EncodeToString(h.Sum(nil)), nil
}

// Verify parses a line Sign wrote with k.
func Verify(k []byte, line string) (Message, error) {
	var r Message
	body, sig, ok := strings.Cut(line, "\t")
	want, err := hex.DecodeString(sig)
	if !ok || err != nil {
		return r, fmt.Errorf("%w: %.80q", ErrBadSeal, line)
	}
	m := hmac.New(sha256.New, k)
	m.Write([]byte(body))
	if !hmac.Equal(m.Sum(nil), want) {
		return r, fmt.Errorf("%w: %.80q", ErrBadSeal, line)
	}
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		return r, fmt.Errorf("%w: %v", ErrBadSeal, err)
	}
	return r, nil
}

package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"
)

// What a sandboxed run may leave: its TMPDIR is a tmpfs inside the sandbox
// (gone with it), so the only host folder it writes is a fresh pictures
// folder, watched while it runs and emptied into the real one after.
const (
	jailTmp           = "/sandbox-tmp" // the run's TMPDIR inside the sandbox
	jailTmpBytes      = 1 << 30        // its tmpfs; memory is taken only as used
	jailMemoryBytes   = 2 << 30        // the suite's own memory (RLIMIT_DATA), TMPDIR not counted
	jailPicturesMax   = 256 << 20      // the run is stopped when its pictures folder grows past this
	jailPicturesFiles = 10000          // or holds more files than this (inodes)
	jailPageMax       = 16 << 20       // a page larger than this is not kept
	jailPagesMax      = 64 << 20       // nor pages beyond this in all
	jailWatchPeriod   = 250 * time.Millisecond
	jailPictureGlobs  = "*/*.html" // the suite's pages: <test's folder>/<page>.html
)

// jailMemory is the memory cap of a sandboxed run: a variable for tests.
var jailMemory int64 = jailMemoryBytes

// jailRun is one sandboxed run of the suite: its command and the folders
// it needs on the host.
type jailRun struct {
	cmd      *exec.Cmd
	root     string // the sandbox's empty mount point
	pictures string // the sandbox's pictures folder on the host ("" for none)
	final    string // where the pages go after the run
	stop     context.CancelFunc
	grew     atomic.Bool // the watch stopped the run
	watched  chan struct{}
}

// jailedSuite is the suite's command in a sandbox that sees its package's
// folder and binary read-only and writes only to a tmpfs of its own and
// a fresh pictures folder (when pictures is not ""); race says the binary
// has the race detector (jail.Race).
func jailedSuite(ctx context.Context, dir, pictures, bin string, args []string, race bool) (*jailRun, error) {
	root, err := os.MkdirTemp("", "mwzk-grade-root-*")
	if err != nil {
		return nil, err
	}
	ctx, stop := context.WithCancel(ctx)
	jr := &jailRun{root: root, final: pictures, stop: stop, watched: make(chan struct{})}
	// Execute-only: the binary holds the hidden tests' text, and the
	// suite (without capabilities) runs it but cannot read it.
	if err := os.Chmod(bin, 0o111); err != nil {
		jr.finish(nil)
		return nil, err
	}
	// Of the grading copy only the package's folder and the binary: the
	// rest holds the hidden tests' and the reference's sources.
	j := jail{Root: root, Keep: []string{dir, bin}, Dir: dir, Env: []string{sealEnv},
		Scratch: jailTmp, ScratchBytes: jailTmpBytes, MemoryBytes: jailMemory}
	if race {
		j.Race = raceEnv
	}
	if pictures != "" {
		if jr.pictures, err = os.MkdirTemp("", "mwzk-grade-pictures-*"); err != nil {
			jr.finish(nil)
			return nil, err
		}
		j.Write = []string{jr.pictures}
	}
	if jr.cmd, err = jailed(ctx, j, bin, args...); err != nil {
		jr.finish(nil)
		return nil, err
	}
	go jr.watch(ctx)
	return jr, nil
}

// watch stops the run when its pictures folder grows past jailPicturesMax
// (a hand-in filling the instructor's disk through it).
func (jr *jailRun) watch(ctx context.Context) {
	defer close(jr.watched)
	if jr.pictures == "" {
		return
	}
	tick := time.NewTicker(jailWatchPeriod)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if n, files := treeBytes(jr.pictures); n > jailPicturesMax || files > jailPicturesFiles {
			jr.grew.Store(true)
			jr.stop()
			return
		}
	}
}

// finish ends the watch, moves the suite's pages into the real pictures
// folder and removes the sandbox's folders; it returns what went wrong,
// for the report. Safe on a nil jailRun (an unconfined run).
func (jr *jailRun) finish(vouched map[string]string) []string {
	if jr == nil {
		return nil
	}
	jr.stop()
	if jr.cmd != nil {
		<-jr.watched
	}
	var problems []string
	if jr.grew.Load() {
		problems = append(problems, fmt.Sprintf("the run was stopped: its pictures folder grew past %d MiB or %d files", jailPicturesMax>>20, jailPicturesFiles))
	}
	if jr.pictures != "" {
		problems = append(problems, keepPages(jr.pictures, jr.final, vouched)...)
		os.RemoveAll(jr.pictures)
	}
	os.Remove(jr.root)
	return problems
}

// keepPages copies the suite's pages (regular files matching
// jailPictureGlobs, within the size limits, that the suite vouched for on
// the signed channel: path relative to src → sha256 of the content) from
// the sandbox's pictures folder to dst; anything else the run left there
// is dropped and counted.
func keepPages(src, dst string, vouched map[string]string) []string {
	pages, _ := filepath.Glob(filepath.Join(src, jailPictureGlobs))
	kept, total, dropped := map[string]bool{}, int64(0), 0
	for _, p := range pages {
		fi, err := os.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > jailPageMax || total+fi.Size() > jailPagesMax {
			continue
		}
		rel, _ := filepath.Rel(src, p)
		if di, err := os.Lstat(filepath.Dir(p)); err != nil || !di.IsDir() || strings.HasPrefix(di.Name(), ".") {
			continue // a link to a folder elsewhere, or a hidden one
		}
		data, err := os.ReadFile(p)
		if sum := sha256.Sum256(data); err != nil || vouched[filepath.ToSlash(rel)] != hex.EncodeToString(sum[:]) {
			continue // not the suite's page, or changed after the suite wrote it
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, rel)), 0o755); err != nil {
			return []string{fmt.Sprintf("pictures folder %s: %v", dst, err)}
		}
		if err := os.WriteFile(filepath.Join(dst, rel), data, 0o644); err != nil {
			return []string{fmt.Sprintf("pictures folder %s: %v", dst, err)}
		}
		kept[p], total = true, total+fi.Size()
	}
	filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !kept[p] {
			dropped++
		}
		return nil
	})
	if dropped > 0 {
		return []string{fmt.Sprintf("%d file(s) in the run's pictures folder were not pages the suite wrote (or too large): not kept", dropped)}
	}
	return nil
}

// treeBytes is the size and number of the files under dir.
func treeBytes(dir string) (n int64, files int) {
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files++
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n, files
}

// jailEnv is what of the grader's environment a sandboxed suite gets: the
// project's own variables and Go's runtime settings, not the instructor's
// tokens and paths.
func jailEnv(env []string) []string {
	var out []string
	for _, kv := range env {
		for _, p := range []string{"MWZK_", "ZABLAB_", "GOMAXPROCS=", "GOGC=", "GOMEMLIMIT=", "GODEBUG=", "GOTRACEBACK=", "LANG=", "LC_", "TZ="} {
			if strings.HasPrefix(kv, p) {
				out = append(out, kv)
				break
			}
		}
	}
	return out
}

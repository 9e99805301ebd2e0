package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// file is one tracked file as the handout carries it.
type file struct {
	path string // slash-separated, relative to the repository's root
	exec bool   // git mode 100755
	data []byte
}

// errGit is why the repository's files could not be listed or read.
var errGit = errors.New("git")

// trackedFiles returns the files git tracks in the repository at root:
// their working-tree content when rev is empty (a tracked file deleted in
// the tree is skipped), else their content at commit rev.
func trackedFiles(root, rev string) ([]file, error) {
	if rev != "" {
		return filesAt(root, rev)
	}
	out, err := git(root, "ls-files", "-s", "-z")
	if err != nil {
		return nil, err
	}
	var files []file
	for _, rec := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		// "<mode> <object> <stage>\t<path>"
		meta, path, ok := strings.Cut(rec, "\t")
		if !ok {
			continue
		}
		if strings.HasPrefix(meta, "160000") { // a submodule: nothing to pack
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(path)))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read tracked file %s: %w", path, err)
		}
		files = append(files, file{path: path, exec: strings.HasPrefix(meta, "100755"), data: data})
	}
	return dedupe(files), nil
}

// dedupe drops the repeated entries ls-files -s prints for a file with
// merge conflicts (one per stage).
func dedupe(files []file) []file {
	out := files[:0]
	for i, f := range files {
		if i > 0 && files[i-1].path == f.path {
			continue
		}
		out = append(out, f)
	}
	return out
}

// filesAt returns the files of commit rev, read through one git cat-file.
func filesAt(root, rev string) ([]file, error) {
	out, err := git(root, "ls-tree", "-r", "-z", rev)
	if err != nil {
		return nil, err
	}
	var files []file
	var objects []string
	for _, rec := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		// "<mode> blob <object>\t<path>"
		meta, path, ok := strings.Cut(rec, "\t")
		fields := strings.Fields(meta)
		if !ok || len(fields) != 3 || fields[1] != "blob" {
			continue
		}
		files = append(files, file{path: path, exec: fields[0] == "100755"})
		objects = append(objects, fields[2])
	}
	if err := readBlobs(root, objects, files); err != nil {
		return nil, fmt.Errorf("read files of %s: %w", rev, err)
	}
	return files, nil
}

// readBlobs fills files[i].data with object objects[i].
func readBlobs(root string, objects []string, files []file) error {
	cmd := exec.Command("git", "cat-file", "--batch")
	cmd.Dir = root
	cmd.Stdin = strings.NewReader(strings.Join(objects, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%w: cat-file: %v", errGit, err)
	}
	r := bufio.NewReader(stdout)
	for i := range files {
		header, err := r.ReadString('\n')
		if err != nil {
			return fmt.Errorf("%w: cat-file: %v %s", errGit, err, stderr.String())
		}
		f := strings.Fields(header) // "<object> blob <size>"
		if len(f) != 3 {
			return fmt.Errorf("%w: cat-file: unexpected %q for %s", errGit, header, files[i].path)
		}
		size, err := strconv.Atoi(f[2])
		if err != nil {
			return fmt.Errorf("%w: cat-file: size in %q", errGit, header)
		}
		files[i].data = make([]byte, size)
		if _, err := io.ReadFull(r, files[i].data); err != nil {
			return fmt.Errorf("%w: cat-file: %s: %v", errGit, files[i].path, err)
		}
		if _, err := r.Discard(1); err != nil { // the newline after the content
			return fmt.Errorf("%w: cat-file: %s: %v", errGit, files[i].path, err)
		}
	}
	return cmd.Wait()
}

// git runs a git command in root and returns its standard output.
func git(root string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%w %s in %s: %v: %s", errGit, strings.Join(args, " "), root, err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

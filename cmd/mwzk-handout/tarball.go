package main

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// prefix is the folder a student's tar xzf creates.
const prefix = "aufgabe5/"

// writeTar writes files as a gzipped tar under prefix, sorted, with
// folders, one fixed modification time and no owner, so the same files
// give the same bytes.
func writeTar(w io.Writer, files []file, mtime time.Time) error {
	sorted := slices.Clone(files)
	slices.SortFunc(sorted, func(a, b file) int { return strings.Compare(a.path, b.path) })
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	zw.ModTime = mtime
	tw := tar.NewWriter(zw)
	dirs := map[string]bool{}
	hdr := func(name string, mode int64, size int64, typ byte) *tar.Header {
		return &tar.Header{Name: name, Mode: mode, Size: size, Typeflag: typ,
			ModTime: mtime, Uname: "", Gname: "", Format: tar.FormatPAX}
	}
	for _, f := range sorted {
		if err := writeDirs(tw, dirs, path.Dir(prefix+f.path), func(d string) *tar.Header {
			return hdr(d+"/", 0o755, 0, tar.TypeDir)
		}); err != nil {
			return err
		}
		mode := int64(0o644)
		if f.exec {
			mode = 0o755
		}
		if err := tw.WriteHeader(hdr(prefix+f.path, mode, int64(len(f.data)), tar.TypeReg)); err != nil {
			return fmt.Errorf("tar header of %s: %w", f.path, err)
		}
		if _, err := tw.Write(f.data); err != nil {
			return fmt.Errorf("tar content of %s: %w", f.path, err)
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return zw.Close()
}

// writeDirs writes the entries of dir and its parents not written yet.
func writeDirs(tw *tar.Writer, done map[string]bool, dir string, hdr func(string) *tar.Header) error {
	if dir == "." || dir == "/" || done[dir] {
		return nil
	}
	if err := writeDirs(tw, done, path.Dir(dir), hdr); err != nil {
		return err
	}
	done[dir] = true
	return tw.WriteHeader(hdr(dir))
}

// listTar returns the regular files of a gzipped tar, without prefix.
func listTar(r io.Reader) ([]string, error) {
	var names []string
	err := walkTar(r, func(h *tar.Header, _ io.Reader) error {
		if h.Typeflag == tar.TypeReg {
			names = append(names, strings.TrimPrefix(h.Name, prefix))
		}
		return nil
	})
	return names, err
}

// errUnsafe is a tar entry that would land outside the folder it is
// unpacked into.
var errUnsafe = errors.New("unsafe path in archive")

// extractTar unpacks a gzipped tar into dir.
func extractTar(r io.Reader, dir string) error {
	return walkTar(r, func(h *tar.Header, body io.Reader) error {
		name := filepath.FromSlash(path.Clean(h.Name))
		if !filepath.IsLocal(name) {
			return fmt.Errorf("%w: %s", errUnsafe, h.Name)
		}
		target := filepath.Join(dir, name)
		switch h.Typeflag {
		case tar.TypeDir:
			return os.MkdirAll(target, 0o755)
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				return err
			}
			out, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, os.FileMode(h.Mode)&0o777)
			if err != nil {
				return err
			}
			_, err = io.Copy(out, body)
			return errors.Join(err, out.Close())
		}
		return nil
	})
}

func walkTar(r io.Reader, fn func(*tar.Header, io.Reader) error) error {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return fmt.Errorf("handout archive: %w", err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("handout archive: %w", err)
		}
		if err := fn(h, tr); err != nil {
			return err
		}
	}
}

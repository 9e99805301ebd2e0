package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// tarGzEntries reads a gzipped tar archive's regular files. Links, devices
// and every other special entry are refused by name, as are absolute paths
// and .. elements: the archive is never unpacked onto the disk.
func tarGzEntries(file string) ([]entry, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("submission %s: %w", file, err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: not a gzip archive: %v", errRefused, file, err)
	}
	return tarEntries(file, zr)
}

// tarFileEntries reads a plain (not compressed) tar archive, as tarGzEntries.
func tarFileEntries(file string) ([]entry, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("submission %s: %w", file, err)
	}
	defer f.Close()
	return tarEntries(file, f)
}

func tarEntries(origin string, r io.Reader) ([]entry, error) {
	tr := tar.NewReader(r)
	var ents []entry
	var b budget
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return ents, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %s: broken tar archive: %v", errRefused, origin, err)
		}
		if err := b.entry(origin, h.Name); err != nil {
			return nil, err
		}
		name, err := checkName(origin, h.Name)
		if err != nil {
			return nil, err
		}
		switch h.Typeflag {
		case tar.TypeDir, tar.TypeXGlobalHeader:
			continue
		case tar.TypeReg:
		case tar.TypeSymlink, tar.TypeLink:
			return nil, fmt.Errorf("%w: %s: entry %q is a link (to %q)", errRefused, origin, h.Name, h.Linkname)
		default:
			return nil, fmt.Errorf("%w: %s: entry %q is not a regular file (tar type %q)", errRefused, origin, h.Name, h.Typeflag)
		}
		read, err := b.take(origin, name, h.Size)
		if err != nil {
			return nil, err
		}
		if !read { // tr.Next skips its content
			ents = append(ents, entry{name: name, unread: h.Size})
			continue
		}
		data, err := io.ReadAll(io.LimitReader(tr, maxFileSize+1))
		if err != nil {
			return nil, fmt.Errorf("%w: %s: entry %q: %v", errRefused, origin, h.Name, err)
		}
		ents = append(ents, entry{name: name, data: data})
	}
}

// zipEntries reads a zip archive's regular files, with the same refusals.
func zipEntries(file string) ([]entry, error) {
	zr, err := zip.OpenReader(file)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: not a zip archive: %v", errRefused, file, err)
	}
	defer zr.Close()
	var ents []entry
	var b budget
	for _, f := range zr.File {
		if err := b.entry(file, f.Name); err != nil {
			return nil, err
		}
		name, err := checkName(file, zipName(f))
		if err != nil {
			return nil, err
		}
		mode := f.Mode()
		switch {
		case mode.IsDir():
			continue
		case mode&os.ModeSymlink != 0:
			return nil, fmt.Errorf("%w: %s: entry %q is a symbolic link", errRefused, file, f.Name)
		case !mode.IsRegular():
			return nil, fmt.Errorf("%w: %s: entry %q is not a regular file (%v)", errRefused, file, f.Name, mode)
		}
		read, err := b.take(file, name, int64(f.UncompressedSize64))
		if err != nil {
			return nil, err
		}
		if !read {
			ents = append(ents, entry{name: name, unread: int64(f.UncompressedSize64)})
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("%w: %s: entry %q: %v", errRefused, file, f.Name, err)
		}
		data, err := io.ReadAll(io.LimitReader(rc, maxFileSize+1))
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("%w: %s: entry %q: %v", errRefused, file, f.Name, err)
		}
		ents = append(ents, entry{name: name, data: data})
	}
	return ents, nil
}

// zipName is f's name with "/" as the separator. Windows PowerShell 5.1's
// Compress-Archive, which Windows 10 and 11 ship, writes "\" instead; as
// Info-ZIP and libarchive do, a name of an entry made on MS-DOS/Windows
// (host 0 in "version made by") is read with "\" as "/". On any other host
// a backslash is a character of the name, which checkName refuses.
func zipName(f *zip.File) string {
	if f.CreatorVersion>>8 == 0 {
		return strings.ReplaceAll(f.Name, `\`, "/")
	}
	return f.Name
}

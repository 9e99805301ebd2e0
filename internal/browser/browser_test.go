package browser

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"zablab/internal/wait"
)

func writePage(t *testing.T, body string) string {
	path := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(path, []byte("<!doctype html><html><body>"+body+"</body></html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	return FileURL(t, path)
}

// TestBrowserSeesErrorsAndPixels: a clean page has no errors, a page
// whose script throws, logs an error or calls an undefined function has
// them all reported; evaluation, keys and screenshots work.
func TestBrowserSeesErrorsAndPixels(t *testing.T) {
	b := Start(t)
	clean := b.Open(t, writePage(t, `<div id="d" style="width:50px;height:20px;background:red"></div>
<script>let n = 0; document.addEventListener('keydown', e => { if (e.key === 'ArrowRight' && e.shiftKey) n++; });</script>`), 400, 300)
	clean.Key(t, "ArrowRight", true)
	var n int
	clean.Eval(t, "n", &n)
	if n != 1 {
		t.Fatalf("the page saw %d Shift+ArrowRight presses, want 1", n)
	}
	if errs := clean.Errors(); len(errs) != 0 {
		t.Fatalf("a clean page reported errors: %q", errs)
	}
	shot := filepath.Join(t.TempDir(), "shot.png")
	clean.Screenshot(t, shot)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot is no PNG: %v", err)
	}
	if r, g, _, _ := img.At(20, 15).RGBA(); r>>8 < 200 || g>>8 > 60 || img.Bounds().Dx() != 400 {
		t.Fatalf("screenshot %v: pixel (20,15) is not the red box", img.Bounds())
	}
	pics := t.TempDir()
	t.Setenv(PicturesEnv, pics)
	clean.Picture(t, "box")
	pf, err := os.Open(filepath.Join(pics, "box.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	pimg, err := png.Decode(pf)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := pimg.(*image.Paletted); !ok {
		t.Fatalf("a docs picture is a %T, want a paletted image", pimg)
	}
	if r, g, _, _ := pimg.At(20, 15).RGBA(); r>>8 < 200 || g>>8 > 60 {
		t.Fatal("the docs picture lost the red box")
	}

	bad := b.Open(t, writePage(t, `<script>console.error("logged on purpose")</script>
<script>undefinedFunction()</script><script>setTimeout(() => { throw new Error("late on purpose") }, 10)</script>`), 400, 300)
	want := []string{"logged on purpose", "undefinedFunction", "late on purpose"}
	wait.For(t, fmt.Sprintf("the errors %q reported", want), 10*time.Second, func() bool {
		all := strings.Join(bad.Errors(), "\n")
		for _, w := range want {
			if !strings.Contains(all, w) {
				return false
			}
		}
		return true
	})
}

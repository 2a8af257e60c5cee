package browser

import (
	"encoding/json"
	"image/gif"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestFinishedGamePage runs gmd demo over a database holding the demo
// game played to its end (cmd/gmd/testdata/demo-game.json, imported
// with gmd import), opens its page in Chromium, and checks that the
// replay loads (natural width > 0, served as a GIF that decodes) and
// that the export link gives JSON that parses as a gmd-game document.
// It saves a screenshot of the page in the test's artifact directory,
// then loads the page again on a phone, where nothing may be wider than
// the screen.
func TestFinishedGamePage(t *testing.T) {
	base := startDemoWith(t, func(gmd, dir string) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		db := filepath.Join(dir, "gmd.db")
		in, err := filepath.Abs("../../cmd/gmd/testdata/demo-game.json")
		if err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"init", "-db", db}, {"import", "-db", db, "-in", in}} {
			if out, err := exec.Command(gmd, args...).CombinedOutput(); err != nil {
				t.Fatalf("gmd %v: %v\n%s", args, err, out)
			}
		}
	})
	b := newBrowser(t)
	page := base + "games/demo"
	b.load(t, page)

	type img struct {
		Src   string `json:"src"`
		Width int    `json:"width"`
	}
	replay := evaluate[img](t, b, "the replay", `(i => i ? {src: i.src, width: i.naturalWidth} : {src: "", width: 0})(document.querySelector("figure.replay img"))`)
	if replay.Src == "" || replay.Width == 0 {
		b.fail(t, "replay", "the finished game's replay: %+v, want an image that loaded", replay)
	}
	res, err := http.Get(replay.Src)
	if err != nil {
		t.Fatal(err)
	}
	if ct := res.Header.Get("Content-Type"); res.StatusCode != 200 || ct != "image/gif" {
		t.Errorf("%s: %s, %s", replay.Src, res.Status, ct)
	}
	a, err := gif.DecodeAll(res.Body)
	res.Body.Close()
	if err != nil || len(a.Image) < 4 {
		t.Errorf("%s does not decode as an animated GIF: %v", replay.Src, err)
	}

	link := evaluate[string](t, b, "the export link", `(a => a ? a.href : "")(document.querySelector('a[href$="export.json"]'))`)
	if link == "" {
		b.fail(t, "export", "the finished game's page has no export link")
		t.FailNow()
	}
	res, err = http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if ct, cd := res.Header.Get("Content-Type"), res.Header.Get("Content-Disposition"); res.StatusCode != 200 || ct != "application/json" || cd != `attachment; filename="demo.json"` {
		t.Errorf("%s: %s, %q, %q", link, res.Status, ct, cd)
	}
	var doc struct {
		Format string            `json:"format"`
		Status string            `json:"status"`
		Phases []json.RawMessage `json:"phases"`
	}
	if err := json.Unmarshal(data, &doc); err != nil || doc.Format != "gmd-game" || doc.Status != "finished" || len(doc.Phases) != len(a.Image)-3 {
		t.Errorf("%s: %v; format %q, %s, %d phases (the replay has %d frames)", link, err, doc.Format, doc.Status, len(doc.Phases), len(a.Image))
	}

	ctx := b.ctx
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(80))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.ArtifactDir(), "finished-game.jpg")
	if err := os.WriteFile(file, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", file)

	// On a phone, the replay fits the screen as the maps do.
	b.run(t, "phone viewport", chromedp.EmulateViewport(phoneWidth, phoneHeight, chromedp.EmulateScale(2)))
	b.phone = true
	b.load(t, page)
}

package browser

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// The phone the pages are checked on: a small one, 360 CSS pixels wide.
const phoneWidth, phoneHeight = 360, 740

// TestDemoPages starts gmd demo, then loads every page of the demo game
// in Chromium, on a desktop and on a phone: each must load with no
// console error and no CSP violation, its images loaded (the maps drawn),
// and, on the phone, nothing wider than the screen. It follows the
// phase links from page to page as a reader would.
func TestDemoPages(t *testing.T) {
	base := startDemo(t)
	b := newBrowser(t)

	pages := b.crawl(t, base+"games/demo", base)
	for _, want := range []string{"games/demo", "games/demo/S1901M", "games/demo/F1901M", "games/demo/press", ""} {
		if !pages[base+want] {
			t.Errorf("no link leads to %s%s; found %v", base, want, pages)
		}
	}

	// The game page shows the map after the first turn.
	b.load(t, base+"games/demo")
	maps := evaluate[int](t, b, "count the maps", `document.querySelectorAll("figure.map img").length`)
	if maps != 1 {
		b.fail(t, "game", "the game page has %d maps, want 1", maps)
	}

	// The phase links, followed by clicking them.
	b.load(t, base+"games/demo/S1901M")
	b.follow(t, `a[rel=next]`, base+"games/demo/F1901M")
	b.follow(t, `a[rel=prev]`, base+"games/demo/S1901M")
	b.follow(t, `nav[aria-label^="Game"] a[href$="press"]`, base+"games/demo/press")

	// The same pages on a phone.
	b.run(t, "phone viewport", chromedp.EmulateViewport(phoneWidth, phoneHeight, chromedp.EmulateScale(2)))
	b.phone = true
	b.crawl(t, base+"games/demo", base)
}

// startDemo builds gmd, runs gmd demo until the test ends, and returns
// the address of its web pages, ending in "/".
func startDemo(t *testing.T) string {
	t.Helper()
	return startDemoWith(t, nil)
}

// startDemoWith is startDemo, with prepare run first on the gmd binary
// and the demo's directory: a directory that then holds a database makes
// the demo play no first turn, and serve the games it holds.
func startDemoWith(t *testing.T, prepare func(gmd, dir string)) string {
	t.Helper()
	if os.Getenv("GMD_BROWSERTEST") != "1" {
		t.Skip("the browser tests run with GMD_BROWSERTEST=1 and Chromium installed (scripts/test does both)")
	}
	dir := t.TempDir()
	gmd := filepath.Join(dir, "gmd")
	build := exec.Command("go", "build", "-o", gmd, "github.com/gmdjudge/gmd/cmd/gmd")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	if prepare != nil {
		prepare(gmd, filepath.Join(dir, "demo"))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, gmd, "demo", "-v", "-dir", filepath.Join(dir, "demo"), "-http", "127.0.0.1:0")
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		cmd.Wait()
		if strings.Contains(stderr.String(), "level=ERROR") {
			t.Errorf("gmd demo logged errors:\n%s", stderr.String())
		}
	})
	found := make(chan string, 1)
	go func() {
		web := regexp.MustCompile(`^  Web   (http://\S+/)games/demo`)
		sc := bufio.NewScanner(out)
		addr := ""
		for sc.Scan() {
			if m := web.FindStringSubmatch(sc.Text()); m != nil {
				addr = m[1]
			}
			if strings.Contains(sc.Text(), "Ctrl-C") {
				found <- addr
				break
			}
		}
		io.Copy(io.Discard, out)
	}()
	select {
	case addr := <-found:
		if addr == "" {
			t.Fatal("gmd demo printed no web address")
		}
		return addr
	case <-time.After(2 * time.Minute):
		t.Fatalf("gmd demo was not ready after 2 minutes:\n%s", stderr.String())
	}
	return ""
}

// browser is a headless Chromium with one tab, and what the pages loaded
// in it reported.
type browser struct {
	ctx   context.Context
	phone bool // the tab is at phone size

	mu       sync.Mutex
	problems []string // console errors, exceptions, failed loads, CSP violations
}

// newBrowser starts Chromium with a fresh profile, stopped when the
// test ends.
func newBrowser(t *testing.T) *browser {
	t.Helper()
	path := os.Getenv("GMD_CHROMIUM")
	if path == "" {
		var err error
		if path, err = exec.LookPath("chromium"); err != nil {
			t.Fatalf("no chromium on the PATH (apt-get install chromium, or set GMD_CHROMIUM): %v", err)
		}
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelTab(); cancelAlloc() })
	b := &browser{ctx: ctx}
	// Console errors and warnings, uncaught exceptions, and the entries
	// of the browser's own log: failed loads, CSP violations ("Refused
	// to load ..."), and the like.
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.IsException() || m.Type == "error" || m.Type == "warning" {
				b.report("console %s: %s (%s)", m.Type, m.Text, m.URL)
			}
		}
	}()
	// Each page records the CSP violations its document sees; the
	// listener comes from the DevTools protocol, which the page's CSP
	// does not govern.
	_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: `window.__csp = [];
document.addEventListener("securitypolicyviolation", e => window.__csp.push(e.violatedDirective + " " + e.blockedURI));`,
	})
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	return b
}

func (b *browser) report(format string, args ...any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.problems = append(b.problems, fmt.Sprintf(format, args...))
}

// run runs actions in the tab, failing the test if they fail.
func (b *browser) run(t *testing.T, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.fail(t, what, "%v", err)
		t.FailNow()
	}
}

// evaluate evaluates the JavaScript expression in the tab, awaiting it if
// it is a promise, and returns its value.
func evaluate[T any](t *testing.T, b *browser, what, expr string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		b.fail(t, what, "%s: %v", what, err)
		t.FailNow()
	}
	return v
}

// fail reports a failed check and saves a screenshot of the tab.
func (b *browser) fail(t *testing.T, name, format string, args ...any) {
	t.Helper()
	t.Errorf(format, args...)
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(90))
	if err != nil {
		t.Logf("no screenshot: %v", err)
		return
	}
	if b.phone {
		name += "-phone"
	}
	file := filepath.Join(t.ArtifactDir(), regexp.MustCompile(`[^A-Za-z0-9_-]+`).ReplaceAllString(name, "_")+".jpg")
	if err := os.WriteFile(file, shot, 0o644); err != nil {
		t.Logf("no screenshot: %v", err)
		return
	}
	t.Logf("screenshot: %s", file)
}

// load opens u in the tab, waits for it and its images, and checks it.
func (b *browser) load(t *testing.T, u string) {
	t.Helper()
	b.mu.Lock()
	b.problems = nil
	b.mu.Unlock()
	b.run(t, u, chromedp.Navigate(u), chromedp.WaitReady(chromedp.CSS("body")))
	b.check(t, u)
}

// check checks the page in the tab: every image loaded, no problem
// reported, no CSP violation and, on a phone, no horizontal overflow.
func (b *browser) check(t *testing.T, u string) {
	t.Helper()
	type image struct {
		Src      string `json:"src"`
		Complete bool   `json:"complete"`
		Width    int    `json:"width"`
		Alt      string `json:"alt"`
	}
	// Images load after the document: wait for them (a map is drawn on
	// its first request).
	imgs := evaluate[[]image](t, b, u+" images", `Promise.all(Array.from(document.images).map(i => i.complete ? null :
	new Promise(r => { i.addEventListener("load", r); i.addEventListener("error", r); })))
.then(() => Array.from(document.images).map(i => ({src: i.src, complete: i.complete, width: i.naturalWidth, alt: i.alt})))`)
	for _, img := range imgs {
		if !img.Complete || img.Width == 0 {
			b.fail(t, u, "%s: the image %s did not load (natural width %d)", u, img.Src, img.Width)
		}
		if img.Alt == "" {
			b.fail(t, u, "%s: the image %s has no text alternative", u, img.Src)
		}
	}
	for _, v := range evaluate[[]string](t, b, u+" csp", `window.__csp || []`) {
		b.fail(t, u, "%s: CSP violation: %s", u, v)
	}
	b.mu.Lock()
	problems := b.problems
	b.mu.Unlock()
	for _, p := range problems {
		b.fail(t, u, "%s: %s", u, p)
	}
	if h1 := evaluate[int](t, b, u+" heading", `document.querySelectorAll("h1").length`); h1 != 1 {
		b.fail(t, u, "%s: %d h1 headings, want 1", u, h1)
	}
	if b.phone {
		type size struct {
			Scroll int `json:"scroll"`
			Client int `json:"client"`
		}
		widths := evaluate[size](t, b, u+" width", `({scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth})`)
		if widths.Client != phoneWidth || widths.Scroll > widths.Client {
			b.fail(t, u, "%s: on a phone %d px wide, the page is %d px wide", u, widths.Client, widths.Scroll)
		}
	}
}

// crawl loads start and every page it links to below base, transitively,
// checking each; it returns the pages found. Feeds and images are not
// pages: the images are checked on the pages that show them.
func (b *browser) crawl(t *testing.T, start, base string) map[string]bool {
	t.Helper()
	seen := map[string]bool{}
	queue := []string{start}
	for len(queue) > 0 && len(seen) < 200 {
		u := queue[0]
		queue = queue[1:]
		if seen[u] {
			continue
		}
		seen[u] = true
		b.load(t, u)
		for _, h := range evaluate[[]string](t, b, u+" links", `Array.from(document.querySelectorAll("a[href]")).map(a => a.href)`) {
			p, err := url.Parse(h)
			if err != nil {
				continue
			}
			p.Fragment = ""
			h = p.String()
			if strings.HasPrefix(h, base) && !strings.HasSuffix(h, ".xml") && !strings.HasSuffix(h, ".png") && !seen[h] {
				queue = append(queue, h)
			}
		}
	}
	return seen
}

// follow clicks the link that selector finds and checks that it leads
// to want, and the page there.
func (b *browser) follow(t *testing.T, selector, want string) {
	t.Helper()
	b.mu.Lock()
	b.problems = nil
	b.mu.Unlock()
	before := evaluate[string](t, b, "location", `location.href`)
	b.run(t, "click "+selector, chromedp.Click(chromedp.CSS(selector), chromedp.NodeVisible))
	// The click starts a navigation: wait until the new page is there.
	at := before
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
		st, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[location.href, document.readyState]`))
		cancel()
		if err == nil && len(st) == 2 && st[0] != before && st[1] == "complete" {
			at = st[0]
			break
		}
	}
	if at != want {
		b.fail(t, "follow", "clicking %s led to %s, want %s", selector, at, want)
	}
	b.check(t, at)
}

package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/web"
)

// The daemon serves the pages of judge.conf's http block, with its rate
// limit, and stops serving them when it stops; an address that cannot
// be had stops it at the start.
func TestDaemonWebPages(t *testing.T) {
	cfg := config.Defaults()
	cfg.DB = filepath.Join(t.TempDir(), "gmd.db")
	cfg.HTTP = &config.HTTP{Listen: "127.0.0.1:0", Rate: 1, Burst: 2}
	j, err := openJudge(cfg, state.Open, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer j.db.Close()
	var logs syncBuffer
	d := &running{judgeEnv: j, log: slog.New(slog.NewTextHandler(&logs, nil)), stats: new(web.Stats)}
	part, err := d.webPages(nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- part(ctx) }()
	m := regexp.MustCompile(`msg="web pages served" addr=(\S+)`).FindStringSubmatch(logs.String())
	if m == nil {
		t.Fatalf("no address logged:\n%s", logs.String())
	}
	get := func(path string) (int, string) {
		res, err := http.Get("http://" + m[1] + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, b := get("/"); code != 200 || !strings.Contains(b, "There are no games yet") {
		t.Errorf("/: %d\n%s", code, b)
	}
	if code, b := get("/healthz"); code != 200 || b != "ok\n" {
		t.Errorf("/healthz: %d %q", code, b)
	}
	if code, _ := get("/"); code != http.StatusTooManyRequests {
		t.Errorf("past the rate limit: %d", code)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("the pages stopped with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the pages did not stop")
	}
	if _, err := net.Dial("tcp", m[1]); err == nil {
		t.Error("the pages' address still answers")
	}

	// An address in use.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	cfg.HTTP.Listen = ln.Addr().String()
	if _, err := d.webPages(nil); err == nil || !strings.Contains(err.Error(), "http:") {
		t.Errorf("an address in use: %v", err)
	}
	// Without the block, nothing is served.
	cfg.HTTP = nil
	logs = syncBuffer{}
	part, err = d.webPages(nil)
	if err != nil || part(context.Background()) != nil || bytes.Contains([]byte(logs.String()), []byte("web pages")) {
		t.Errorf("without an http block: %v\n%s", err, logs.String())
	}
}

package main

import (
	"context"
	"fmt"
	"net"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/picture"
	"github.com/gmdjudge/gmd/web"
)

// webPages returns the part of the daemon that serves the read-only web
// pages on ln, or on the http block's address when ln is nil; a part
// that does nothing when there is neither. The address is taken now, so
// that one already in use stops gmd run at its start, not later.
func (d *running) webPages(ln net.Listener) (func(context.Context) error, error) {
	h := d.cfg.HTTP
	if ln == nil && h == nil {
		return func(context.Context) error { return nil }, nil
	}
	wc := web.Config{
		DB:        d.db,
		JudgeName: d.cfg.JudgeName,
		JudgeAddr: d.cfg.JudgeAddr,
		Overview:  d.master.OverviewOf,
		Replay:    engine.Replay,
		Draw:      picture.PNG,
		Stats:     d.stats,
		Log:       d.log,
	}
	if h != nil {
		wc.BaseURL, wc.Rate, wc.Burst, wc.TrustedProxies = h.BaseURL, h.Rate, h.Burst, h.TrustedProxies
		wc.MetricsFrom = h.MetricsFrom
	}
	srv, err := web.New(wc)
	if err != nil {
		return nil, err
	}
	if ln == nil {
		if ln, err = net.Listen("tcp", h.Listen); err != nil {
			return nil, fmt.Errorf("http: %w", err)
		}
	}
	d.log.Info("web pages served", "addr", ln.Addr().String(), "base_url", wc.BaseURL)
	return func(ctx context.Context) error { return web.Serve(ctx, ln, srv, d.log) }, nil
}

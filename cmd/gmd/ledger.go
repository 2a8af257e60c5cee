package main

import (
	"context"
	"time"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/state"
)

// pruneEvery is how often gmd run prunes the ledger, after once at
// start. Entries are kept for months, so a day late costs nothing, and a
// scan of a large ledger (590,000 entries for 10,000 games) is not free.
const pruneEvery = 24 * time.Hour

// ledgerSkew is how much earlier than the ledger's retention the poller
// stops offering old mail. A mail's arrival time is the IMAP server's
// clock and its ledger entry the judge's; should they disagree, the mail
// must still count as too old before its entry can be gone.
const ledgerSkew = time.Hour

// retention is how long the judge of cfg keeps ledger entries: the
// default for a Config made without config.Defaults, and never less than
// the floor, which Parse enforces for judge.conf.
func retention(cfg *config.Config) time.Duration {
	if cfg.LedgerRetention <= 0 {
		return config.DefaultLedgerRetention
	}
	return max(cfg.LedgerRetention, config.MinLedgerRetention)
}

// pruneLedger removes the ledger entries older than the retention now
// and then every `every`, until ctx ends. The reasons the retention is
// safe are at config.DefaultLedgerRetention: with the poller's MaxAge,
// no mail whose entry is gone can be applied again. A failure is logged
// and the next run tries again; a ledger not pruned only grows.
func (d *running) pruneLedger(ctx context.Context, every time.Duration) error {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		start := time.Now()
		before := start.Add(-retention(d.cfg)).UTC()
		n, err := d.db.PruneLedger(before)
		if err != nil {
			d.log.Error("pruning the ledger failed; trying again at the next run",
				"err", err, "removed", n, "next_in", every)
		} else {
			d.log.Info("ledger pruned", "removed", n, "before", before.Format(time.RFC3339),
				"took", time.Since(start).Round(time.Millisecond))
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// prunedMeta is the meta key of the last time gmd tick pruned the ledger.
const prunedMeta = "ledger/pruned"

// pruneIfDue prunes the ledger as gmd run does, for a judge run from cron
// without it: at most once every pruneEvery, which the database
// remembers, since gmd tick runs every minute and a scan of a large
// ledger takes a good part of a second. ran says whether it was due.
func pruneIfDue(j *judgeEnv, now time.Time) (removed int, ran bool, err error) {
	var last time.Time
	err = j.db.View(func(tx *state.Tx) error {
		v, err := tx.Meta(prunedMeta)
		if err == nil && v != nil {
			// A value that does not parse counts as never: pruning
			// once too often is harmless.
			last, _ = time.Parse(time.RFC3339, string(v))
		}
		return err
	})
	if err != nil || now.Sub(last) < pruneEvery {
		return 0, false, err
	}
	removed, err = j.db.PruneLedger(now.Add(-retention(j.cfg)))
	if err != nil {
		return removed, true, err
	}
	return removed, true, j.db.Update(func(tx *state.Tx) error {
		return tx.PutMeta(prunedMeta, []byte(now.UTC().Format(time.RFC3339)))
	})
}

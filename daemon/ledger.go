package daemon

import (
	"context"
	"log/slog"
	"time"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/state"
)

// PruneEvery is how often gmd run prunes the ledger, after once at
// start. Entries are kept for months, so a day late costs nothing, and a
// scan of a large ledger (590,000 entries for 10,000 games) is not free.
const PruneEvery = 24 * time.Hour

// LedgerSkew is how much earlier than the ledger's retention the poller
// stops offering old mail. A mail's arrival time is the IMAP server's
// clock and its ledger entry the judge's; should they disagree, the mail
// must still count as too old before its entry can be gone.
const LedgerSkew = time.Hour

// Retention is how long the judge of cfg keeps ledger entries: the
// default for a Config made without config.Defaults, and never less than
// the floor, which Parse enforces for judge.conf.
func Retention(cfg *config.Config) time.Duration {
	if cfg.LedgerRetention <= 0 {
		return config.DefaultLedgerRetention
	}
	return max(cfg.LedgerRetention, config.MinLedgerRetention)
}

// PruneLedger removes the ledger entries of db older than the retention
// of cfg now and then every `every`, until ctx ends, and logs each run. The reasons the retention is
// safe are at config.DefaultLedgerRetention: with the poller's MaxAge,
// no mail whose entry is gone can be applied again. A failure is logged
// and the next run tries again; a ledger not pruned only grows.
func PruneLedger(ctx context.Context, db *state.DB, cfg *config.Config, log *slog.Logger, every time.Duration) error {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		start := time.Now()
		before := start.Add(-Retention(cfg)).UTC()
		n, err := db.PruneLedger(before)
		if err != nil {
			log.Error("pruning the ledger failed; trying again at the next run",
				"err", err, "removed", n, "next_in", every)
		} else {
			log.Info("ledger pruned", "removed", n, "before", before.Format(time.RFC3339),
				"took", time.Since(start).Round(time.Millisecond))
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// PrunedMeta is the meta key of the last time gmd tick pruned the ledger.
const PrunedMeta = "ledger/pruned"

// PruneIfDue prunes the ledger of db as gmd run does, for a judge run
// from cron without it: at most once every PruneEvery, which the database
// remembers, since gmd tick runs every minute and a scan of a large
// ledger takes a good part of a second. ran says whether it was due.
func PruneIfDue(db *state.DB, cfg *config.Config, now time.Time) (removed int, ran bool, err error) {
	var last time.Time
	err = db.View(func(tx *state.Tx) error {
		v, err := tx.Meta(PrunedMeta)
		if err == nil && v != nil {
			// A value that does not parse counts as never: pruning
			// once too often is harmless.
			last, _ = time.Parse(time.RFC3339, string(v))
		}
		return err
	})
	if err != nil || now.Sub(last) < PruneEvery {
		return 0, false, err
	}
	removed, err = db.PruneLedger(now.Add(-Retention(cfg)))
	if err != nil {
		return removed, true, err
	}
	return removed, true, db.Update(func(tx *state.Tx) error {
		return tx.PutMeta(PrunedMeta, []byte(now.UTC().Format(time.RFC3339)))
	})
}

package daemon

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/state"
)

// PruneIfDue prunes when the meta key says the last prune is a day old,
// or when it holds no time at all (never, or a value that does not
// parse: pruning once too often is harmless), and not within a day of
// the last; each prune records its time. Every retention case is run:
// the default, a zero Config, and one under the floor.
func TestPruneIfDue(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name      string
		retention time.Duration
		meta      []byte // the PrunedMeta value before; nil for none
		wantRan   bool
	}{
		{"never pruned", config.DefaultLedgerRetention, nil, true},
		{"garbage meta", config.DefaultLedgerRetention, []byte("yesterday-ish"), true},
		{"an hour ago", config.DefaultLedgerRetention, []byte(now.Add(-time.Hour).Format(time.RFC3339)), false},
		{"a day ago", config.DefaultLedgerRetention, []byte(now.Add(-PruneEvery).Format(time.RFC3339)), true},
		{"zero config", 0, nil, true},
		{"under the floor", time.Hour, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := config.Defaults()
			cfg.LedgerRetention = tc.retention
			db, err := state.Open(filepath.Join(t.TempDir(), "gmd.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			keep := Retention(cfg)
			err = db.Update(func(tx *state.Tx) error {
				if tc.meta != nil {
					if err := tx.PutMeta(PrunedMeta, tc.meta); err != nil {
						return err
					}
				}
				if err := tx.MarkSeen("old", now.Add(-keep-time.Minute)); err != nil {
					return err
				}
				return tx.MarkSeen("new", now.Add(-keep+time.Minute))
			})
			if err != nil {
				t.Fatal(err)
			}
			removed, ran, err := PruneIfDue(db, cfg, now)
			if err != nil || ran != tc.wantRan {
				t.Fatalf("PruneIfDue: ran %v, %v; want ran %v", ran, err, tc.wantRan)
			}
			wantRemoved, wantMeta := 0, string(tc.meta)
			if tc.wantRan {
				wantRemoved, wantMeta = 1, now.Format(time.RFC3339)
			}
			if removed != wantRemoved {
				t.Errorf("removed %d entries, want %d", removed, wantRemoved)
			}
			err = db.View(func(tx *state.Tx) error {
				old, err := tx.Seen("old")
				if err != nil {
					return err
				}
				fresh, err := tx.Seen("new")
				if err != nil {
					return err
				}
				if old == tc.wantRan || !fresh {
					t.Errorf("after: old entry kept %v, new entry kept %v", old, fresh)
				}
				v, err := tx.Meta(PrunedMeta)
				if string(v) != wantMeta {
					t.Errorf("%s is %q, want %q", PrunedMeta, v, wantMeta)
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

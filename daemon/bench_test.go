package daemon

import (
	"path/filepath"
	"testing"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/state"
)

// BenchmarkOpen is the judge's start, as gmd run, gmd process and gmd
// tick make it on an existing database: the templates read and checked,
// the database opened, the game master made.
func BenchmarkOpen(b *testing.B) {
	cfg := config.Defaults()
	cfg.DB = filepath.Join(b.TempDir(), "gmd.db")
	db, err := state.Open(cfg.DB)
	if err != nil {
		b.Fatal(err)
	}
	db.Close()
	for b.Loop() {
		j, err := Open(cfg, state.OpenExisting, Pictures{}, nil)
		if err != nil {
			b.Fatal(err)
		}
		j.DB.Close()
	}
}

package jsonpos

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

var update = flag.Bool("update", false, "write testdata/stored.jsonl anew from the encoder")

// storedForms are positions of every form a game stores (see
// storedPositions): a movement, a retreat with dislodged units (one by
// land, one by convoy) and bounces, an adjustment, the other rules, a
// build rule set by the master, the constructions of 34-35-36, pending,
// built and ended, and neutral units.
var storedForms = []string{
	`{"phase": "F1901R", "units": [{"power": "France", "type": "A", "at": "bur"}, {"power": "England", "type": "F", "at": "bre"}],
	  "dislodged": [{"power": "Germany", "type": "A", "at": "mun", "attacker_from": "bur"}, {"power": "Italy", "type": "F", "at": "tun"}],
	  "bounced": ["gal", "bla"], "centers": {"par": "France", "mun": "Germany"}}`,
	`{"phase": "W1901A", "rules": "datc-2.4", "builds": "any",
	  "units": [{"power": "Russia", "type": "F", "at": "stp/sc"}], "centers": {"stp": "Russia", "swe": "Russia"}}`,
	`{"variant": "34, 35, 36", "phase": "F1902R",
	  "units": [{"power": "Russia", "type": "A", "at": "yor"}], "built_centers": ["wal", "arm"],
	  "centers": {"wal": "England", "arm": "Russia", "lon": "England"},
	  "pending_centers": [{"power": "England", "at": "yor", "ordered": "W1901A"},
	    {"power": "Russia", "at": "lvn", "ordered": "W1901A", "spoiled_by": "Germany", "spoiled_in": "F1902M"}]}`,
	`{"variant": "34, 35, 36", "phase": "W1902A",
	  "units": [{"power": "Russia", "type": "A", "at": "jor"}], "built_centers": ["jor"], "centers": {"jor": "Russia"},
	  "ended_constructions": [{"power": "England", "at": "yor", "ordered": "W1901A", "spoiled_by": "Germany", "spoiled_in": "S1902M"},
	    {"power": "Turkey", "at": "jor", "ordered": "W1901A"}]}`,
	// A North Sea Wars game stored while the map started in year 1 (it
	// starts in year 0 now): its positions read and are written as they
	// were.
	`{"variant": "north-sea-wars", "phase": "S1M", "units": [{"power": "Britons", "type": "A", "at": "cym"}], "centers": {"cym": "Britons"}}`,
	// Neutral units (judge.Unit.Neutral), added with them: positions
	// without any are stored as before.
	`{"phase": "F1901M", "units": [{"power": "Neutral", "type": "A", "at": "ser"}, {"power": "neutral", "type": "F", "at": "ion"},
	  {"power": "Austria", "type": "A", "at": "bud"}], "centers": {"bud": "Austria"}}`,
}

// storedPositions are the positions whose stored form the golden file
// pins: the start of every board, then storedForms.
func storedPositions(t *testing.T) [][]byte {
	t.Helper()
	var out [][]byte
	for _, name := range variants.Names() {
		m, err := variants.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, EncodePosition(judge.StartPosition(m), judge.DefaultRules))
	}
	for _, s := range storedForms {
		pos, rules := mustDecode(t, s)
		out = append(out, EncodePosition(pos, rules))
	}
	return out
}

// This package's output is also the storage format of positions: every
// game record and every history record holds one (engine writes it with
// EncodePosition, and reads it back with DecodePosition). The golden
// file is that stored form, byte for byte, for the start of every board
// and for every form of position. A change to the gmd adjudicate
// contract that fails this test changes what every database holds: it
// is a storage migration, and old records must still read (see
// docs/architecture.md).
func TestStoredForm(t *testing.T) {
	golden := filepath.Join("testdata", "stored.jsonl")
	now := storedPositions(t)
	if *update {
		if err := os.WriteFile(golden, append(bytes.Join(now, []byte("\n")), '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	stored := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	if len(stored) != len(now) {
		t.Fatalf("%s holds %d positions, the boards and forms make %d: a board was added or removed; "+
			"run go test -run TestStoredForm -update and check the diff", golden, len(stored), len(now))
	}
	for i, rec := range stored {
		// A record written before the change still reads, and is written
		// back as it was.
		pos, rules, err := DecodePosition(rec)
		if err != nil {
			t.Errorf("stored position %d no longer reads (a storage migration): %v\n%s", i, err, rec)
			continue
		}
		if again := EncodePosition(pos, rules); !bytes.Equal(again, rec) {
			t.Errorf("stored position %d is written back otherwise (a storage migration):\n%s\n%s", i, rec, again)
		}
		// And the encoder writes today what was stored then.
		if !bytes.Equal(now[i], rec) {
			t.Errorf("position %d is now stored otherwise (a storage migration):\nwas %s\nnow %s", i, rec, now[i])
		}
	}
}

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/state"
)

// TestImportExport: gmd import reads an exported game into a new
// database, gmd export writes it back byte for byte, and a second import
// under the same name is refused.
func TestImportExport(t *testing.T) {
	want, err := os.ReadFile("testdata/export-standard.json")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "gmd.db")
	if code, _, errs := gmd(t, "", "init", "-db", path); code != 0 {
		t.Fatalf("gmd init: %d %s", code, errs)
	}
	code, out, errs := gmd(t, "", "import", "-db", path, "-in", "testdata/export-standard.json")
	if code != 0 || out != "imported g: standard, 6 phases, checked phase by phase\n" {
		t.Fatalf("gmd import = %d, %q, %q", code, out, errs)
	}
	code, got, errs := gmd(t, "", "export", "-db", path, "-game", "g")
	if code != 0 || got != string(want) {
		t.Fatalf("gmd export = %d, %s; want the imported file again\n%s", code, errs, got)
	}
	file := filepath.Join(t.TempDir(), "out.json")
	if code, _, errs := gmd(t, "", "export", "-db", path, "-game", "g", "-o", file); code != 0 {
		t.Fatalf("gmd export -o = %d %s", code, errs)
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != string(want) {
		t.Errorf("gmd export -o wrote %d bytes (%v), want the same document", len(b), err)
	}
	code, _, errs = gmd(t, string(want), "import", "-db", path, "-in", "-")
	if code != 1 || !strings.Contains(errs, "there is already a game g") {
		t.Errorf("a second import = %d, %q", code, errs)
	}
	t.Log(errs)
	// Under a new name, and again from that one's export: the results
	// keep the first name, and still read back.
	if code, _, errs := gmd(t, string(want), "import", "-db", path, "-in", "-", "-game", "copy"); code != 0 {
		t.Fatalf("import as copy = %d, %q", code, errs)
	}
	code, again, errs := gmd(t, "", "export", "-db", path, "-game", "copy")
	if code != 0 || again != strings.Replace(string(want), `"name": "g"`, `"name": "copy"`, 1) {
		t.Fatalf("export of copy = %d, %q: want the document under the new name\n%s", code, errs, again)
	}
	if code, _, errs := gmd(t, again, "import", "-db", path, "-in", "-", "-game", "copy2"); code != 0 {
		t.Errorf("import of copy's export = %d, %q", code, errs)
	}
}

// TestImportRefuses: a tampered order, another format, a bad name and a
// missing game get a clear answer and exit status 1, and nothing is
// stored.
func TestImportRefuses(t *testing.T) {
	doc, err := os.ReadFile("testdata/export-standard.json")
	if err != nil {
		t.Fatal(err)
	}
	// Turkey's "A con - smy" of S1901M bounced; made a hold, the
	// results recorded for the phase no longer follow.
	tampered := strings.Replace(string(doc), `"A con - smy"`, `"A con H"`, 1)
	if tampered == string(doc) {
		t.Fatal("the sample has no order A con - smy")
	}
	path := filepath.Join(t.TempDir(), "gmd.db")
	if code, _, errs := gmd(t, "", "init", "-db", path); code != 0 {
		t.Fatalf("gmd init: %d %s", code, errs)
	}
	for _, c := range []struct {
		stdin, name, want string
	}{
		{tampered, "g", "phase S1901M: its orders do not give the results recorded; nothing imported"},
		{`{"format":"mila"}`, "g", `format is "mila"`},
		{string(doc), "no-dashes", `"no-dashes" is not a game name`},
	} {
		code, _, errs := gmd(t, c.stdin, "import", "-db", path, "-in", "-", "-game", c.name)
		if code != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("import = %d, %q; want %q", code, errs, c.want)
		}
		t.Log(strings.TrimSpace(errs))
	}
	if code, _, errs := gmd(t, "", "export", "-db", path, "-game", "g"); code != 1 || !strings.Contains(errs, "game g") {
		t.Errorf("export of a game never imported = %d, %q", code, errs)
	}
	if code, _, errs := gmd(t, "", "export", "-db", path); code != 2 || !strings.Contains(errs, "-game is required") {
		t.Errorf("export without -game = %d, %q", code, errs)
	}
}

// TestExportPrivacy: a game in the database with players' addresses and
// password hashes, an observer, a master and private press exports none
// of them, while its broadcasts of every turn are there.
func TestExportPrivacy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gmd.db")
	if code, _, errs := gmd(t, "", "init", "-db", path); code != 0 {
		t.Fatalf("gmd init: %d %s", code, errs)
	}
	if code, _, errs := gmd(t, "", "import", "-db", path, "-in", "testdata/export-standard.json"); code != 0 {
		t.Fatalf("gmd import: %d %s", code, errs)
	}
	db, err := state.OpenExisting(path)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *state.Tx) error {
		g, err := tx.Game("g")
		if err != nil {
			return err
		}
		g.MasterAddr, g.MasterHash = "master@hidden.example", []byte("SECRETHASH")
		g.Observers = []state.Observer{{Addr: "watcher@hidden.example", PassHash: []byte("SECRETHASH")}}
		for i := range g.Players {
			g.Players[i].Addr, g.Players[i].PassHash = g.Players[i].Power+"@hidden.example", []byte("SECRETHASH")
		}
		if err := tx.PutGame(g); err != nil {
			return err
		}
		for turn := range 4 {
			if err := tx.AddPress("g", turn, &state.Press{Phase: "S1901M", From: "France", To: []string{"England"}, Text: "PRIVATE plan"}); err != nil {
				return err
			}
			if err := tx.AddPress("g", turn, &state.Press{Phase: "S1901M", From: "France", Text: fmt.Sprintf("public %d", turn)}); err != nil {
				return err
			}
		}
		return nil
	})
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := gmd(t, "", "export", "-db", path, "-game", "g")
	if code != 0 {
		t.Fatalf("gmd export = %d %s", code, errs)
	}
	for _, secret := range []string{"hidden.example", "SECRETHASH", "U0VDUkVUSEFTSA", "PRIVATE"} {
		if strings.Contains(out, secret) {
			t.Errorf("the export contains %q", secret)
		}
	}
	for turn := range 4 {
		if !strings.Contains(out, fmt.Sprintf(`"text": "public %d"`, turn)) {
			t.Errorf("the broadcast of turn %d is missing", turn)
		}
	}
}

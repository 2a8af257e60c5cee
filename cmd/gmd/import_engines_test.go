package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// importedDB is a database holding the sample game g, imported from
// testdata/export-standard.json.
func importedDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "gmd.db")
	if code, _, errs := gmd(t, "", "init", "-db", path); code != 0 {
		t.Fatalf("gmd init: %d %s", code, errs)
	}
	if code, _, errs := gmd(t, "", "import", "-db", path, "-in", "testdata/export-standard.json"); code != 0 {
		t.Fatalf("gmd import: %d %s", code, errs)
	}
	return path
}

// TestExportImportMILA: gmd export -format mila writes MILA's saved
// game; gmd import finds the format by itself, checks it (-check, with no
// database) and imports it as a new game with the same phases, orders
// and positions as the first.
func TestExportImportMILA(t *testing.T) {
	path := importedDB(t)
	code, mila, errs := gmd(t, "", "export", "-db", path, "-game", "g", "-format", "mila")
	if code != 0 {
		t.Fatalf("gmd export -format mila = %d %s", code, errs)
	}
	var head struct {
		ID     string            `json:"id"`
		Map    string            `json:"map"`
		Phases []json.RawMessage `json:"phases"`
	}
	if err := json.Unmarshal([]byte(mila), &head); err != nil || head.ID != "g" || head.Map != "standard" || len(head.Phases) != 7 {
		t.Fatalf("MILA export: id %q map %q %d phases (%v), want g, standard, 6 phases and the last board", head.ID, head.Map, len(head.Phases), err)
	}
	code, out, errs := gmd(t, mila, "import", "-in", "-", "-check")
	if code != 0 || out != "checked standard input (mila, standard): 6 phases played again, gmd agrees with every one\n" {
		t.Fatalf("gmd import -check = %d, %q, %q", code, out, errs)
	}
	code, out, errs = gmd(t, mila, "import", "-db", path, "-in", "-", "-game", "frommila")
	if code != 0 || out != "imported frommila: standard, 6 phases, checked phase by phase\n" {
		t.Fatalf("gmd import of the MILA file = %d, %q, %q", code, out, errs)
	}
	_, first, _ := gmd(t, "", "export", "-db", path, "-game", "g")
	_, second, _ := gmd(t, "", "export", "-db", path, "-game", "frommila")
	type phases struct {
		Phases []struct {
			Phase    string
			Position json.RawMessage
			Orders   map[string][]string
		}
		Final json.RawMessage
	}
	var a, b phases
	if err := json.Unmarshal([]byte(first), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(second), &b); err != nil {
		t.Fatal(err)
	}
	if len(a.Phases) != len(b.Phases) || string(a.Final) != string(b.Final) {
		t.Fatalf("through MILA: %d phases, want %d; or another final board", len(b.Phases), len(a.Phases))
	}
	for i := range a.Phases {
		x, y := a.Phases[i], b.Phases[i]
		ox, _ := json.Marshal(x.Orders)
		oy, _ := json.Marshal(y.Orders)
		if x.Phase != y.Phase || string(x.Position) != string(y.Position) || string(ox) != string(oy) {
			t.Errorf("phase %d: %s %s %s, want %s %s %s", i, y.Phase, y.Position, oy, x.Phase, x.Position, ox)
		}
	}
}

// TestImportOtherEnginesRefuses: a MILA game that disagrees with gmd, a
// godip game without its board, and bad flags get a clear answer.
func TestImportOtherEnginesRefuses(t *testing.T) {
	path := importedDB(t)
	_, mila, _ := gmd(t, "", "export", "-db", path, "-game", "g", "-format", "mila")
	// Turkey's A con - smy bounced in Spring 1901, and the record's next
	// board has the army in Constantinople still; written A CON - BUL,
	// the move succeeds, and that board no longer follows.
	tampered := strings.Replace(mila, `"A CON - SMY"`, `"A CON - BUL"`, 1)
	if tampered == mila {
		t.Fatal("the sample has no order A CON - SMY")
	}
	godip, err := os.ReadFile("../../export/testdata/godip-pure.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		stdin string
		args  []string
		code  int
		want  string
	}{
		{tampered, []string{"-check"}, 1, "gmd import: standard input: phase S1901M: gmd and MILA end it on different boards: in bul MILA has nothing, gmd Turkey A bul; in con MILA has Turkey A con, gmd nothing\n"},
		{tampered, []string{"-db", path, "-game", "bad"}, 1, "; nothing imported\n"},
		{string(godip), []string{"-check"}, 2, "a godip game does not name its board: give -variant"},
		{string(godip), []string{"-check", "-variant", "hundred"}, 1, "gmd replays those of"},
		{mila, []string{"-check", "-variant", "pure"}, 2, "-variant is for godip's games"},
		{mila, []string{"-check", "-format", "xml"}, 2, "-format xml: want auto, gmd, mila or godip"},
		{mila, []string{"-check", "-rules", "datc-9"}, 2, "-rules"},
		{"hello", []string{"-check"}, 1, "neither a gmd export, a MILA saved game nor a godip game file"},
		{strings.Replace(mila, `"id":"g"`, `"id":"not a name"`, 1), []string{"-db", path}, 1, `"not a name" is not a game name (1 to 12 letters and digits): give one with -game`},
	} {
		code, _, errs := gmd(t, c.stdin, append([]string{"import", "-in", "-"}, c.args...)...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("gmd import %v = %d, %q; want %d, %q", c.args, code, errs, c.code, c.want)
			continue
		}
		t.Log(strings.TrimSpace(errs))
	}
	if code, _, errs := gmd(t, "", "export", "-db", path, "-game", "g", "-format", "godip"); code != 2 || !strings.Contains(errs, "want gmd or mila") {
		t.Errorf("gmd export -format godip = %d, %q", code, errs)
	}
}

// TestImportGodip: a godip game file, named by its file, checked and
// imported on the board -variant names.
func TestImportGodip(t *testing.T) {
	path := importedDB(t)
	file := filepath.Join(t.TempDir(), "game_1.txt")
	data, err := os.ReadFile("../../export/testdata/godip-pure.txt")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := gmd(t, "", "import", "-in", file, "-variant", "pure", "-check")
	if code != 0 || !strings.HasSuffix(out, "(godip, pure): 3 phases played again, gmd agrees with every one\n") {
		t.Fatalf("gmd import -check = %d, %q, %q", code, out, errs)
	}
	code, out, errs = gmd(t, "", "import", "-db", path, "-in", file, "-variant", "pure")
	if code != 0 || out != "imported game1: pure, 3 phases, checked phase by phase\n" {
		t.Fatalf("gmd import = %d, %q, %q", code, out, errs)
	}
	if code, got, errs := gmd(t, "", "export", "-db", path, "-game", "game1"); code != 0 || !strings.Contains(got, `"build A vie"`) {
		t.Errorf("export of the godip game = %d %s: want Austria's build among its orders", code, errs)
	}
}

package session

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/templates"
	"github.com/gmdjudge/gmd/view"
)

// The mails of variants with many powers, on the test boards of
// ../testdata/maps: the standard board with 12 powers, and with 34 under
// njudge's Chaos letters (A to Z but M and O, then 0 to 9).

// crowdMap loads one of the test maps of ../testdata/maps.
func crowdMap(t *testing.T, name string) *judge.Map {
	t.Helper()
	src, err := os.ReadFile("../testdata/maps/" + name + ".map")
	if err != nil {
		t.Fatal(err)
	}
	m, err := judge.ParseMap(name, src)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// crowdGame returns a started game with a player for every power of mp.
func crowdGame(mp *judge.Map) *state.Game {
	g := &state.Game{Name: "twelveletter", Variant: mp.Name, Status: state.Active, MasterAddr: testMaster}
	for _, p := range mp.Powers {
		g.Players = append(g.Players, state.Player{Power: p.Name, Addr: strings.ToLower(p.Name) + "@example.org", Status: state.Playing})
	}
	return g
}

// wantSubjectFits fails the test when the Subject header of subject is
// longer than a line of 78 characters.
func wantSubjectFits(t *testing.T, subject string) {
	t.Helper()
	if n := utf8.RuneCountInString("Subject: " + subject); n > templates.LineWidth {
		t.Errorf("the subject header has %d characters: Subject: %s", n, subject)
	}
}

// TestCentreTableManyPowers: SUMMARY's table of centres after each Fall
// keeps one column a power, headed by its letter, within 78 columns: the
// seven powers of the standard map in one block as before, 12 in one,
// 34 in two blocks of 17, each with its letters above it.
func TestCentreTableManyPowers(t *testing.T) {
	t.Parallel()
	years := []int{1901, 1902}
	// The start is no row of the table.
	counts := func(mp *judge.Map) []view.CentreYear {
		c := []view.CentreYear{{Year: 1900, Start: true, Counts: make([]int, len(mp.Powers))}}
		for _, y := range years {
			cy := view.CentreYear{Year: y}
			for k := range mp.Powers {
				cy.Counts = append(cy.Counts, (k+y)%20)
			}
			c = append(c, cy)
		}
		return c
	}
	std := variants.Standard()
	got := centreTable(std, counts(std))
	want := []string{
		"         A   E   F   G   I   R   T",
		"  1901   1   2   3   4   5   6   7",
		"  1902   2   3   4   5   6   7   8",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("standard table:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, tt := range []struct {
		name   string
		blocks int
	}{{"crowd12", 1}, {"crowd34", 2}} {
		mp := crowdMap(t, tt.name)
		c := counts(mp)
		lines := centreTable(mp, c)
		wantNarrowText(t, tt.name, strings.Join(lines, "\n"))
		// Read the table back: each block's letters over its counts.
		var letters string
		byYear := map[int][]string{}
		blocks := 0
		for i := 0; i < len(lines); i += len(years) + 2 {
			blocks++
			letters += strings.Join(strings.Fields(lines[i]), "")
			for j, y := range years {
				f := strings.Fields(lines[i+1+j])
				if f[0] != fmt.Sprint(y) || len(f)-1 != len(strings.Fields(lines[i])) {
					t.Fatalf("%s: row %q under %q", tt.name, lines[i+1+j], lines[i])
				}
				byYear[y] = append(byYear[y], f[1:]...)
			}
		}
		if blocks != tt.blocks {
			t.Errorf("%s: %d blocks, want %d:\n%s", tt.name, blocks, tt.blocks, strings.Join(lines, "\n"))
		}
		if want := powerLetters(mp); letters != strings.ReplaceAll(want, ", ", "") {
			t.Errorf("%s: the letters read %s, want %s", tt.name, letters, want)
		}
		for i, y := range years {
			for k, n := range byYear[y] {
				if want := c[i+1].Counts[k]; n != fmt.Sprint(want) {
					t.Errorf("%s: %d, power %d: %s, want %d", tt.name, y, k, n, want)
				}
			}
		}
	}
}

// TestSubjectsManyPowers: the subjects that name powers by their letters
// fit in a header line when many powers are late, abandoned, in a draw or
// sent press; past twelve letters they say how many powers instead, and
// the bodies name every one.
func TestSubjectsManyPowers(t *testing.T) {
	t.Parallel()
	m := newTestMaster(t)
	mp := crowdMap(t, "crowd34")
	g := crowdGame(mp)
	head := engine.HeadLines{Header: engine.Header{Judge: "GMD", Game: g.Name, Variant: mp.Title, Phase: "S1901M", Deadline: engine.NoDeadline},
		Tag: "GMD:twelveletter - S1901M", Game: g.Name, Zone: "UTC"}
	var twenty, twelve []int
	for i := range 20 {
		twenty = append(twenty, i)
	}
	twelve = twenty[:12]

	refs, letters := engine.PowerRefs(mp, g, twelve)
	if letters != "ABCDEFGHIJKL" {
		t.Errorf("the letters of twelve powers: %q", letters)
	}
	subject, _, err := m.tmpl.Render("late", engine.LateData{HeadLines: head, Powers: refs, Letters: letters, YouAreLate: true})
	if err != nil {
		t.Fatal(err)
	}
	wantSubjectFits(t, subject)

	refs, letters = engine.PowerRefs(mp, g, twenty)
	if letters != "20 powers" {
		t.Errorf("the letters of twenty powers: %q", letters)
	}
	for _, r := range []struct {
		name string
		data any
	}{
		{"late", engine.LateData{HeadLines: head, Powers: refs, Letters: letters, YouAreLate: true, NMR: true}},
		{"abandoned", engine.AbandonedData{HeadLines: head, Powers: refs, Letters: letters, Waiting: true}},
	} {
		subject, body, err := m.tmpl.Render(r.name, r.data)
		if err != nil {
			t.Fatal(err)
		}
		wantSubjectFits(t, subject)
		mustContain(t, subject, "20 powers")
		wantNarrowText(t, r.name, body)
		for _, ref := range refs {
			mustContain(t, body, ref.Name)
		}
	}

	// A draw of all 34.
	var names []string
	for _, p := range mp.Powers {
		names = append(names, p.Name)
	}
	g.Result = "draw " + strings.Join(names, " ")
	d := m.EndData(g, judge.StartPosition(mp), testStart)
	if d.Letters != "34 powers" {
		t.Errorf("the draw's letters: %q", d.Letters)
	}
	for _, name := range []string{"draw", "gameover"} {
		subject, body, err := m.tmpl.Render(name, d)
		if err != nil {
			t.Fatal(err)
		}
		wantSubjectFits(t, subject)
		wantNarrowText(t, name, body)
		mustContain(t, body, "Constantinople", "StPetersburg", "Warsaw")
	}
}

// TestPressToManyPowers: press to most of 34 powers has a subject that
// fits, and reaches each of them.
func TestPressToManyPowers(t *testing.T) {
	t.Parallel()
	mp := crowdMap(t, "crowd34")
	target, msg := parseRecipients(mp, []string{"ALL", "BUT", "9"})
	if msg != "" || len(target.powers) != 33 {
		t.Fatalf("PRESS TO ALL BUT 9: %d powers, %q", len(target.powers), msg)
	}
	target, msg = parseRecipients(mp, []string{"3Z0", "Ankara"})
	if msg != "" || len(target.powers) != 4 || target.master {
		t.Fatalf("PRESS TO 3Z0 Ankara: %+v, %q", target, msg)
	}
}

// TestPreferencesManyPowers: preferences take the variant's letters,
// digits among them, in njudge's groups, and a letter of no power (M, O)
// is refused with the letters there are; the powers dealt at the start
// follow them.
func TestPreferencesManyPowers(t *testing.T) {
	t.Parallel()
	mp := crowdMap(t, "crowd34")
	if got, msg := parsePreference(mp, "3[z0]A"); got != "3Z0A" || msg != "" {
		t.Errorf("preference 3[z0]A: %q, %q", got, msg)
	}
	for _, bad := range []string{"M", "o", "E!"} {
		_, msg := parsePreference(mp, bad)
		if !strings.Contains(msg, "is not a power letter") || !strings.Contains(msg, "Y, Z, 0, 1") {
			t.Errorf("preference %q: %q", bad, msg)
		}
	}
	g := crowdGame(mp)
	g.Status = state.Forming
	for i := range g.Players {
		g.Players[i].Power = ""
	}
	g.Players[0].Preference = "9"
	g.Players[1].Preference = "3Z"
	engine.AssignPowers(g, mp, testStart)
	for _, want := range []struct{ addr, power string }{
		{"ankara@example.org", "Warsaw"}, {"belgium@example.org", "StPetersburg"},
	} {
		i := engine.PlayerByAddr(g, want.addr)
		if i < 0 || g.Players[i].Power != want.power {
			t.Errorf("%s was dealt %q, want %s", want.addr, g.Players[max(i, 0)].Power, want.power)
		}
	}
}

// TestPowerColumnsManyPowers: the lists of players in the game-start
// mail and the final summary keep their columns when a power's name is
// longer than the standard ones ("Constantinople"), and keep the classic
// widths on the standard map.
func TestPowerColumnsManyPowers(t *testing.T) {
	t.Parallel()
	m := newTestMaster(t)
	for _, mp := range []*judge.Map{variants.Standard(), crowdMap(t, "crowd34")} {
		g := crowdGame(mp)
		g.Result = "terminated"
		d := m.EndData(g, judge.StartPosition(mp), testStart)
		_, body, err := m.tmpl.Render("gameover", d)
		if err != nil {
			t.Fatal(err)
		}
		wantColumn(t, mp.Name+" gameover", body, "Centres", mp)
		_, body, err = m.tmpl.Render("start", engine.StartData{Players: engine.SeatLines(g, true), PowerWidth: engine.NameColumn(mp, 1, 10)})
		if err != nil {
			t.Fatal(err)
		}
		wantColumn(t, mp.Name+" start", body, "", mp)
	}
}

// wantColumn checks that in every line of body that starts (after
// spaces) with a power's name, what follows the name starts in the same
// column: in the column of the last letter of head (counts are
// right-aligned under it) when head is not "".
func wantColumn(t *testing.T, what, body, head string, mp *judge.Map) {
	t.Helper()
	at, rows := -1, 0
	for _, l := range strings.Split(body, "\n") {
		if head != "" && strings.Contains(l, head) {
			at = strings.Index(l, head) + len(head) - 1
			continue
		}
		rest := strings.TrimLeft(l, " ")
		name, _, _ := strings.Cut(rest, " ")
		if _, ok := mp.PowerByName(strings.TrimSuffix(name, ":")); !ok || len(name) < 2 {
			continue
		}
		rows++
		start := len(l) - len(rest) + len(name)
		col := start + len(l[start:]) - len(strings.TrimLeft(l[start:], " "))
		if at >= 0 && col != at {
			t.Errorf("%s: %q has its column at %d, not %d", what, l, col, at)
		}
		at = col
	}
	if rows != len(mp.Powers) {
		t.Errorf("%s: %d rows, want %d:\n%s", what, rows, len(mp.Powers), body)
	}
}

package judge_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// TestFallOfEurope1908Year plays the first year of "1908 - Fall of
// Europe" from its starting position through the published special
// borders: a British fleet sails from Cairo to the Mid-Atlantic (rule 2),
// a French army marches from Marseilles to Spain and then is convoyed from
// Casablanca to Cairo through the Mid-Atlantic, and the Winter has French
// builds and a British removal.
func TestFallOfEurope1908Year(t *testing.T) {
	b := startBoard(t, "1908-fall-of-europe")
	b.play("Britain: F cai - mid\nFrance: A mar - spa")
	if b.pos.Phase.String() != "F1908M" {
		t.Fatalf("phase %s after Spring", b.pos.Phase)
	}
	if got := b.unitsOf("Britain"); !slices.Equal(got, []string{"A lvp", "F edi", "F lon", "F mid"}) {
		t.Fatalf("British units %v after Spring", got)
	}
	b.play("Britain: F mid C France A cas - cai\nFrance: A cas - cai")
	if b.pos.Phase.String() != "W1908A" {
		t.Fatalf("phase %s after Fall", b.pos.Phase)
	}
	if got := b.unitsOf("France"); !slices.Equal(got, []string{"A cai", "A par", "A spa", "F bre"}) {
		t.Fatalf("French units %v after Fall", got)
	}
	counts := b.pos.CenterCount()
	if counts[b.power("France")] != 6 || counts[b.power("Britain")] != 3 {
		t.Fatalf("centres: France %d, Britain %d; want 6 and 3", counts[b.power("France")], counts[b.power("Britain")])
	}
	res := b.play("France: build A mar\nFrance: build F cas\nBritain: remove F mid")
	b.expect(res, "France: build A mar", judge.Built, "")
	b.expect(res, "France: build F cas", judge.Built, "")
	if b.pos.Phase.String() != "S1909M" {
		t.Fatalf("phase %s after Winter", b.pos.Phase)
	}
	if got := b.unitsOf("Britain"); !slices.Equal(got, []string{"A lvp", "F edi", "F lon"}) {
		t.Errorf("British units %v after Winter", got)
	}
	if got := b.unitsOf("France"); !slices.Equal(got, []string{"A cai", "A mar", "A par", "A spa", "F bre", "F cas"}) {
		t.Errorf("French units %v after Winter", got)
	}
}

// TestFallOfEurope1908Victory plays the end of a year on "1908 - Fall of
// Europe" under its current rules (godip, year1908.go since 2020): 18 of
// the 40 centres win; while the two leaders are tied, the game goes on for
// another year, and a leader ahead of the rest wins alone. The same map
// with its ties shared ("ties share", the default) makes both winners.
func TestFallOfEurope1908Victory(t *testing.T) {
	cases := []struct {
		name            string
		britain, france int // centres owned, Britain's first in the map's list
		winners         string
	}{
		{"18 wins", 18, 17, "Britain"},
		{"17 does not", 17, 17, ""},
		{"the leaders tied at 18", 18, 18, ""},
		{"the leaders tied at 20", 20, 20, ""},
		{"a leader ahead of another at 18", 19, 18, "Britain"},
		{"France ahead", 18, 19, "France"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := newBoard(t, "1908-fall-of-europe", "F1912M")
			centres := b.m.Centers()
			b.own("Britain", names(b.m, centres[:c.britain])...)
			b.own("France", names(b.m, centres[c.britain:c.britain+c.france])...)
			res := b.play("")
			var got []string
			for _, w := range res.Winners {
				got = append(got, b.m.PowerName(w))
			}
			if strings.Join(got, " ") != c.winners {
				t.Errorf("winners %v, want %q", got, c.winners)
			}
		})
	}

	// The tie broken a year later: Britain's army takes Belgium at the end
	// of 1912 (18 each), and the Netherlands from France in 1913.
	b := newBoard(t, "1908-fall-of-europe", "F1912M", "Britain A bel")
	var rest []judge.Loc
	for _, c := range b.m.Centers() {
		if n := b.m.LocName(c); n != "bel" && n != "net" {
			rest = append(rest, c)
		}
	}
	b.own("Britain", names(b.m, rest[:17])...).own("France", names(b.m, rest[17:34])...).own("France", "net")
	if res := b.play(""); len(res.Winners) != 0 {
		t.Fatalf("winners %v with the leaders tied at 18", res.Winners)
	}
	for b.pos.Phase.Season != judge.Spring {
		b.play("")
	}
	b.play("Britain: A bel - net")
	if res := b.play(""); len(res.Winners) != 1 || res.Winners[0] != b.power("Britain") {
		t.Fatalf("winners %v after Britain took the Netherlands, want Britain", res.Winners)
	}

	// The same board with its ties shared.
	_, src, err := variants.Source("1908-fall-of-europe")
	if err != nil {
		t.Fatal(err)
	}
	m, err := judge.ParseMap("shared", bytes.Replace(src, []byte(" ties continue"), nil, 1))
	if err != nil {
		t.Fatal(err)
	}
	if m.TiesContinue {
		t.Fatal("ties continue without the setting")
	}
	pos := judge.NewPosition(m, judge.Phase{Season: judge.Fall, Year: 1912, Type: judge.Movement})
	for i, c := range m.Centers()[:36] {
		pos.Centers[c] = judge.Power(1 + i%2) // Britain and France, 18 each
	}
	if res := judge.Adjudicate(pos, nil, judge.DefaultRules); len(res.Winners) != 2 {
		t.Errorf("winners %v of a shared tie, want both", res.Winners)
	}
}

// names returns the short names of locs.
func names(m *judge.Map, locs []judge.Loc) []string {
	out := make([]string, len(locs))
	for i, l := range locs {
		out[i] = m.LocName(l)
	}
	return out
}

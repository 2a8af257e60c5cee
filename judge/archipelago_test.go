package judge_test

import (
	"fmt"
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// islesMap is a coast with two seas off it and, between the seas, Baleares:
// a coastal province no army walks into. Its last line makes Baleares an
// archipelago.
const islesMap = `map Isles
power Rome Roman R
power Carthage Carthaginian C
province mas coast - - Massilia
province tar coast - - Tarraconensis
province sag coast - - Saguntum
province lig sea - - "Ligurian Sea"
province ber sea - - "Berber Sea"
province bal coast sc - Baleares
army mas: tar
army tar: mas sag
army sag: tar
fleet mas: lig tar
fleet tar: mas sag lig bal
fleet sag: tar ber bal
fleet lig: mas tar ber bal
fleet ber: lig sag bal
fleet bal: lig ber tar sag
`

// islesBoard is a Spring position on the isles map, with or without the
// archipelago line, holding the units ("Rome A mas").
func islesBoard(t *testing.T, archipelago bool, units ...string) *board {
	t.Helper()
	src := islesMap
	if archipelago {
		src += "archipelago bal\n"
	}
	m, err := judge.ParseMap("isles", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	b := &board{t: t, m: m, pos: judge.NewPosition(m, judge.Phase{Season: judge.Spring, Year: 1901, Type: judge.Movement})}
	for _, u := range units {
		var power, typ, at string
		if _, err := fmt.Sscan(u, &power, &typ, &at); err != nil {
			t.Fatal(err)
		}
		ut := judge.Army
		if typ == "F" {
			ut = judge.Fleet
		}
		if err := b.pos.Place(judge.Unit{Type: ut, Power: b.power(power), Loc: b.loc(at)}); err != nil {
			t.Fatalf("%s: %v", u, err)
		}
	}
	return b
}

// TestArchipelagoConvoys checks that a fleet in an archipelago convoys as
// from a sea, and that without the archipelago line it may not.
func TestArchipelagoConvoys(t *testing.T) {
	// Massilia to Saguntum by the Ligurian Sea and Baleares: neither sea
	// touches both ends, so the fleet in Baleares carries the army.
	orders := "Rome: A mas - sag via convoy\nRome: F lig c A mas - sag\nRome: F bal c A mas - sag"
	b := islesBoard(t, true, "Rome A mas", "Rome F lig", "Rome F bal")
	res := b.play(orders)
	b.expect(res, "Rome: F bal C A mas - sag", judge.Succeeds, "")
	b.expect(res, "Rome: A mas - sag via convoy", judge.Succeeds, "")

	b = islesBoard(t, false, "Rome A mas", "Rome F lig", "Rome F bal")
	res = b.play(orders)
	b.expect(res, "Rome: F bal C A mas - sag", judge.Void, "a fleet convoys only from a sea province")
	if r := b.ruling(res, "Rome: A mas - sag via convoy"); r.Outcome == judge.Succeeds {
		t.Errorf("without the archipelago line the army still got to Saguntum: %v", r.Outcome)
	}

	// An army reaches the archipelago by convoy only.
	b = islesBoard(t, true, "Rome A tar")
	res = b.play("Rome: A tar - bal")
	if r := b.ruling(res, "Rome: A tar - bal"); r.Outcome == judge.Succeeds {
		t.Error("an army walked into Baleares")
	}
	b = islesBoard(t, true, "Rome A tar", "Rome F lig")
	res = b.play("Rome: A tar - bal\nRome: F lig c A tar - bal")
	b.expect(res, "Rome: A tar - bal", judge.Succeeds, "")
}

package export

import (
	"bufio"
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// godip's recorded games (variants/<variant>/games/game_N.txt in
// github.com/zond/godip) are text: for each phase a line "PHASE 1901
// Spring Movement", then POSITIONS, one line a unit or centre ("France:
// army par", "Russia: fleet stp/sc", "Italy: army/dislodged rom",
// "France: supply par"), then ORDERS, one line an order named by the
// province of its unit ("par move bur", "bre support par move pic",
// "nth convoy lon move nwy", "lon move nwy via convoy", "mun hold",
// "build Army par", "remove rom", "rom disband"). The winter is "Fall
// Adjustment". The file does not name its variant.

// godipBoards are gmd's variants whose godip games gmd can replay: the
// same board, played by the same seasons. (godip's Hundred plays one
// movement every five years; gmd's a Spring and a Fall every year.)
var godipBoards = []string{"ancient-mediterranean", "cold-war", "north-sea-wars", "pure", "youngstown-redux", "standard"}

// GodipBoards returns gmd's names of the boards whose godip games gmd
// reads.
func GodipBoards() []string { return append([]string(nil), godipBoards...) }

// maxGodipLine bounds one line of a godip game file.
const maxGodipLine = 1000

// FromGodip plays a godip game file of variant again with gmd under
// rules (see replay) and returns gmd's document of it, named name. when
// is the time its phases are given as processed: the file has none.
func FromGodip(data []byte, variant, name string, rules judge.Rules, results ResultsFunc, when time.Time) (*Game, error) {
	ok := false
	for _, v := range godipBoards {
		ok = ok || strings.EqualFold(v, variant)
	}
	if !ok {
		return nil, fmt.Errorf("godip games of %q: gmd replays those of %s", variant, strings.Join(godipBoards, ", "))
	}
	m, err := variants.Load(variant)
	if err != nil {
		return nil, err
	}
	src := &sourceGame{engine: "godip", name: name, variant: m.Name, m: m}
	var (
		cur     *godipPhase
		phases  []*godipPhase
		section string
	)
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, maxGodipLine), maxGodipLine)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		switch {
		case text == "":
			continue
		case strings.HasPrefix(text, "PHASE "):
			if len(phases) == maxSourcePhases {
				return nil, fmt.Errorf("line %d: more than %d phases", line, maxSourcePhases)
			}
			cur = &godipPhase{name: strings.TrimPrefix(text, "PHASE "), line: line}
			phases = append(phases, cur)
			section = ""
		case cur == nil:
			return nil, fmt.Errorf("line %d: %q before the first PHASE line: not a godip game file", line, text)
		case text == "POSITIONS" || text == "ORDERS":
			section = text
		case section == "POSITIONS":
			if len(cur.positions) == maxSourceUnits*2 {
				return nil, fmt.Errorf("line %d: more than %d positions in a phase", line, maxSourceUnits*2)
			}
			cur.positions = append(cur.positions, godipLine{line, text})
		case section == "ORDERS":
			if len(cur.orders) == maxSourceOrders {
				return nil, fmt.Errorf("line %d: more than %d orders in a phase", line, maxSourceOrders)
			}
			cur.orders = append(cur.orders, godipLine{line, text})
		default:
			return nil, fmt.Errorf("line %d: %q outside POSITIONS and ORDERS", line, text)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", line+1, err)
	}
	if len(phases) == 0 {
		return nil, fmt.Errorf("no PHASE line: not a godip game file")
	}
	for _, gp := range phases {
		p, err := godipPhaseOf(gp.name)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", gp.line, err)
		}
		sp, err := gp.read(m, p)
		if err != nil {
			return nil, fmt.Errorf("phase %s: %w", gp.name, err)
		}
		sp.when = when
		src.phases = append(src.phases, sp)
	}
	return replay(src, rules, results)
}

// godipLine is one line of a godip file, with its number for messages.
type godipLine struct {
	n    int
	text string
}

// godipPhase is one phase of a godip file, as read.
type godipPhase struct {
	name      string
	line      int
	positions []godipLine
	orders    []godipLine
}

// godipPhaseOf reads "1901 Spring Movement".
func godipPhaseOf(s string) (judge.Phase, error) {
	f := strings.Fields(s)
	if len(f) != 3 {
		return judge.Phase{}, fmt.Errorf("PHASE %q: want a year, a season and a type, like 1901 Spring Movement", s)
	}
	y, err := strconv.Atoi(f[0])
	if err != nil || y < 0 || y > 99999 {
		return judge.Phase{}, fmt.Errorf("PHASE %q: bad year", s)
	}
	p := judge.Phase{Year: y}
	switch f[2] {
	case "Movement":
		p.Type = judge.Movement
	case "Retreat":
		p.Type = judge.Retreat
	case "Adjustment":
		p.Type = judge.Adjustment
	default:
		return judge.Phase{}, fmt.Errorf("PHASE %q: type %q", s, f[2])
	}
	switch {
	case f[1] == "Fall" && p.Type == judge.Adjustment:
		p.Season = judge.Winter
	case f[1] == "Spring" && p.Type != judge.Adjustment:
		p.Season = judge.Spring
	case f[1] == "Fall":
		p.Season = judge.Fall
	default:
		return judge.Phase{}, fmt.Errorf("PHASE %q: season %q: gmd plays Spring and Fall, and adjustments after the Fall", s, f[1])
	}
	return p, nil
}

// godipRenames are godip's names of places that are neither an id nor
// an alias of gmd's, by variant.
var godipRenames = map[string]map[string]string{
	"ancient-mediterranean": {"the": "thb"}, // Thebes
}

// place finds a godip place name on m: a province or a coast ("stp/nc").
func place(m *judge.Map, s string) (judge.Loc, error) {
	if r, ok := godipRenames[m.Name][s]; ok {
		s = r
	}
	if l, ok := m.Lookup(s); ok {
		return l, nil
	}
	if base, coast, ok := strings.Cut(s, "/"); ok {
		if p, ok := m.Lookup(base); ok {
			for _, c := range m.Locs[m.Province(p)].Coasts {
				if m.CoastName(c) == coast {
					return c, nil
				}
			}
		}
	}
	return 0, fmt.Errorf("no place %q on %s", s, m.Name)
}

// read builds the board and orders of gp, of phase p.
func (gp *godipPhase) read(m *judge.Map, p judge.Phase) (sourcePhase, error) {
	sp := sourcePhase{name: gp.name, phase: p}
	pos := judge.NewPosition(m, p)
	var coastless []godipLine
	for _, pl := range gp.positions {
		who, what, ok := strings.Cut(pl.text, ": ")
		f := strings.Fields(what)
		if !ok || len(f) != 2 {
			return sp, fmt.Errorf("line %d: %q: want Power: army|fleet|supply place", pl.n, pl.text)
		}
		pw, ok := m.PowerByName(who)
		if !ok {
			return sp, fmt.Errorf("line %d: no power %q on %s", pl.n, who, m.Name)
		}
		l, err := place(m, f[1])
		if err != nil {
			return sp, fmt.Errorf("line %d: %v", pl.n, err)
		}
		kind, dislodged := strings.CutSuffix(f[0], "/dislodged")
		var t judge.UnitType
		switch kind {
		case "army":
			t = judge.Army
		case "fleet":
			t = judge.Fleet
		case "supply":
			if dislodged || !pos.IsCenter(l) || m.Province(l) != l || pos.Centers[l] != judge.NoPower {
				return sp, fmt.Errorf("line %d: %s is not a supply centre, or has two owners", pl.n, f[1])
			}
			pos.Centers[l] = pw
			continue
		default:
			return sp, fmt.Errorf("line %d: %q: want army, fleet, army/dislodged, fleet/dislodged or supply", pl.n, f[0])
		}
		if t == judge.Army {
			l = m.Province(l) // godip keeps an army that moved to a coast ("pan move col/wc") on it
		}
		u := judge.Unit{Type: t, Power: pw, Loc: l}
		if dislodged && slices.ContainsFunc(pos.Dislodged, func(d judge.DislodgedUnit) bool { return d.Unit == u }) ||
			!dislodged && pos.Units[m.Province(l)] == u {
			continue // godip lists some units twice in an adjustment phase
		}
		if t == judge.Fleet && !dislodged && !m.CanHold(t, l) && len(m.Locs[l].Coasts) > 0 {
			coastless = append(coastless, pl)
			continue
		}
		if dislodged {
			err = addDislodged(pos, u)
		} else {
			err = pos.Place(u)
		}
		if err != nil {
			return sp, fmt.Errorf("line %d: %v", pl.n, err)
		}
	}
	for _, pl := range coastless {
		// godip lists some fleets of an adjustment phase twice, once
		// without their coast: the fleet must be there on a coast.
		who, what, _ := strings.Cut(pl.text, ": ")
		pw, _ := m.PowerByName(who)
		l, _ := place(m, strings.Fields(what)[1])
		if u := pos.Units[l]; u.Type != judge.Fleet || u.Power != pw {
			return sp, fmt.Errorf("line %d: a fleet in %s needs a coast", pl.n, m.FullName(l))
		}
	}
	sp.board = pos
	for _, ol := range gp.orders {
		o, err := godipOrder(pos, ol.text)
		if err != nil {
			return sp, fmt.Errorf("line %d: %q: %v", ol.n, ol.text, err)
		}
		sp.orders = append(sp.orders, o)
		sp.written = append(sp.written, ol.text)
	}
	return sp, nil
}

// godipOrder reads one order of a godip file on the board pos: its power
// is the owner of the unit it names (of the centre, for a build).
func godipOrder(pos *judge.Position, s string) (judge.Order, error) {
	m := pos.Map
	f := strings.Fields(s)
	if len(f) < 2 || len(f) > 5 {
		return judge.Order{}, fmt.Errorf("not an order godip writes")
	}
	places := make([]judge.Loc, len(f))
	at := func(i int) (err error) {
		places[i], err = place(m, f[i])
		return err
	}
	var o judge.Order
	if f[0] == "build" && len(f) == 3 {
		switch f[1] {
		case "Army":
			o.Type = judge.Army
		case "Fleet":
			o.Type = judge.Fleet
		default:
			return o, fmt.Errorf("build %q: want Army or Fleet", f[1])
		}
		if err := at(2); err != nil {
			return o, err
		}
		o.Kind, o.Unit, o.Power = judge.Build, places[2], pos.Centers[m.Province(places[2])]
		if o.Power == judge.NoPower {
			return o, fmt.Errorf("nobody owns %s", f[2])
		}
		return o, nil
	}
	unitArg := 0
	if f[0] == "remove" {
		unitArg = 1
	}
	if err := at(unitArg); err != nil {
		return o, err
	}
	u, ok := unitIn(pos, places[unitArg])
	if !ok {
		return o, fmt.Errorf("no unit in %s", f[unitArg])
	}
	o.Power, o.Type, o.Unit = u.Power, u.Type, u.Loc
	other := func(i int) (judge.UnitType, error) {
		if err := at(i); err != nil {
			return 0, err
		}
		if t, ok := unitIn(pos, places[i]); ok {
			return t.Type, nil
		}
		return judge.NoUnit, nil
	}
	var err error
	switch {
	case f[0] == "remove" && len(f) == 2, len(f) == 2 && f[1] == "disband":
		o.Kind = judge.Remove
		if pos.Phase.Type == judge.Retreat {
			o.Kind = judge.Disband
		}
	case len(f) == 2 && f[1] == "hold":
		o.Kind = judge.Hold
	case f[1] == "move" && (len(f) == 3 || len(f) == 5 && f[3] == "via" && f[4] == "convoy"):
		o.Kind, o.ViaConvoy = judge.Move, len(f) == 5
		err = at(2)
		o.Target = places[2]
		if o.Type == judge.Army {
			o.Target = m.Province(o.Target) // an army goes to the province, whichever coast godip names
		}
	case f[1] == "support" && len(f) == 3:
		o.Kind = judge.SupportHold
		o.TargetType, err = other(2)
		o.Target = places[2]
	case (f[1] == "support" || f[1] == "convoy") && len(f) == 5 && f[3] == "move":
		o.Kind = judge.SupportMove
		if f[1] == "convoy" {
			o.Kind = judge.Convoy
		}
		if o.TargetType, err = other(2); err == nil {
			err = at(4)
		}
		o.Target, o.Dest = places[2], places[4]
	default:
		return o, fmt.Errorf("not an order godip writes")
	}
	return o, err
}

// unitIn finds the unit in l's province: the dislodged one in a retreat
// phase, else the one on the board.
func unitIn(pos *judge.Position, l judge.Loc) (judge.Unit, bool) {
	m := pos.Map
	if pos.Phase.Type == judge.Retreat {
		for _, d := range pos.Dislodged {
			if m.Province(d.Loc) == m.Province(l) {
				return d.Unit, true
			}
		}
	}
	u := pos.Units[m.Province(l)]
	return u, u.Type != judge.NoUnit
}

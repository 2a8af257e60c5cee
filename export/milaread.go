package export

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// UnmarshalMILA reads a MILA saved game: one JSON object, or the first
// line of a .jsonl file of them.
func UnmarshalMILA(data []byte) (*MILA, error) {
	var g MILA
	dec := json.NewDecoder(strings.NewReader(string(data)))
	if err := dec.Decode(&g); err != nil {
		return nil, fmt.Errorf("not a MILA saved game: %w", err)
	}
	if len(g.Phases) == 0 {
		return nil, fmt.Errorf("not a MILA saved game: it has no phases")
	}
	if len(g.Phases) > maxSourcePhases {
		return nil, fmt.Errorf("MILA game has %d phases, more than the %d gmd reads", len(g.Phases), maxSourcePhases)
	}
	return &g, nil
}

// FromMILA plays a MILA saved game again with gmd under rules, from its
// first phase's board (see replay), and returns gmd's document of it,
// named name (the MILA game's id when name is ""); results writes each
// phase's results text. The error names the first phase where MILA and
// gmd disagree. Only the boards and the units' places are compared:
// MILA's result codes are its own words for what gmd says otherwise.
// The GLOBAL messages become the game's broadcasts (SYSTEM's as the
// master's); messages to one power are private and are left out.
func FromMILA(g *MILA, name string, rules judge.Rules, results ResultsFunc) (*Game, error) {
	variant, ok := variantOfMILA(g.Map)
	if !ok {
		names := make([]string, len(milaBoards))
		for i, b := range milaBoards {
			names[i] = b.mila
		}
		return nil, fmt.Errorf("MILA map %q: gmd has no such board (the boards both have: %s)", g.Map, strings.Join(names, ", "))
	}
	for _, r := range g.Rules {
		if r == "BUILD_ANY" {
			return nil, fmt.Errorf("MILA rule BUILD_ANY (builds in any owned centre): gmd builds in home centres on %s", variant)
		}
	}
	m, err := variants.Load(variant)
	if err != nil {
		return nil, err
	}
	if name == "" {
		name = g.ID
	}
	src := &sourceGame{engine: "MILA", name: name, variant: variant, m: m}
	for i := range g.Phases {
		sp, err := milaSourcePhase(m, &g.Phases[i], i == 0)
		if err != nil {
			return nil, fmt.Errorf("phase %s: %w", g.Phases[i].Name, err)
		}
		src.phases = append(src.phases, sp)
		for _, msg := range g.Phases[i].Messages {
			if p, ok := milaPress(m, msg, sp.phase); ok {
				src.press = append(src.press, p)
			}
		}
	}
	return replay(src, rules, results)
}

// milaPress is a GLOBAL message as a broadcast of gmd's.
func milaPress(m *judge.Map, msg MILAMessage, at judge.Phase) (Press, bool) {
	if msg.Recipient != "GLOBAL" {
		return Press{}, false
	}
	from := "Master"
	if msg.Sender != "SYSTEM" {
		p, ok := m.PowerByName(msg.Sender)
		if !ok {
			return Press{}, false
		}
		from = m.PowerName(p)
	}
	phase := at
	if p, err := judge.ParsePhase(msg.Phase); err == nil {
		phase = p
	}
	name := ""
	if phase != (judge.Phase{}) {
		name = phase.String()
	}
	return Press{Phase: name, From: from, Text: msg.Message, Sent: microTime(msg.TimeSent)}, true
}

// milaSourcePhase reads one MILA phase into gmd's terms.
func milaSourcePhase(m *judge.Map, ph *MILAPhase, first bool) (sourcePhase, error) {
	sp := sourcePhase{name: ph.Name}
	if ph.State.Name != "" && ph.State.Name != ph.Name {
		return sp, fmt.Errorf("its state is of phase %q", ph.State.Name)
	}
	switch ph.Name {
	case MILAPhaseCompleted:
	case MILAPhaseForming:
		return sp, fmt.Errorf("a game still forming has no board")
	default:
		p, err := judge.ParsePhase(ph.Name)
		if err != nil {
			return sp, err
		}
		if len(ph.Name) < 6 || p.Year > 99999 {
			return sp, fmt.Errorf("phase %q: MILA writes phases as S1901M", ph.Name)
		}
		sp.phase = p
	}
	sp.when = microTime(ph.State.Timestamp)
	board, err := milaBoard(m, sp.phase, &ph.State)
	if err != nil {
		return sp, err
	}
	sp.board = board
	n := 0
	for _, os := range ph.Orders {
		n += len(os)
	}
	if n > maxSourceOrders {
		return sp, fmt.Errorf("%d orders, more than the %d gmd reads in one phase", n, maxSourceOrders)
	}
	for _, pw := range slices.Sorted(maps.Keys(ph.Orders)) {
		p, ok := m.PowerByName(pw)
		if !ok {
			return sp, fmt.Errorf("orders of %q: no such power on %s", pw, m.Name)
		}
		for _, line := range ph.Orders[pw] {
			o, err := ParseMILAOrder(m, sp.phase.Type, line)
			if err != nil {
				return sp, fmt.Errorf("%s's order %q: %v", m.PowerName(p), line, err)
			}
			o.Power = p
			sp.orders = append(sp.orders, o)
			sp.written = append(sp.written, line)
		}
	}
	return sp, nil
}

// milaBoard builds the board of a MILA state: units (dislodged ones
// starred) and centres, by power.
func milaBoard(m *judge.Map, phase judge.Phase, st *MILAState) (*judge.Position, error) {
	pos := judge.NewPosition(m, phase)
	n := namesOf(m)
	count := 0
	for _, pw := range slices.Sorted(maps.Keys(st.Units)) {
		p, ok := m.PowerByName(pw)
		if !ok {
			if len(st.Units[pw]) == 0 {
				continue // a power MILA's board keeps unplayed
			}
			return nil, fmt.Errorf("units of %q: no such power on %s", pw, m.Name)
		}
		for _, s := range st.Units[pw] {
			if count++; count > maxSourceUnits {
				return nil, fmt.Errorf("more than %d units", maxSourceUnits)
			}
			dislodged := strings.HasPrefix(s, "*")
			t, l, err := milaUnitOf(n, strings.TrimPrefix(s, "*"))
			if err != nil {
				return nil, fmt.Errorf("%s's unit %q: %v", m.PowerName(p), s, err)
			}
			u := judge.Unit{Type: t, Power: p, Loc: l}
			if dislodged {
				err = addDislodged(pos, u)
			} else {
				err = pos.Place(u)
			}
			if err != nil {
				return nil, fmt.Errorf("%s's unit %q: %v", m.PowerName(p), s, err)
			}
		}
	}
	for _, pw := range slices.Sorted(maps.Keys(st.Centers)) {
		p, ok := m.PowerByName(pw)
		if !ok {
			if len(st.Centers[pw]) == 0 {
				continue
			}
			return nil, fmt.Errorf("centres of %q: no such power on %s", pw, m.Name)
		}
		for _, s := range st.Centers[pw] {
			l, ok := n.loc[s]
			if !ok || !pos.IsCenter(l) || m.Province(l) != l {
				return nil, fmt.Errorf("%s's centre %q: no such supply centre on %s", m.PowerName(p), s, m.Name)
			}
			if pos.Centers[l] != judge.NoPower {
				return nil, fmt.Errorf("the centre %s is owned twice", s)
			}
			pos.Centers[l] = p
		}
	}
	return pos, nil
}

// milaUnitOf reads "A PAR" or "F STP/SC".
func milaUnitOf(n *milaNames, s string) (judge.UnitType, judge.Loc, error) {
	t, place, ok := strings.Cut(s, " ")
	if !ok {
		return 0, 0, fmt.Errorf("want a unit type and a place, like A PAR")
	}
	ut, err := milaType(t)
	if err != nil {
		return 0, 0, err
	}
	l, ok := n.loc[place]
	if !ok {
		return 0, 0, fmt.Errorf("no place %s", place)
	}
	return ut, l, nil
}

func milaType(s string) (judge.UnitType, error) {
	switch s {
	case "A":
		return judge.Army, nil
	case "F":
		return judge.Fleet, nil
	}
	return 0, fmt.Errorf("unit type %q: want A or F", s)
}

// ParseMILAOrder reads one order in MILA's words (see milaOrder) for a
// phase of type t, without its power. It is strict: MILA writes its
// orders in one form, and anything else is refused with the reason.
func ParseMILAOrder(m *judge.Map, t judge.PhaseType, line string) (judge.Order, error) {
	n := namesOf(m)
	w := strings.Fields(line)
	if len(w) > 8 {
		return judge.Order{}, fmt.Errorf("too many words for an order")
	}
	if len(w) == 1 && w[0] == "WAIVE" {
		if t != judge.Adjustment {
			return judge.Order{}, fmt.Errorf("WAIVE is an adjustment order")
		}
		return judge.Order{Kind: judge.Waive}, nil
	}
	if len(w) < 3 {
		return judge.Order{}, fmt.Errorf("want a unit, an order letter and its places, like A PAR - BUR")
	}
	unit := func(i int) (judge.UnitType, judge.Loc, error) {
		return milaUnitOf(n, w[i]+" "+w[i+1])
	}
	place := func(s string) (judge.Loc, error) {
		l, ok := n.loc[s]
		if !ok {
			return 0, fmt.Errorf("no place %s", s)
		}
		return l, nil
	}
	ut, at, err := unit(0)
	if err != nil {
		return judge.Order{}, err
	}
	o := judge.Order{Type: ut, Unit: at}
	rest := w[2:]
	want := func(kinds ...judge.PhaseType) error {
		if !slices.Contains(kinds, t) {
			return fmt.Errorf("%s is not an order of a %s phase", rest[0], strings.ToLower(t.String()))
		}
		return nil
	}
	switch {
	case rest[0] == "H" && len(rest) == 1:
		o.Kind, err = judge.Hold, want(judge.Movement)
	case rest[0] == "-" && (len(rest) == 2 || len(rest) == 3 && rest[2] == "VIA"):
		o.Kind = judge.Move
		o.ViaConvoy = len(rest) == 3
		if err = want(judge.Movement); err == nil {
			o.Target, err = place(rest[1])
		}
	case rest[0] == "R" && len(rest) == 2:
		o.Kind = judge.Move
		if err = want(judge.Retreat); err == nil {
			o.Target, err = place(rest[1])
		}
	case (rest[0] == "S" || rest[0] == "C") && len(rest) >= 3:
		if err = want(judge.Movement); err != nil {
			break
		}
		if o.TargetType, o.Target, err = unit(3); err != nil {
			break
		}
		switch {
		case len(rest) == 3 && rest[0] == "S", len(rest) == 4 && rest[0] == "S" && rest[3] == "H":
			o.Kind = judge.SupportHold
		case len(rest) == 5 && rest[3] == "-":
			o.Kind = judge.SupportMove
			if rest[0] == "C" {
				o.Kind = judge.Convoy
			}
			o.Dest, err = place(rest[4])
		default:
			err = fmt.Errorf("want %s A PAR - BUR", rest[0])
		}
	case rest[0] == "D" && len(rest) == 1:
		o.Kind = judge.Disband
		if t == judge.Adjustment {
			o.Kind = judge.Remove
		}
		err = want(judge.Retreat, judge.Adjustment)
	case rest[0] == "B" && len(rest) == 1:
		o.Kind, err = judge.Build, want(judge.Adjustment)
	default:
		err = fmt.Errorf("not an order MILA writes")
	}
	if err != nil {
		return judge.Order{}, err
	}
	return o, nil
}

// microTime reads MILA's microseconds since 1970, as a time in UTC; a
// time before 1970 or after 9999, which no game was played at (and JSON
// cannot write), is taken as no time at all.
func microTime(us int64) time.Time {
	const limit = 253402300799999999 // 9999-12-31T23:59:59.999999Z
	if us <= 0 || us > limit {
		return time.Time{}
	}
	return time.UnixMicro(us).UTC()
}

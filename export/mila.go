package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/state"
)

// MILA is a game in the saved-game format of MILA's `diplomacy` Python
// package (diplomacy.utils.export.to_saved_game_format), which the
// Diplomacy research tools and their datasets of no-press games read:
// one object with the game's id, map and rules and every phase, the last
// being the phase the game stopped at (COMPLETED for a finished game).
type MILA struct {
	ID     string      `json:"id"`
	Map    string      `json:"map"`
	Rules  []string    `json:"rules"`
	Phases []MILAPhase `json:"phases"`
}

// MILAPhase is one phase: its name ("S1901M"), the board at its start,
// the orders of each power (null for a power that gave none) and what
// became of each unit's order, keyed by unit ("A PAR": ["bounce"]).
type MILAPhase struct {
	Name     string              `json:"name"`
	State    MILAState           `json:"state"`
	Orders   map[string][]string `json:"orders"`
	Results  map[string][]string `json:"results"`
	Messages []MILAMessage       `json:"messages"`
}

// MILAState is the board at the start of a phase, by power. A dislodged
// unit is in Units with a star ("*A PAR") and in Retreats with the
// places it may retreat to. Influence is the provinces where the power's
// unit stood last. MILA's zobrist_hash is not written: it depends on
// MILA's own random tables.
type MILAState struct {
	Timestamp     int64                          `json:"timestamp,omitempty"`
	Note          string                         `json:"note"`
	Name          string                         `json:"name"`
	Units         map[string][]string            `json:"units"`
	Retreats      map[string]map[string][]string `json:"retreats"`
	Centers       map[string][]string            `json:"centers"`
	Homes         map[string][]string            `json:"homes"`
	Influence     map[string][]string            `json:"influence"`
	CivilDisorder map[string]int                 `json:"civil_disorder"`
	Builds        map[string]MILABuilds          `json:"builds"`
	GameID        string                         `json:"game_id"`
	Map           string                         `json:"map"`
	Rules         []string                       `json:"rules"`
}

// MILABuilds is a power's adjustment: the builds (negative: removals) it
// has and where it may build.
type MILABuilds struct {
	Count int      `json:"count"`
	Homes []string `json:"homes"`
}

// MILAMessage is one press message. Sender is a power or SYSTEM,
// Recipient a power or GLOBAL (to all); TimeSent is in microseconds
// since 1970.
type MILAMessage struct {
	Sender    string `json:"sender"`
	Recipient string `json:"recipient"`
	TimeSent  int64  `json:"time_sent"`
	Phase     string `json:"phase"`
	Message   string `json:"message"`
}

// milaBoards are the boards MILA and gmd both have: gmd's variant name
// and MILA's map name. Their provinces, coasts, adjacencies and starting
// units are the same, and MILA's names of places are gmd's in capitals
// but for those in milaRenames.
var milaBoards = [...]struct{ variant, mila string }{
	{"standard", "standard"},
	{"pure", "pure"},
	{"ancient-mediterranean", "ancmed"},
	{"fleet-rome", "standard_fleet_rome"},
	{"france-austria", "standard_france_austria"},
	{"italy-germany", "standard_germany_italy"},
}

// milaRenames are the places MILA names otherwise than gmd's id in
// capitals: gmd's gol (Gulf of Lyon) is MILA's LYO.
var milaRenames = map[string]string{"gol": "LYO"}

// MILABoards returns gmd's names of the boards MILA has too.
func MILABoards() []string {
	out := make([]string, len(milaBoards))
	for i, b := range milaBoards {
		out[i] = b.variant
	}
	return out
}

// milaMapOf returns MILA's name of gmd's variant, or "" when MILA has no
// such board.
func milaMapOf(variant string) string {
	for _, b := range milaBoards {
		if strings.EqualFold(b.variant, variant) {
			return b.mila
		}
	}
	return ""
}

// variantOfMILA returns gmd's variant of MILA's map name.
func variantOfMILA(name string) (string, bool) {
	for _, b := range milaBoards {
		if b.mila == name {
			return b.variant, true
		}
	}
	return "", false
}

// milaNames are one board's names of places as MILA writes them.
type milaNames struct {
	name []string             // by Loc
	loc  map[string]judge.Loc // MILA's name to Loc
}

var milaNameCache sync.Map // *judge.Map → *milaNames

func namesOf(m *judge.Map) *milaNames {
	if n, ok := milaNameCache.Load(m); ok {
		return n.(*milaNames)
	}
	n := &milaNames{name: make([]string, len(m.Locs)), loc: make(map[string]judge.Loc, len(m.Locs))}
	for l := range m.Locs {
		s, ok := milaRenames[m.Locs[l].Name]
		if !ok {
			s = strings.ToUpper(m.Locs[l].Name)
		}
		n.name[l], n.loc[s] = s, judge.Loc(l)
	}
	v, _ := milaNameCache.LoadOrStore(m, n)
	return v.(*milaNames)
}

// milaPhaseName writes a phase as MILA does: the year in four digits at
// least ("S0001M" on a board that starts in year 1).
func milaPhaseName(p judge.Phase) string {
	s := p.String()
	return fmt.Sprintf("%c%04d%c", s[0], p.Year, s[len(s)-1])
}

// MILAPhaseCompleted and MILAPhaseForming are MILA's names of the phase
// after a game's end and before its start.
const (
	MILAPhaseCompleted = "COMPLETED"
	MILAPhaseForming   = "FORMING"
)

// ToMILA converts a gmd game document (one that Check accepts) to MILA's
// saved-game format: each phase's board, its orders in MILA's words,
// what became of each order in MILA's result codes, and the broadcast
// press as GLOBAL messages (a power's under its name, the master's as
// SYSTEM; grey and observers' press is left out, as MILA has no sender
// for it). Only the boards MILA has (MILABoards) convert.
func ToMILA(doc *Game) (*MILA, error) {
	mapName := milaMapOf(doc.Variant)
	if mapName == "" {
		return nil, fmt.Errorf("MILA's package has no %s board (it has %s)", doc.Variant, strings.Join(MILABoards(), ", "))
	}
	if len(doc.Phases) == 0 {
		return nil, fmt.Errorf("game %s has no phases", doc.Name)
	}
	out := &MILA{ID: doc.Name, Map: mapName, Rules: []string{}}
	var inf *influence
	var prev *judge.Resolution
	for i := range doc.Phases {
		ph := &doc.Phases[i]
		pos, rules, err := jsonpos.DecodePosition(ph.Position)
		if err != nil {
			return nil, fmt.Errorf("phase %s: position: %w", ph.Phase, err)
		}
		if inf == nil {
			inf = newInfluence(pos)
		}
		orders, err := readOrders(pos, ph.Orders)
		if err != nil {
			return nil, fmt.Errorf("phase %s: %w", ph.Phase, err)
		}
		res := judge.Adjudicate(pos, orders, rules)
		mp := MILAPhase{Name: milaPhaseName(pos.Phase), Orders: map[string][]string{}, Results: map[string][]string{}, Messages: []MILAMessage{}}
		mp.State = milaState(out, pos, prev, inf, ph.Processed)
		for _, pw := range pos.Map.Powers {
			mp.Orders[strings.ToUpper(pw.Name)] = []string{}
		}
		for _, r := range res.Results {
			unit, ok := actualUnit(pos, r.Order)
			if !r.Default {
				pw := strings.ToUpper(pos.Map.PowerName(r.Order.Power))
				mp.Orders[pw] = append(mp.Orders[pw], milaOrder(pos, r.Order))
			}
			if ok && r.Order.Kind != judge.Waive {
				mp.Results[milaUnit(pos.Map, unit, false)] = milaResult(pos.Phase.Type, r)
			}
		}
		out.Phases = append(out.Phases, mp)
		inf.update(res.Next)
		prev = res
	}
	final, _, err := jsonpos.DecodePosition(doc.Final)
	if err != nil {
		return nil, fmt.Errorf("the final position: %w", err)
	}
	last := MILAPhase{Name: milaPhaseName(final.Phase), Orders: map[string][]string{}, Results: map[string][]string{}, Messages: []MILAMessage{}}
	if doc.Status == string(state.Finished) {
		last.Name = MILAPhaseCompleted
	}
	last.State = milaState(out, final, prev, inf, doc.Phases[len(doc.Phases)-1].Processed)
	last.State.Name = last.Name
	out.Phases = append(out.Phases, last)
	for _, p := range doc.Press {
		msg, ok := milaMessage(doc.Variant, p)
		if !ok {
			continue
		}
		at := len(out.Phases) - 1
		for j, ph := range doc.Phases {
			if ph.Phase == p.Phase {
				at = j
				break
			}
		}
		out.Phases[at].Messages = append(out.Phases[at].Messages, msg)
	}
	return out, nil
}

// milaMessage is broadcast p as MILA's GLOBAL message, when MILA has a
// sender for it: a power, or SYSTEM for the master.
func milaMessage(variant string, p Press) (MILAMessage, bool) {
	m, err := variants.Load(variant)
	if err != nil || p.Grey {
		return MILAMessage{}, false
	}
	sender := "SYSTEM"
	if pw, ok := m.PowerByName(p.From); ok {
		sender = strings.ToUpper(m.PowerName(pw))
	} else if p.From != "Master" {
		return MILAMessage{}, false
	}
	phase := p.Phase
	if ph, err := judge.ParsePhase(p.Phase); err == nil {
		phase = milaPhaseName(ph)
	}
	return MILAMessage{Sender: sender, Recipient: "GLOBAL", TimeSent: p.Sent.UnixMicro(), Phase: phase, Message: p.Text}, true
}

// milaState is pos in MILA's terms; prev is the adjudication that led to
// it (for a retreat phase's options), inf the influence tracked so far.
func milaState(g *MILA, pos *judge.Position, prev *judge.Resolution, inf *influence, at time.Time) MILAState {
	m := pos.Map
	n := namesOf(m)
	st := MILAState{
		Name: milaPhaseName(pos.Phase), GameID: g.ID, Map: g.Map, Rules: []string{},
		Units: map[string][]string{}, Retreats: map[string]map[string][]string{}, Centers: map[string][]string{},
		Homes: map[string][]string{}, Influence: map[string][]string{}, CivilDisorder: map[string]int{},
		Builds: map[string]MILABuilds{},
	}
	if !at.IsZero() {
		st.Timestamp = at.UnixMicro()
	}
	units, centres := pos.UnitCount(), pos.CenterCount()
	for p, pw := range m.Powers {
		key := strings.ToUpper(pw.Name)
		st.Units[key], st.Centers[key], st.Homes[key] = []string{}, []string{}, []string{}
		st.Retreats[key] = map[string][]string{}
		st.CivilDisorder[key] = 0
		st.Influence[key] = slices.Clone(inf.of(judge.Power(p)))
		b := MILABuilds{Homes: []string{}}
		if pos.Phase.Type == judge.Adjustment {
			b.Count = centres[p] - units[p]
		}
		for _, c := range m.HomeCenters(nil, judge.Power(p)) {
			st.Homes[key] = append(st.Homes[key], n.name[c])
			if b.Count > 0 && pos.Centers[c] == judge.Power(p) && pos.Units[c].Type == judge.NoUnit {
				b.Homes = append(b.Homes, n.name[c])
			}
		}
		if b.Count > 0 {
			b.Count = min(b.Count, len(b.Homes)) // MILA caps builds by the free home centres
		}
		st.Builds[key] = b
	}
	for _, l := range m.Provinces() {
		if u := pos.Units[l]; u.Type != judge.NoUnit {
			key := strings.ToUpper(m.PowerName(u.Power))
			st.Units[key] = append(st.Units[key], milaUnit(m, u, false))
		}
	}
	for _, d := range pos.Dislodged {
		key := strings.ToUpper(m.PowerName(d.Power))
		st.Units[key] = append(st.Units[key], milaUnit(m, d.Unit, true))
		to := []string{}
		if prev != nil {
			for _, r := range prev.Retreats {
				if r.Unit.Unit == d.Unit {
					for _, l := range r.To {
						to = append(to, n.name[l])
					}
				}
			}
		}
		st.Retreats[key][milaUnit(m, d.Unit, false)] = to
	}
	for _, c := range pos.CenterList() {
		if p := pos.Centers[c]; p != judge.NoPower {
			key := strings.ToUpper(m.PowerName(p))
			st.Centers[key] = append(st.Centers[key], n.name[c])
		}
	}
	return st
}

// milaUnit writes a unit as MILA does: "A PAR", "F STP/SC", with a star
// for a dislodged one.
func milaUnit(m *judge.Map, u judge.Unit, dislodged bool) string {
	s := u.Type.String() + " " + namesOf(m).name[u.Loc]
	if dislodged {
		return "*" + s
	}
	return s
}

// actualUnit finds the unit o orders in pos: on the board, or dislodged
// in a retreat phase. Builds name the unit they make.
func actualUnit(pos *judge.Position, o judge.Order) (judge.Unit, bool) {
	m := pos.Map
	switch o.Kind {
	case judge.Build:
		return judge.Unit{Type: o.Type, Power: o.Power, Loc: o.Unit}, o.Type != judge.NoUnit
	case judge.Waive, judge.Construct:
		return judge.Unit{}, false
	}
	if pos.Phase.Type == judge.Retreat {
		for _, d := range pos.Dislodged {
			if m.Province(d.Loc) == m.Province(o.Unit) {
				return d.Unit, true
			}
		}
		return judge.Unit{}, false
	}
	u := pos.Units[m.Province(o.Unit)]
	return u, u.Type != judge.NoUnit
}

// typeAt is the type of the unit standing at l in pos (or dislodged
// from there in a retreat phase), or t when t is given.
func typeAt(pos *judge.Position, l judge.Loc, t judge.UnitType) judge.UnitType {
	if t != judge.NoUnit || int(l) >= len(pos.Map.Locs) {
		return t
	}
	return pos.Units[pos.Map.Province(l)].Type
}

// milaOrder writes o as MILA writes orders: "A PAR - BUR", "F NTH C A
// LON - NWY", "A MUN S A BER", "A LON - NWY VIA", retreats "A PAR R BUR"
// and "A PAR D", builds "F STP/NC B", removals "A PAR D", "WAIVE". An
// explicit convoy route is written as VIA: MILA's orders have no route.
func milaOrder(pos *judge.Position, o judge.Order) string {
	m := pos.Map
	n := namesOf(m)
	unit := func(t judge.UnitType, l judge.Loc) string {
		if int(l) >= len(n.name) {
			return "? ?"
		}
		return typeAt(pos, l, t).String() + " " + n.name[l]
	}
	self := unit(o.Type, o.Unit)
	if u, ok := actualUnit(pos, o); ok && o.Kind != judge.Build {
		self = milaUnit(m, u, false)
	}
	name := func(l judge.Loc) string {
		if int(l) >= len(n.name) {
			return "?"
		}
		return n.name[l]
	}
	switch o.Kind {
	case judge.Hold:
		return self + " H"
	case judge.Move:
		if pos.Phase.Type == judge.Retreat {
			return self + " R " + name(o.Target)
		}
		s := self + " - " + name(o.Target)
		if o.ViaConvoy || len(o.Route) > 0 {
			s += " VIA"
		}
		return s
	case judge.SupportHold:
		return self + " S " + unit(o.TargetType, o.Target)
	case judge.SupportMove:
		return self + " S " + unit(o.TargetType, o.Target) + " - " + name(o.Dest)
	case judge.Convoy:
		return self + " C " + unit(o.TargetType, o.Target) + " - " + name(o.Dest)
	case judge.Disband, judge.Remove:
		return self + " D"
	case judge.Build:
		return self + " B"
	case judge.Waive:
		return "WAIVE"
	}
	return self + " ?"
}

// milaResult is what became of an order in MILA's result codes: no code
// for a movement or retreat order that succeeded, "" (MILA's OK) for an
// adjustment carried out, "bounce", "cut", "dislodged", "void", "no
// convoy", "disrupted", and "disband" for a unit that left the board in
// a retreat phase or by civil disorder.
func milaResult(t judge.PhaseType, r judge.OrderResult) []string {
	code := func(o judge.Outcome) string {
		switch o {
		case judge.Bounced:
			return "bounce"
		case judge.Cut:
			return "cut"
		case judge.Void, judge.NoSupport:
			return "void"
		case judge.NoConvoy:
			return "no convoy"
		case judge.Disrupted:
			return "disrupted"
		case judge.Disbanded:
			return "disband"
		}
		return ""
	}
	switch {
	case r.Dislodged:
		if c := code(r.Failed); c != "" {
			return []string{c, "dislodged"}
		}
		return []string{"dislodged"}
	case t == judge.Adjustment && r.Default && r.Outcome == judge.Removed:
		return []string{"disband"}
	case t == judge.Adjustment && r.Outcome == judge.Void:
		return []string{"void"}
	case t == judge.Adjustment:
		return []string{""}
	case t == judge.Retreat && r.Outcome == judge.Bounced:
		return []string{"bounce", "disband"}
	}
	if c := code(r.Outcome); c != "" {
		return []string{c}
	}
	return []string{}
}

// influence tracks MILA's influence: each province belongs to the power
// whose unit stood there last.
type influence struct {
	m     *judge.Map
	owner []judge.Power // by province
	order [][]judge.Loc // by power, in the order gained
}

func newInfluence(pos *judge.Position) *influence {
	inf := &influence{m: pos.Map, owner: make([]judge.Power, len(pos.Map.Locs)), order: make([][]judge.Loc, len(pos.Map.Powers))}
	for i := range inf.owner {
		inf.owner[i] = judge.NoPower
	}
	inf.update(pos)
	return inf
}

// update gives each province with a unit in pos to the unit's power.
func (inf *influence) update(pos *judge.Position) {
	if pos == nil {
		return
	}
	for _, l := range inf.m.Provinces() {
		u := pos.Units[l]
		if u.Type == judge.NoUnit || u.Power == judge.NoPower || inf.owner[l] == u.Power {
			continue // a neutral unit (judge.Unit.Neutral) gains no power influence
		}
		if old := inf.owner[l]; old != judge.NoPower {
			inf.order[old] = slices.DeleteFunc(inf.order[old], func(x judge.Loc) bool { return x == l })
		}
		inf.owner[l] = u.Power
		inf.order[u.Power] = append(inf.order[u.Power], l)
	}
}

// of returns MILA's names of the provinces p holds influence in.
func (inf *influence) of(p judge.Power) []string {
	n := namesOf(inf.m)
	out := make([]string, 0, len(inf.order[p]))
	for _, l := range inf.order[p] {
		out = append(out, n.name[l])
	}
	return out
}

// MarshalMILA writes g as one line of JSON, as MILA's exporter writes
// each game of a .jsonl file.
func MarshalMILA(g *MILA) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(g); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

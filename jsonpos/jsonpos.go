// Package jsonpos is the JSON contract of "gmd adjudicate": positions and
// phase results as outside programs and test suites read and write them.
// DESIGN.md §9 describes the contract; this package is its one
// implementation, shared by the command and anything else that speaks it.
//
// It is also the storage format of positions: every game record and
// history record in the database holds a position as EncodePosition wrote
// it. A change to the contract is therefore a storage migration: records
// already stored must still read. TestStoredForm pins the stored form,
// byte for byte, for the start of every board and every form of position.
//
// A position:
//
//	{"variant": "standard", "rules": "datc-3.0", "phase": "F1901M",
//	 "units":     [{"power": "England", "type": "F", "at": "nth"}],
//	 "dislodged": [{"power": "Italy", "type": "A", "at": "tri", "attacker_from": "vie"}],
//	 "bounced":   ["gal"],
//	 "centers":   {"lon": "England", "edi": "England"},
//	 "built_centers": [],
//	 "pending_centers": [{"power": "England", "at": "yor", "ordered": "W1901A"}]}
//
// "built_centers" and "pending_centers" belong to variants with
// supply-centre construction ("34, 35, 36"): the provinces that became
// centres during the game (a built centre may then be owned in "centers"
// like any other), and the constructions ordered in the last Winter. A
// spoiled construction (another power ordered a unit into the province)
// says by whom and when: {"power": "Russia", "at": "lvn", "ordered":
// "W1901A", "spoiled_by": "Germany", "spoiled_in": "F1902M"}. A
// construction ordered in Winter Y is pending in the Spring and Fall of
// Y+1 only: it is built or given up as that Fall ends.
//
// The Winter position after that Fall lists those constructions once more,
// in the optional field "ended_constructions" (after "pending_centers",
// entries as there): each was built unless it has "spoiled_by", and a
// built one is in "built_centers". The adjudicator does not need it; the
// Winter's results report it. It is accepted in a Winter adjustment
// position only, and written only when not empty, so every other position
// reads as it did before the field existed.
//
// The optional field "builds" ("home", "one" or "any", after "rules")
// overrides the variant's build rule (njudge's HOME, ONE and ANY CENTRES,
// a game's SET BUILD); it is written only when set.
//
// On input, "variant" defaults to "standard" and "rules" to "datc-3.0";
// "phase" is required; every list may be absent or null. Places may be
// written with any name or alias the order parser accepts ("mao", "mid",
// "Mid-Atlantic Ocean", "stp/nc", "St. Petersburg (north coast)"); powers
// by name, adjective or letter, in any case; unit types as "A", "F",
// "Army" or "Fleet". Unknown fields, fields given twice, and dislodged
// units or bounces outside a retreat phase are errors, and every error
// names the field it is about: `units[3].at: unknown province "xyz"`.
//
// A neutral unit (one that belongs to no power, judge.Unit.Neutral) is
// written with the power "Neutral", which no power may be called, in
// "units" and in a result's rulings; it is never among the "dislodged",
// since it is destroyed instead of retreating. Positions without one are
// written as before.
//
// On output, places are the map's canonical short names (coasts included,
// as "stp/sc"), powers their names, types "A" or "F". Every field is
// always present: lists with nothing in them are [] (never null or
// absent) and "centers" is {} when no centre is owned, so readers need no
// special cases. The exceptions: "attacker_from" is left out when the
// dislodging attack came by convoy (the unit may then retreat to the
// attacker's province); so are "spoiled_by" and "spoiled_in" for a
// construction that is not spoiled, and "ended_constructions" when there
// are none. Units are listed in the map's place order, dislodged units,
// bounces and built centres in place order too, the centre object lists
// every owned centre, keys sorted, and pending and ended constructions
// come in the order they were ordered.
//
// A result is {"orders": [...], "next": <position>}: one entry per ruling,
// in the adjudicator's order, each {"power", "unit", "order", "result"}.
package jsonpos

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/parser"
)

// rawUnit is a unit as written, before names are resolved.
type rawUnit struct {
	power, typ, at, attackerFrom []byte
}

// rawCenter is one entry of the "centers" object.
type rawCenter struct {
	at, power []byte
}

// rawPending is one entry of "pending_centers".
type rawPending struct {
	power, at, ordered, spoiledBy, spoiledIn []byte
}

// rawPosition is a position as written. Its byte slices alias the input
// (see reader.rawString), so it is converted before the input goes away.
type rawPosition struct {
	variant, rules, phase []byte
	builds                []byte
	units, dislodged      []rawUnit
	bounced               [][]byte
	centers               []rawCenter
	built                 [][]byte
	pending, ended        []rawPending
}

// reset empties p but keeps its slices' storage for the next position.
func (p *rawPosition) reset() {
	*p = rawPosition{units: p.units[:0], dislodged: p.dislodged[:0], bounced: p.bounced[:0],
		centers: p.centers[:0], built: p.built[:0], pending: p.pending[:0], ended: p.ended[:0]}
}

// A Decoder reads positions in the contract's form. It keeps its buffers
// from one call to the next, so that one Decoder reading many positions (as
// gmd adjudicate -batch does) allocates little. The zero value is ready to
// use; a Decoder is not safe for concurrent use.
type Decoder struct {
	raw     rawPosition
	scratch []byte // the unescaped orders of a batch line
	// load finds a variant's map; nil means variants.Load. Tests set it to
	// play on small maps of their own.
	load func(name string) (*judge.Map, error)
}

// DecodePosition reads one position and the rule set it names.
func DecodePosition(data []byte) (*judge.Position, judge.Rules, error) {
	var d Decoder
	return d.Position(data)
}

// DecodeRequest reads one line of gmd adjudicate -batch:
// {"position": {...}, "orders": "England: F Lon - Nth\n..."}. It returns the
// position, its rules and the orders text; both fields are required.
func DecodeRequest(data []byte) (*judge.Position, judge.Rules, string, error) {
	var d Decoder
	return d.Request(data)
}

// Position reads one position, like DecodePosition.
func (d *Decoder) Position(data []byte) (*judge.Position, judge.Rules, error) {
	d.raw.reset()
	r := reader{data: data}
	if err := d.raw.read(&r); err != nil {
		return nil, judge.Rules{}, err
	}
	if err := r.end(); err != nil {
		return nil, judge.Rules{}, err
	}
	return d.convert()
}

// Request reads one batch line, like DecodeRequest.
func (d *Decoder) Request(data []byte) (*judge.Position, judge.Rules, string, error) {
	d.raw.reset()
	r := reader{data: data}
	var orders []byte
	var seen fieldSet
	err := r.object(func(key []byte) error {
		switch string(key) {
		case "position":
			if err := seen.add(0); err != nil {
				return in("position", err)
			}
			if r.peek() != '{' {
				return in("position", r.typeError("an object"))
			}
			// Errors inside the position name their fields as in a
			// position file ("units[2].at"), not "position.units[2].at":
			// the batch line is only an envelope.
			return d.raw.read(&r)
		case "orders":
			if r.peek() != '"' {
				return in("orders", r.typeError("a string"))
			}
			if err := seen.add(1); err != nil {
				return in("orders", err)
			}
			var err error
			orders, err = r.rawStringTo(&d.scratch)
			return err
		}
		return errorf("unknown field %q (want \"position\" and \"orders\")", key)
	})
	if err == nil {
		err = r.end()
	}
	if err != nil {
		return nil, judge.Rules{}, "", err
	}
	if seen&1 == 0 {
		return nil, judge.Rules{}, "", errorf("position: missing")
	}
	if seen&2 == 0 {
		return nil, judge.Rules{}, "", errorf("orders: missing")
	}
	pos, rules, err := d.convert()
	if err != nil {
		return nil, judge.Rules{}, "", err
	}
	return pos, rules, string(orders), nil
}

// read reads the position object at r into p.
func (p *rawPosition) read(r *reader) error {
	var seen fieldSet
	return r.object(func(key []byte) error {
		var err error
		switch string(key) {
		case "variant":
			p.variant, err = seen.str(0, r)
		case "rules":
			p.rules, err = seen.str(1, r)
		case "builds":
			p.builds, err = seen.str(10, r)
		case "phase":
			p.phase, err = seen.str(2, r)
		case "units":
			if err = seen.add(3); err == nil {
				p.units, err = readUnits(r, p.units, false)
			}
		case "dislodged":
			if err = seen.add(4); err == nil {
				p.dislodged, err = readUnits(r, p.dislodged, true)
			}
		case "bounced":
			if err = seen.add(5); err != nil {
				return in("bounced", err)
			}
			p.bounced, err = readStrings(r, p.bounced)
		case "centers":
			if err = seen.add(6); err == nil {
				err = p.readCenters(r)
			}
		case "pending_centers":
			if err = seen.add(7); err != nil {
				return in("pending_centers", err)
			}
			p.pending, err = readPending(r, p.pending)
		case "built_centers":
			if err = seen.add(8); err != nil {
				return in("built_centers", err)
			}
			p.built, err = readStrings(r, p.built)
		case "ended_constructions":
			if err = seen.add(9); err != nil {
				return in("ended_constructions", err)
			}
			p.ended, err = readPending(r, p.ended)
		default:
			return errorf("unknown field %q", key)
		}
		if err != nil {
			return in(string(key), err)
		}
		return nil
	})
}

// readPending reads "pending_centers" or "ended_constructions", whose
// entries have the same fields, appending to dst.
func readPending(r *reader, dst []rawPending) ([]rawPending, error) {
	err := r.array(func(i int) error {
		var pc rawPending
		var seen fieldSet
		err := r.object(func(key []byte) error {
			var err error
			switch string(key) {
			case "power":
				pc.power, err = seen.str(0, r)
			case "at":
				pc.at, err = seen.str(1, r)
			case "ordered":
				pc.ordered, err = seen.str(2, r)
			case "spoiled_by":
				pc.spoiledBy, err = seen.str(3, r)
			case "spoiled_in":
				pc.spoiledIn, err = seen.str(4, r)
			default:
				return errorf("unknown field %q", key)
			}
			if err != nil {
				return in(string(key), err)
			}
			return nil
		})
		if err != nil {
			return in(index(i), err)
		}
		dst = append(dst, pc)
		return nil
	})
	return dst, err
}

// readStrings reads an array of strings, appending to dst.
func readStrings(r *reader, dst [][]byte) ([][]byte, error) {
	err := r.array(func(i int) error {
		s, err := r.str()
		if err != nil {
			return in(index(i), err)
		}
		dst = append(dst, s)
		return nil
	})
	return dst, err
}

func (p *rawPosition) readCenters(r *reader) error {
	if ok, err := r.null(); ok || err != nil {
		return err
	}
	return r.object(func(key []byte) error {
		s, err := r.str()
		if err != nil {
			return in(quoteKey(key), err)
		}
		p.centers = append(p.centers, rawCenter{at: key, power: s})
		return nil
	})
}

// readUnits reads "units" or "dislodged" (which may also give
// "attacker_from"), appending to dst.
func readUnits(r *reader, dst []rawUnit, dislodged bool) ([]rawUnit, error) {
	err := r.array(func(i int) error {
		var u rawUnit
		var seen fieldSet
		err := r.object(func(key []byte) error {
			var err error
			switch string(key) {
			case "power":
				u.power, err = seen.str(0, r)
			case "type":
				u.typ, err = seen.str(1, r)
			case "at":
				u.at, err = seen.str(2, r)
			case "attacker_from":
				if !dislodged {
					return errorf("unknown field %q (only dislodged units have it)", key)
				}
				u.attackerFrom, err = seen.str(3, r)
			default:
				return errorf("unknown field %q", key)
			}
			if err != nil {
				return in(string(key), err)
			}
			return nil
		})
		if err != nil {
			return in(index(i), err)
		}
		dst = append(dst, u)
		return nil
	})
	return dst, err
}

func index(i int) string { return "[" + strconv.Itoa(i) + "]" }

// quoteKey writes a centre's key as a path element: centers["St Petersburg"].
func quoteKey(key []byte) string { return "[" + strconv.Quote(string(key)) + "]" }

// maps caches the variants' maps by the name a position gives, so that a
// batch of thousands of positions does not look the variant up each time.
var maps sync.Map // string → *judge.Map

func (d *Decoder) loadMap(name string) (*judge.Map, error) {
	if d.load != nil {
		return d.load(name)
	}
	if m, ok := maps.Load(name); ok {
		return m.(*judge.Map), nil
	}
	m, err := variants.Load(name)
	if err != nil {
		return nil, err
	}
	maps.Store(name, m)
	return m, nil
}

// convert resolves the names of d.raw into a position.
func (d *Decoder) convert() (*judge.Position, judge.Rules, error) {
	p := &d.raw
	variant := "standard"
	if len(p.variant) > 0 {
		variant = string(p.variant)
	}
	m, err := d.loadMap(variant)
	if err != nil {
		return nil, judge.Rules{}, &fieldError{"variant", err.Error()}
	}
	rules, err := judge.RulesByName(string(p.rules))
	if err != nil {
		return nil, judge.Rules{}, &fieldError{"rules", err.Error()}
	}
	if len(p.builds) > 0 {
		if rules.Builds, err = judge.ParseBuildRule(string(p.builds)); err != nil {
			return nil, judge.Rules{}, &fieldError{"builds", err.Error()}
		}
	}
	if len(p.phase) == 0 {
		return nil, judge.Rules{}, &fieldError{"phase", "missing (want a phase like S1901M)"}
	}
	phase, err := judge.ParsePhase(string(p.phase))
	if err != nil {
		return nil, judge.Rules{}, &fieldError{"phase", phaseMsg(err)}
	}
	pos := judge.NewPosition(m, phase)
	if err := convertUnits(pos, p.units); err != nil {
		return nil, judge.Rules{}, err
	}
	if phase.Type != judge.Retreat {
		if len(p.dislodged) > 0 {
			return nil, judge.Rules{}, &fieldError{"dislodged", "only a retreat phase has dislodged units"}
		}
		if len(p.bounced) > 0 {
			return nil, judge.Rules{}, &fieldError{"bounced", "only a retreat phase has bounces to remember"}
		}
	}
	if err := convertDislodged(pos, p.dislodged); err != nil {
		return nil, judge.Rules{}, err
	}
	for i, b := range p.bounced {
		l, err := place(m, b)
		if err != nil {
			return nil, judge.Rules{}, in("bounced", in(index(i), err))
		}
		l = m.Province(l)
		if !containsLoc(pos.Bounced, l) {
			pos.Bounced = append(pos.Bounced, l)
		}
	}
	// Built centres first: a centre built in the game may be owned.
	if err := convertBuilt(pos, p.built); err != nil {
		return nil, judge.Rules{}, err
	}
	if err := convertCenters(pos, p.centers); err != nil {
		return nil, judge.Rules{}, err
	}
	if err := convertPending(pos, p.pending); err != nil {
		return nil, judge.Rules{}, err
	}
	if err := convertEnded(pos, p.ended); err != nil {
		return nil, judge.Rules{}, err
	}
	return pos, rules, nil
}

func convertUnits(pos *judge.Position, units []rawUnit) error {
	for i, ru := range units {
		u, err := unit(pos.Map, ru)
		if err == nil {
			if err = pos.Place(u); err != nil {
				err = errorf("%s", err)
			}
		}
		if err != nil {
			return in("units", in(index(i), err))
		}
	}
	return nil
}

func convertDislodged(pos *judge.Position, units []rawUnit) error {
	if len(units) == 0 {
		return nil
	}
	m := pos.Map
	// A scratch position checks the dislodged units among themselves with
	// the same rules and messages as the units on the board.
	scratch := judge.NewPosition(m, pos.Phase)
	for i, ru := range units {
		u, err := unit(m, ru)
		if err == nil && u.Power == judge.NoPower {
			err = in("power", errorf("a neutral unit is destroyed when dislodged: it never retreats"))
		}
		if err == nil {
			if err = scratch.Place(u); err != nil {
				err = errorf("%s", err)
			}
		}
		d := judge.DislodgedUnit{Unit: u, AttackerFrom: judge.NoLoc}
		if err == nil && len(ru.attackerFrom) > 0 {
			var l judge.Loc
			if l, err = place(m, ru.attackerFrom); err != nil {
				err = in("attacker_from", err)
			} else {
				d.AttackerFrom = m.Province(l)
			}
		}
		if err != nil {
			return in("dislodged", in(index(i), err))
		}
		pos.Dislodged = append(pos.Dislodged, d)
	}
	return nil
}

func convertCenters(pos *judge.Position, centers []rawCenter) error {
	m := pos.Map
	for _, c := range centers {
		err := func() error {
			l, err := place(m, c.at)
			if err != nil {
				return err
			}
			l = m.Province(l)
			if !pos.IsCenter(l) {
				return errorf("%s is not a supply centre", m.Locs[l].FullName)
			}
			if pos.Centers[l] != judge.NoPower {
				return errorf("%s is listed twice", m.Locs[l].FullName)
			}
			p, err := power(m, c.power)
			if err != nil {
				return err
			}
			pos.Centers[l] = p
			return nil
		}()
		if err != nil {
			return in("centers", in(quoteKey(c.at), err))
		}
	}
	return nil
}

// noConstruction is the error for built or pending centres on a map
// without construction.
func noConstruction(m *judge.Map) error {
	return errorf("variant %s has no supply centre construction", m.Name)
}

// convertBuilt reads "built_centers": provinces of some power's home
// country (where constructions are made) that are not centres of the
// map, each once, kept in place order.
func convertBuilt(pos *judge.Position, built [][]byte) error {
	m := pos.Map
	if len(built) > 0 && !m.Construction {
		return in("built_centers", noConstruction(m))
	}
	for i, b := range built {
		err := func() error {
			l, err := place(m, b)
			if err != nil {
				return err
			}
			l = m.Province(l)
			li := &m.Locs[l]
			switch {
			case li.Center:
				return errorf("%s is a supply centre of the map", li.FullName)
			case li.Home == judge.NoPower:
				return errorf("%s is in no power's home country, where centres are built", li.FullName)
			case slices.Contains(pos.BuiltCenters, l):
				return errorf("%s is listed twice", li.FullName)
			}
			pos.BuiltCenters = append(pos.BuiltCenters, l)
			return nil
		}()
		if err != nil {
			return in("built_centers", in(index(i), err))
		}
	}
	slices.Sort(pos.BuiltCenters)
	return nil
}

// convertPending reads "pending_centers". A construction must be one the
// judge could have accepted (rules 4b, 4c and 8 of "34, 35, 36"), ordered
// in the Winter before the position's year, and a spoiled one must name
// another power and a movement or retreat phase between the order and the
// position, so that the adjudicator can trust what it reads.
func convertPending(pos *judge.Position, pending []rawPending) error {
	m := pos.Map
	if len(pending) > 0 && !m.Construction {
		return in("pending_centers", noConstruction(m))
	}
	for i, rp := range pending {
		pc, err := convertOnePending(pos, rp)
		if err != nil {
			return in("pending_centers", in(index(i), err))
		}
		pos.PendingCenters = append(pos.PendingCenters, pc)
	}
	return nil
}

func convertOnePending(pos *judge.Position, rp rawPending) (judge.PendingCenter, error) {
	p, l, ordered, err := readConstruction(pos, rp)
	if err != nil {
		return judge.PendingCenter{}, err
	}
	m, li := pos.Map, &pos.Map.Locs[l]
	switch {
	case pos.IsCenter(l):
		return judge.PendingCenter{}, &fieldError{"at", li.FullName + " is already a supply centre"}
	case pos.PendingAt(l) >= 0:
		return judge.PendingCenter{}, &fieldError{"at", li.FullName + " is listed twice"}
	}
	for _, other := range pos.PendingCenters {
		if other.Power == p {
			return judge.PendingCenter{}, &fieldError{"power", m.Powers[p].Name + " has two constructions: one a year"}
		}
	}
	if pos.Phase.Season == judge.Winter || pos.Phase.Year != ordered.Year+1 {
		return judge.PendingCenter{}, &fieldError{"ordered", fmt.Sprintf("a construction ordered in %s is pending from S%dM to F%dR, not in %s",
			ordered, ordered.Year+1, ordered.Year+1, pos.Phase)}
	}
	pc := judge.PendingCenter{Power: p, Loc: l, Ordered: ordered}
	return pc, readSpoiled(pos, rp, &pc)
}

// readConstruction reads what a pending and an ended construction have in
// common: the power, the province (in its home country), and the Winter
// adjustment phase it was ordered in.
func readConstruction(pos *judge.Position, rp rawPending) (judge.Power, judge.Loc, judge.Phase, error) {
	m := pos.Map
	var none judge.Phase
	p, err := power(m, rp.power)
	if err != nil {
		return 0, 0, none, in("power", err)
	}
	l, err := place(m, rp.at)
	if err != nil {
		return 0, 0, none, in("at", err)
	}
	l = m.Province(l)
	if li := &m.Locs[l]; li.Home != p {
		return 0, 0, none, &fieldError{"at", fmt.Sprintf("%s is not in %s's home country", li.FullName, m.Powers[p].Name)}
	}
	if len(rp.ordered) == 0 {
		return 0, 0, none, &fieldError{"ordered", "missing (want the phase of the order, like W1901A)"}
	}
	ordered, err := judge.ParsePhase(string(rp.ordered))
	if err != nil {
		return 0, 0, none, &fieldError{"ordered", phaseMsg(err)}
	}
	if ordered.Type != judge.Adjustment {
		return 0, 0, none, &fieldError{"ordered", fmt.Sprintf("constructions are ordered in a Winter adjustment phase, not in %s", ordered)}
	}
	return p, l, ordered, nil
}

// readSpoiled reads "spoiled_by" and "spoiled_in" into pc, whose power is
// set: both or neither, another power, and a movement or retreat phase of
// the position's year before the position.
func readSpoiled(pos *judge.Position, rp rawPending, pc *judge.PendingCenter) error {
	m := pos.Map
	switch {
	case len(rp.spoiledBy) == 0 && len(rp.spoiledIn) == 0:
		return nil
	case len(rp.spoiledBy) == 0:
		return &fieldError{"spoiled_by", "missing (spoiled_in needs the power that spoiled the construction)"}
	case len(rp.spoiledIn) == 0:
		return &fieldError{"spoiled_in", "missing (spoiled_by needs the phase it spoiled the construction in)"}
	}
	pc.Spoiled = true
	var err error
	if pc.SpoiledBy, err = power(m, rp.spoiledBy); err != nil {
		return in("spoiled_by", err)
	}
	if pc.SpoiledBy == pc.Power {
		return &fieldError{"spoiled_by", m.Powers[pc.Power].Name + "'s own units do not spoil its construction"}
	}
	if pc.SpoiledIn, err = judge.ParsePhase(string(rp.spoiledIn)); err != nil {
		return &fieldError{"spoiled_in", phaseMsg(err)}
	}
	if sp := pc.SpoiledIn; sp.Type == judge.Adjustment || sp.Year != pos.Phase.Year || !phaseBefore(sp, pos.Phase) {
		return &fieldError{"spoiled_in", fmt.Sprintf("%s is not a movement or retreat phase of %d before %s", sp, pos.Phase.Year, pos.Phase)}
	}
	return nil
}

// convertEnded reads "ended_constructions": in a Winter position, the
// constructions ordered the Winter before, which ended with the Fall just
// played. Each is one the judge could have accepted (rules 4b and 8), a
// built one is in "built_centers", and a spoiled one says by whom and when
// as in "pending_centers".
func convertEnded(pos *judge.Position, ended []rawPending) error {
	m := pos.Map
	if len(ended) == 0 {
		return nil
	}
	if !m.Construction {
		return in("ended_constructions", noConstruction(m))
	}
	if pos.Phase.Type != judge.Adjustment {
		return &fieldError{"ended_constructions", "only a Winter adjustment phase has constructions that ended with the Fall before it"}
	}
	for i, rp := range ended {
		pc, err := convertOneEnded(pos, rp)
		if err != nil {
			return in("ended_constructions", in(index(i), err))
		}
		pos.EndedConstructions = append(pos.EndedConstructions, pc)
	}
	return nil
}

func convertOneEnded(pos *judge.Position, rp rawPending) (judge.PendingCenter, error) {
	p, l, ordered, err := readConstruction(pos, rp)
	if err != nil {
		return judge.PendingCenter{}, err
	}
	m, li := pos.Map, &pos.Map.Locs[l]
	for _, other := range pos.EndedConstructions {
		switch {
		case other.Loc == l:
			return judge.PendingCenter{}, &fieldError{"at", li.FullName + " is listed twice"}
		case other.Power == p:
			return judge.PendingCenter{}, &fieldError{"power", m.Powers[p].Name + " has two constructions: one a year"}
		}
	}
	if ordered.Year+1 != pos.Phase.Year {
		return judge.PendingCenter{}, &fieldError{"ordered", fmt.Sprintf("a construction that ended before %s was ordered in W%dA, not in %s",
			pos.Phase, pos.Phase.Year-1, ordered)}
	}
	pc := judge.PendingCenter{Power: p, Loc: l, Ordered: ordered}
	if err := readSpoiled(pos, rp, &pc); err != nil {
		return pc, err
	}
	switch {
	case !pc.Spoiled && !slices.Contains(pos.BuiltCenters, l):
		return pc, &fieldError{"at", li.FullName + " was built (not spoiled), so built_centers must list it"}
	case pc.Spoiled && pos.IsCenter(l):
		return pc, &fieldError{"at", li.FullName + " is a supply centre, yet its construction was spoiled"}
	}
	return pc, nil
}

// phaseBefore reports whether a comes before b in the course of a game.
func phaseBefore(a, b judge.Phase) bool {
	key := func(p judge.Phase) int { return (p.Year*4+int(p.Season))*4 + int(p.Type) }
	return key(a) < key(b)
}

// unit resolves the names of one unit; it does not check the place.
func unit(m *judge.Map, ru rawUnit) (judge.Unit, error) {
	p, err := power(m, ru.power)
	if err != nil && strings.EqualFold(string(ru.power), judge.Neutral) {
		p, err = judge.NoPower, nil // a neutral unit; no power has the name
	}
	if err != nil {
		return judge.Unit{}, in("power", err)
	}
	t, err := unitType(ru.typ)
	if err != nil {
		return judge.Unit{}, in("type", err)
	}
	l, err := place(m, ru.at)
	if err != nil {
		return judge.Unit{}, in("at", err)
	}
	return judge.Unit{Type: t, Power: p, Loc: l}, nil
}

func power(m *judge.Map, name []byte) (judge.Power, error) {
	if len(name) == 0 {
		return judge.NoPower, errorf("missing")
	}
	for i := range m.Powers { // the usual spelling, cheaply
		if string(name) == m.Powers[i].Name {
			return judge.Power(i), nil
		}
	}
	if p, ok := m.PowerByName(string(name)); ok {
		return p, nil
	}
	return judge.NoPower, errorf("unknown power %q", name)
}

func unitType(name []byte) (judge.UnitType, error) {
	switch {
	case len(name) == 0:
		return judge.NoUnit, errorf(`missing (want "A" or "F")`)
	case bytes.EqualFold(name, []byte("A")) || bytes.EqualFold(name, []byte("army")):
		return judge.Army, nil
	case bytes.EqualFold(name, []byte("F")) || bytes.EqualFold(name, []byte("fleet")):
		return judge.Fleet, nil
	}
	return judge.NoUnit, errorf(`unknown unit type %q (want "A" or "F")`, name)
}

// place resolves a place name as the order parser would.
func place(m *judge.Map, name []byte) (judge.Loc, error) {
	if len(name) == 0 {
		return judge.NoLoc, errorf("missing")
	}
	// Canonical names ("nth", "stp/nc") are their own lookup keys, and
	// indexing a map with string(name) does not allocate: the fast path
	// for what gmd itself writes.
	if l, ok := m.Names()[string(name)]; ok {
		return l, nil
	}
	l, err := parser.ParseLoc(m, string(name))
	if err != nil {
		return judge.NoLoc, errorf("%s", err)
	}
	return l, nil
}

// phaseMsg drops the "phase " that judge.ParsePhase starts its messages
// with, which the field name already says: `phase: "X1901M": season must
// be S, F or W`.
func phaseMsg(err error) string { return strings.TrimPrefix(err.Error(), "phase ") }

func containsLoc(ls []judge.Loc, l judge.Loc) bool {
	for _, x := range ls {
		if x == l {
			return true
		}
	}
	return false
}

package jsonpos

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gmdjudge/gmd/judge"
)

// What the encoder needs of a map is computed once per map and kept:
// -batch writes the same few hundred names thousands of times.

// mapNames holds a map's names quoted for JSON output.
type mapNames struct {
	locs    [][]byte    // `"lon"`, indexed by Loc
	powers  [][]byte    // `"England"`, indexed by Power
	centers []judge.Loc // the supply centres, sorted by canonical name
}

var namesCache sync.Map // *judge.Map → *mapNames

func namesOf(m *judge.Map) *mapNames {
	if n, ok := namesCache.Load(m); ok {
		return n.(*mapNames)
	}
	n := &mapNames{locs: make([][]byte, len(m.Locs)), powers: make([][]byte, len(m.Powers))}
	for i := range m.Locs {
		n.locs[i] = appendString(nil, m.Locs[i].Name)
	}
	for i := range m.Powers {
		n.powers[i] = appendString(nil, m.Powers[i].Name)
	}
	n.centers = slices.Clone(m.Centers())
	slices.SortFunc(n.centers, func(a, b judge.Loc) int { return strings.Compare(m.LocName(a), m.LocName(b)) })
	v, _ := namesCache.LoadOrStore(m, n)
	return v.(*mapNames)
}

// centerOrder returns the supply centres of pos sorted by canonical name:
// the map's, cached, and those built in the game merged in.
func (n *mapNames) centerOrder(m *judge.Map, pos *judge.Position) []judge.Loc {
	if len(pos.BuiltCenters) == 0 {
		return n.centers
	}
	cs := append(slices.Clone(n.centers), pos.BuiltCenters...)
	slices.SortFunc(cs, func(a, b judge.Loc) int { return strings.Compare(m.LocName(a), m.LocName(b)) })
	return cs
}

func (n *mapNames) appendLoc(dst []byte, m *judge.Map, l judge.Loc) []byte {
	if int(l) < len(n.locs) {
		return append(dst, n.locs[l]...)
	}
	return appendString(dst, m.LocName(l))
}

func (n *mapNames) appendPower(dst []byte, m *judge.Map, p judge.Power) []byte {
	if int(p) < len(n.powers) {
		return append(dst, n.powers[p]...)
	}
	return appendString(dst, m.PowerName(p))
}

// appendPhase appends p.String() without allocating.
func appendPhase(dst []byte, p judge.Phase) []byte {
	season, kind := byte('?'), byte('?')
	switch p.Season {
	case judge.Spring:
		season = 'S'
	case judge.Fall:
		season = 'F'
	case judge.Winter:
		season = 'W'
	}
	switch p.Type {
	case judge.Movement:
		kind = 'M'
	case judge.Retreat:
		kind = 'R'
	case judge.Adjustment:
		kind = 'A'
	}
	dst = append(dst, season)
	dst = strconv.AppendInt(dst, int64(p.Year), 10)
	return append(dst, kind)
}

// appendCanonical appends o.Canonical(m), the same text, without the
// allocations of a strings.Builder per order (TestAppendCanonical holds
// the two together).
func appendCanonical(dst []byte, m *judge.Map, o *judge.Order) []byte {
	unit := func(t judge.UnitType, l judge.Loc) {
		if t != judge.NoUnit {
			dst = append(dst, t.String()...)
			dst = append(dst, ' ')
		}
		dst = append(dst, m.LocName(l)...)
	}
	switch o.Kind {
	case judge.Hold:
		unit(o.Type, o.Unit)
		dst = append(dst, " H"...)
	case judge.Move:
		unit(o.Type, o.Unit)
		for _, r := range o.Route {
			dst = append(dst, " - "...)
			dst = append(dst, m.LocName(r)...)
		}
		dst = append(dst, " - "...)
		dst = append(dst, m.LocName(o.Target)...)
		if o.ViaConvoy && len(o.Route) == 0 {
			dst = append(dst, " via convoy"...)
		}
	case judge.SupportHold:
		unit(o.Type, o.Unit)
		dst = append(dst, " S "...)
		unit(o.TargetType, o.Target)
	case judge.SupportMove, judge.Convoy:
		unit(o.Type, o.Unit)
		if o.Kind == judge.Convoy {
			dst = append(dst, " C "...)
		} else {
			dst = append(dst, " S "...)
		}
		unit(o.TargetType, o.Target)
		dst = append(dst, " - "...)
		dst = append(dst, m.LocName(o.Dest)...)
	case judge.Disband:
		unit(o.Type, o.Unit)
		dst = append(dst, " disband"...)
	case judge.Build:
		dst = append(dst, "build "...)
		unit(o.Type, o.Unit)
	case judge.Remove:
		dst = append(dst, "remove "...)
		unit(o.Type, o.Unit)
	case judge.Waive:
		dst = append(dst, "waive"...)
	case judge.Construct:
		dst = append(dst, "build sc "...)
		dst = append(dst, m.LocName(o.Unit)...)
	default:
		dst = append(dst, '?')
	}
	return dst
}

// appendQuoted appends s as a JSON string; s is usually plain ASCII (map
// ids and order words), which needs no escaping and no conversion.
func appendQuoted(dst, s []byte) []byte {
	for _, c := range s {
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return appendString(dst, string(s))
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

package jsonpos

import (
	"slices"
	"unicode/utf8"

	"github.com/gmdjudge/gmd/judge"
)

// The output is written by hand rather than through encoding/json: the
// field order is then fixed as in DESIGN.md, empty lists come out as []
// without special types, and -batch appends into one reused buffer.

// EncodePosition returns pos in the contract's form, as one line of
// compact JSON without a final newline.
func EncodePosition(pos *judge.Position, rules judge.Rules) []byte {
	return AppendPosition(nil, pos, rules)
}

// AppendPosition appends EncodePosition's output to dst.
func AppendPosition(dst []byte, pos *judge.Position, rules judge.Rules) []byte {
	m := pos.Map
	n := namesOf(m)
	dst = append(dst, `{"variant":`...)
	dst = appendString(dst, m.Name)
	dst = append(dst, `,"rules":`...)
	dst = appendString(dst, rules.Name)
	if rules.Builds != judge.BuildsOfMap {
		dst = append(dst, `,"builds":`...)
		dst = appendString(dst, rules.Builds.String())
	}
	dst = append(dst, `,"phase":"`...)
	dst = appendPhase(dst, pos.Phase)
	dst = append(dst, `","units":[`...)
	first := true
	for _, u := range pos.Units {
		if u.Type == judge.NoUnit {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = n.appendUnit(dst, m, u)
		dst = append(dst, '}')
	}
	dst = append(dst, `],"dislodged":[`...)
	dis := pos.Dislodged
	if !slices.IsSortedFunc(dis, byDislodgedLoc) {
		dis = slices.SortedStableFunc(slices.Values(dis), byDislodgedLoc)
	}
	for i, d := range dis {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = n.appendUnit(dst, m, d.Unit)
		if d.AttackerFrom != judge.NoLoc {
			dst = append(dst, `,"attacker_from":`...)
			dst = n.appendLoc(dst, m, d.AttackerFrom)
		}
		dst = append(dst, '}')
	}
	dst = append(dst, `],"bounced":[`...)
	bounced := pos.Bounced
	if !slices.IsSorted(bounced) {
		bounced = slices.Sorted(slices.Values(bounced))
	}
	for i, l := range bounced {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = n.appendLoc(dst, m, l)
	}
	// The owned centres, keys sorted as encoding/json sorts a map's keys,
	// so that outputs compare as text.
	dst = append(dst, `],"centers":{`...)
	first = true
	for _, c := range n.centerOrder(m, pos) {
		p := pos.Centers[c]
		if int(p) >= len(m.Powers) {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = n.appendLoc(dst, m, c)
		dst = append(dst, ':')
		dst = n.appendPower(dst, m, p)
	}
	dst = append(dst, `},"built_centers":[`...)
	built := pos.BuiltCenters
	if !slices.IsSorted(built) {
		built = slices.Sorted(slices.Values(built))
	}
	for i, l := range built {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = n.appendLoc(dst, m, l)
	}
	dst = append(dst, `],"pending_centers":[`...)
	dst = n.appendConstructions(dst, m, pos.PendingCenters)
	dst = append(dst, ']')
	// Only a Winter position that follows a Fall which ended constructions
	// has this field: every other position, and every position of a game
	// without construction, reads as it did before the field existed.
	if len(pos.EndedConstructions) > 0 {
		dst = append(dst, `,"ended_constructions":[`...)
		dst = n.appendConstructions(dst, m, pos.EndedConstructions)
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

// appendConstructions appends the entries of "pending_centers" or
// "ended_constructions", comma-separated.
func (n *mapNames) appendConstructions(dst []byte, m *judge.Map, pcs []judge.PendingCenter) []byte {
	for i, pc := range pcs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"power":`...)
		dst = n.appendPower(dst, m, pc.Power)
		dst = append(dst, `,"at":`...)
		dst = n.appendLoc(dst, m, pc.Loc)
		dst = append(dst, `,"ordered":"`...)
		dst = appendPhase(dst, pc.Ordered)
		dst = append(dst, '"')
		if pc.Spoiled {
			dst = append(dst, `,"spoiled_by":`...)
			dst = n.appendPower(dst, m, pc.SpoiledBy)
			dst = append(dst, `,"spoiled_in":"`...)
			dst = appendPhase(dst, pc.SpoiledIn)
			dst = append(dst, '"')
		}
		dst = append(dst, '}')
	}
	return dst
}

func byDislodgedLoc(a, b judge.DislodgedUnit) int { return int(a.Loc) - int(b.Loc) }

// appendUnit appends a unit object without its closing brace, so that a
// dislodged unit can add its attacker.
func (n *mapNames) appendUnit(dst []byte, m *judge.Map, u judge.Unit) []byte {
	dst = append(dst, `{"power":`...)
	if u.Power == judge.NoPower {
		dst = append(dst, `"`+judge.Neutral+`"`...)
	} else {
		dst = n.appendPower(dst, m, u.Power)
	}
	dst = append(dst, `,"type":"`...)
	dst = append(dst, u.Type.String()...)
	dst = append(dst, `","at":`...)
	return n.appendLoc(dst, m, u.Loc)
}

// EncodeResult returns the result of one phase, {"orders": [...], "next":
// {...}}, as one line of compact JSON without a final newline. pos is the
// position the phase was played from: it says where each ordered unit
// stood, coast included, which the orders as written may not.
func EncodeResult(pos *judge.Position, res *judge.Resolution, rules judge.Rules) []byte {
	return AppendResult(nil, pos, res, rules)
}

// AppendResult appends EncodeResult's output to dst.
func AppendResult(dst []byte, pos *judge.Position, res *judge.Resolution, rules judge.Rules) []byte {
	m := pos.Map
	n := namesOf(m)
	var scratch [128]byte
	dst = append(dst, `{"orders":[`...)
	for i := range res.Results {
		r := &res.Results[i]
		if i > 0 {
			dst = append(dst, ',')
		}
		o, u, ok := pos.ResolveOrder(&r.Order)
		p := o.Power
		if p == judge.NoPower && ok {
			p = u.Power
		}
		dst = append(dst, `{"power":`...)
		if ok && u.Neutral() {
			dst = append(dst, `"`+judge.Neutral+`"`...)
		} else {
			dst = n.appendPower(dst, m, p)
		}
		dst = append(dst, `,"unit":`...)
		if o.Kind == judge.Waive {
			dst = append(dst, `""`...)
		} else {
			dst = n.appendLoc(dst, m, o.Unit)
		}
		dst = append(dst, `,"order":`...)
		dst = appendQuoted(dst, appendCanonical(scratch[:0], m, &o))
		dst = append(dst, `,"result":`...)
		dst = appendString(dst, r.Outcome.String())
		dst = append(dst, '}')
	}
	dst = append(dst, `],"next":`...)
	if res.Next == nil {
		dst = append(dst, "null"...)
	} else {
		dst = AppendPosition(dst, res.Next, rules)
	}
	return append(dst, '}')
}

// appendString appends s as a JSON string. Only the characters JSON
// requires are escaped, plus <, > and & as encoding/json does, so that the
// output is safe to paste into HTML; invalid UTF-8 becomes U+FFFD.
func appendString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			switch r {
			case utf8.RuneError:
				dst = append(dst, `\ufffd`...)
			case '\u2028':
				dst = append(dst, `\u2028`...)
			default:
				dst = append(dst, `\u2029`...)
			}
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

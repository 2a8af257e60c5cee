package parser_test

import (
	"reflect"
	"sort"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/parser"
)

// boardList is every shipped map, in a fixed order, for fuzz targets that
// pick one by number.
func boardList(t testing.TB) []*judge.Map {
	t.Helper()
	byName := shippedMaps(t)
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]*judge.Map, len(names))
	for i, n := range names {
		out[i] = byName[n]
	}
	return out
}

// FuzzCanonicalReadsBack checks the property that "gmd orders" relies on,
// on every shipped map: any order of a shape the parser reads (a unit
// type or none, any place or coast, any power or none), written as "gmd
// orders" writes it (Canonical, or CanonicalWithPower), reads back as the
// same order. A place id that spells an order word with its neighbours
// ("A ade", "F lao S") would break it.
func FuzzCanonicalReadsBack(f *testing.F) {
	maps := boardList(f)
	for i := range maps {
		for kind := uint8(0); kind < 12; kind++ {
			f.Add(uint8(i), kind, uint16(i*7+int(kind)), uint16(i*13+3), uint16(i*5+11), uint8(kind), uint8(i))
		}
	}
	f.Fuzz(func(t *testing.T, mapNo, kind uint8, a, b, c uint16, types, power uint8) {
		m := maps[int(mapNo)%len(maps)]
		o, phase, ok := fuzzOrder(m, kind, a, b, c, types, power)
		if !ok {
			return
		}
		checkCanonical(t, m, phase, o)
	})
}

// fuzzOrder makes an order of a shape the parser reads from the fuzzer's
// numbers, with the phase it is written in; false where the map has no
// such order (a construction without the rule).
func fuzzOrder(m *judge.Map, kind uint8, a, b, c uint16, types, power uint8) (judge.Order, judge.PhaseType, bool) {
	n := m.NumLocs()
	loc := func(x uint16) judge.Loc { return judge.Loc(int(x) % n) }
	typ := func(bit uint8) judge.UnitType {
		switch types >> bit & 3 {
		case 0:
			return judge.NoUnit
		case 1:
			return judge.Army
		}
		return judge.Fleet
	}
	o := judge.Order{Power: judge.NoPower, Type: typ(0), Unit: loc(a), Target: judge.NoLoc, Dest: judge.NoLoc}
	if int(power) < len(m.Powers) {
		o.Power = judge.Power(power)
	}
	phase := judge.Movement
	switch kind % 12 {
	case 0:
		o.Kind = judge.Hold
	case 1:
		o.Kind, o.Target = judge.Move, loc(b)
	case 2: // by convoy: "via convoy", or a route of seas
		o.Kind, o.Type, o.Target, o.ViaConvoy = judge.Move, judge.Army, loc(b), true
		if types&16 != 0 {
			o.Route = []judge.Loc{loc(c)}
		}
	case 3:
		o.Kind, o.TargetType, o.Target = judge.SupportHold, typ(2), loc(b)
	case 4:
		o.Kind, o.TargetType, o.Target, o.Dest = judge.SupportMove, typ(2), loc(b), loc(c)
	case 5:
		o.Kind, o.Type, o.TargetType, o.Target, o.Dest = judge.Convoy, judge.Fleet, judge.Army, loc(b), loc(c)
		if types&4 != 0 {
			o.TargetType = judge.NoUnit
		}
	case 6:
		o.Kind, o.Target, phase = judge.Move, loc(b), judge.Retreat
	case 7:
		o.Kind, phase = judge.Disband, judge.Retreat
	case 8:
		o.Kind, phase = judge.Build, judge.Adjustment
		if o.Type == judge.NoUnit {
			o.Type = judge.Army
		}
	case 9:
		o.Kind, phase = judge.Remove, judge.Adjustment
	case 10:
		o.Kind, o.Type, o.Unit, phase = judge.Waive, judge.NoUnit, judge.NoLoc, judge.Adjustment
	case 11:
		if !m.Construction {
			return o, phase, false
		}
		o.Kind, o.Type, o.Unit, phase = judge.Construct, judge.NoUnit, m.Province(loc(a)), judge.Adjustment
	}
	return o, phase, true
}

// checkCanonical writes o as "gmd orders" does and reads it back.
func checkCanonical(t *testing.T, m *judge.Map, phase judge.PhaseType, o judge.Order) {
	t.Helper()
	texts := []string{o.Canonical(m)}
	if o.Power != judge.NoPower {
		texts = append(texts, o.CanonicalWithPower(m))
	}
	for i, text := range texts {
		opt := parser.Options{Map: m, Phase: phase, Power: o.Power}
		if i == 1 {
			opt.Power = judge.NoPower // the prefix must say it
		}
		got, err := parser.ParseOrder(text, opt)
		if err != nil {
			t.Fatalf("%s %v: %q reads as an error: %v", m.Name, phase, text, err)
		}
		if !reflect.DeepEqual(got, o) {
			t.Fatalf("%s %v: %q reads back as\n%+v, not\n%+v", m.Name, phase, text, got, o)
		}
	}
}

// TestCanonicalReadsBackEverywhere runs the property of
// FuzzCanonicalReadsBack over every place of every shipped map, for every
// order shape, so that plain "go test" covers the whole space the fuzzer
// samples.
func TestCanonicalReadsBackEverywhere(t *testing.T) {
	for _, m := range boardList(t) {
		n := uint16(m.NumLocs())
		for a := uint16(0); a < n; a++ {
			for kind := uint8(0); kind < 12; kind++ {
				// Both unit types, a type left out, a route of seas.
				for _, types := range []uint8{0b00101, 0b01010, 0b10100, 0b11111} {
					o, phase, ok := fuzzOrder(m, kind, a, a*7+1, a*3+2, types, uint8(a))
					if ok {
						checkCanonical(t, m, phase, o)
					}
				}
			}
		}
	}
}

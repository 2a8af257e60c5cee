package parser_test

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/parser"
)

// FuzzParseOrders checks, on any text, that the parser ends without
// panicking, that every error and order has a place in the text, and that
// every order it reads writes out (Canonical) as text that reads back as
// the same order.
//
// A failure the fuzzer finds is written by go test to
// testdata/fuzz/FuzzParseOrders/<hash> in this directory; committed with
// the fix, it runs as a seed in every go test from then on. The same
// holds for FuzzParseMail and FuzzScanner.
func FuzzParseOrders(f *testing.F) {
	seeds := []string{
		"England: F Lon - Nth\nE F Edi-Nrg\nEnglish A Lvp -> Yor",
		"France\nA Par - Burg\nA Par xyz\nF Bre - Mid-Atlantic Ocean, F Mar - Gulf of Lyon",
		"F Nth C A Lon - Nwy; A Lon-Nth-Nwy\nA Lon - Nwy via convoy",
		"F Mao - Spa (north coast), F Stp/sc - Bot, F Bul ec - Con",
		"A Mun S German A Ber - Sil, A Mun S Ber H, F Eng S English Channel",
		"A Par D\nDisband F Bre\nA Par – Bur",
		"Build A Par, build army paris\nB F stp/nc\nR A Par, remove par; waive\nA Par\nW",
		"A F Tri - Adr\nR: A Mos\nT F Ank - Bla\nEngl: F Lon - Nth",
		"A Mun S, A Ber\nF Nth C, A Lon - Nwy\nA Lon - Nwy, via convoy",
		"\xff\r\n;;,,::((//))->=>", "A Pär - Bür\u00a0→ Mar",
		"A Lvp, s.c. Cly\nsc Cly; build s. c. Clyde\nA Lvp sc Cly, Build supply centre Clyde\nF Spa sc, s.c. A Cly",
		vietnamSeed,
	}
	// And the texts of real-world mails (testdata/mail).
	seeds = append(seeds, corpusBodies(f)...)
	maps := fuzzMaps(f)
	for i, s := range seeds {
		f.Add(s, uint8(i%3+1), uint8(i%len(maps)))
	}
	f.Fuzz(func(t *testing.T, src string, phase, mapNo uint8) {
		m := maps[int(mapNo)%len(maps)]
		ph := judge.PhaseType(phase%3 + 1)
		checkParse(t, m, ph, src)
	})
}

func checkParse(t *testing.T, m *judge.Map, ph judge.PhaseType, src string) {
	opt := parser.Options{Map: m, Phase: ph, Power: judge.NoPower}
	orders, errs := parser.ParseOrders(src, opt)
	lines := 1 + strings.Count(src, "\n") + strings.Count(strings.ReplaceAll(src, "\r\n", ""), "\r")
	for _, e := range errs {
		if e.Line < 1 || e.Col < 1 || e.Line > lines || e.Msg == "" {
			t.Fatalf("%v %q: bad error %+v", ph, src, e)
		}
	}
	var w walker
	for _, o := range orders {
		if o.Line < 1 || o.Col < 1 || o.Line > lines {
			t.Fatalf("%v %q: order %q at %d:%d", ph, src, o.Text, o.Line, o.Col)
		}
		off := w.find(src, o.Line, o.Col)
		if off < 0 || o.Text == "" || o.Text != strings.TrimSpace(o.Text) || !strings.HasPrefix(src[off:], o.Text) {
			t.Fatalf("%v %q: order text %q is not the text at %d:%d", ph, src, o.Text, o.Line, o.Col)
		}
		want := o.Order
		want.Bare = false // Canonical writes a bare build as "build A par"
		for _, text := range []string{o.Canonical(m), o.CanonicalWithPower(m)} {
			if o.Power == judge.NoPower && text != o.Canonical(m) {
				continue // "Unowned: ..." is not a power
			}
			got, err := parser.ParseOrder(text, parser.Options{Map: m, Phase: ph, Power: o.Power})
			if err != nil {
				t.Fatalf("%v %q: order %q writes as %q, which reads as an error: %v", ph, src, o.Text, text, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%v %q: order %q writes as %q, which reads back as\n%+v, not\n%+v", ph, src, o.Text, text, got, want)
			}
		}
	}
}

// TestParseSeeds runs the fuzz checks on hand-picked texts, so that
// "go test" checks them without -fuzz.
func TestParseSeeds(t *testing.T) {
	for _, m := range fuzzMaps(t) {
		for _, ph := range []judge.PhaseType{mv, ret, adj} {
			for _, c := range canonicalCases {
				checkParse(t, m, ph, c.text)
			}
			checkParse(t, m, ph, "England: F Lon - Nth, A Lvp - Yor; F Edi H\nFrance\nA Par - Bur (nc)\nA Mar S A Par - Bur")
			checkParse(t, m, ph, vietnamSeed)
		}
	}
}

// vietnamSeed has vietnam-war's power names of two words, one of them
// also a province's name, as prefixes and otherwise.
const vietnamSeed = "North Vietnam: A Thn - Nov\nNorth Vietnam - Thai Nguyen, South Vietnamese F Eas H\n" +
	"North: A Thh H\nNorth Vietnam\nA Thh S North Vietnamese A Thn - North Vietnam\nN: Build A Han\nSouth Vietnam:"

// fuzzMaps are the maps the fuzz targets parse with: the tiny map of
// traps, then every shipped map (standard among them; vietnam-war for its
// power names of two words; youngstown-redux and canton for the names
// that spell order words with their neighbours), so that what an order
// reads as, and its canonical text reading back, is checked on every
// board.
func fuzzMaps(t testing.TB) []*judge.Map {
	return append([]*judge.Map{tinyMap(t)}, boardList(t)...)
}

// walker finds the offsets of line:col places, walking forward through the
// text once for places that come in order (as orders do).
type walker struct{ off, line, col int }

// find returns the offset of line:col, or -1 if the text has no such place
// after the last one found.
func (w *walker) find(src string, line, col int) int {
	if w.line == 0 {
		w.line, w.col = 1, 1
	}
	for w.line < line || w.line == line && w.col < col {
		if w.off >= len(src) {
			return -1
		}
		r, n := utf8.DecodeRuneInString(src[w.off:])
		switch {
		case r == '\n', r == '\r' && !strings.HasPrefix(src[w.off+1:], "\n"):
			w.line, w.col = w.line+1, 1
		case r == '\r':
		default:
			w.col++
		}
		w.off += n
	}
	if w.line != line || w.col != col {
		return -1
	}
	return w.off
}

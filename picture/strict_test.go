package picture

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// strictXML reports the first way data is not a well-formed XML document
// as strict parsers (xmllint, librsvg, browsers) read it: what
// encoding/xml rejects (unclosed or crossed elements, bad characters,
// undeclared entities, since its decoder is strict and knows only XML's
// five), and what it lets through, an attribute written twice on one
// element.
func strictXML(data []byte) error {
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	depth, roots := 0, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
			}
			depth++
			seen := map[xml.Name]bool{}
			for _, a := range tok.Attr {
				if seen[a.Name] {
					line, _ := dec.InputPos()
					return fmt.Errorf("line %d: <%s> has attribute %s twice", line, tok.Name.Local, a.Name.Local)
				}
				seen[a.Name] = true
			}
		case xml.EndElement:
			depth--
		case xml.Directive:
			return errors.New("a DOCTYPE or other directive: it could declare entities")
		}
	}
	if roots != 1 {
		return fmt.Errorf("%d root elements, want 1", roots)
	}
	return nil
}

// TestStrictXMLCatches: the strict check fails on what made every SVG
// malformed before (an attribute twice) and on an undeclared entity.
func TestStrictXMLCatches(t *testing.T) {
	for _, bad := range []string{
		`<svg><path stroke-linecap="round" stroke-linecap="butt"/></svg>`,
		`<svg><text>&nbsp;</text></svg>`,
		`<svg><g></svg>`,
		`<svg/><svg/>`,
		`<!DOCTYPE svg [<!ENTITY a "b">]><svg>&a;</svg>`,
	} {
		if strictXML([]byte(bad)) == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
	if err := strictXML([]byte(`<svg a="1" b="&amp;"><g/></svg>`)); err != nil {
		t.Error(err)
	}
}

// TestSVGStrict writes the SVG of every picture of the corpus (every
// board, every kind of order, outcome and mark its games produce) and of
// the hand-made phases of the other tests (convoys, cut supports, void
// orders, constructions), and reads each with the strict check and, where
// it is installed, with xmllint as well (Debian's libxml2-utils, which
// scripts/test installs).
func TestSVGStrict(t *testing.T) {
	// The corpus's SVGs were read by strictXML as corpusSVGs parsed
	// them; the hand-made phases' are read here.
	shots := append(corpus(t), fixtureShots(t)...)
	drawn := corpusSVGs(t)
	dir := t.TempDir()
	var files []string
	for i, s := range shots {
		var data []byte
		if i < len(drawn) {
			data = drawn[i].data
		} else {
			data = svgOf(t, s.pos, s.res)
			if err := strictXML(data); err != nil {
				t.Errorf("%s: %v", s.name, err)
			}
		}
		f := filepath.Join(dir, fmt.Sprintf("%03d-%s.svg", i, s.name))
		if err := os.WriteFile(f, data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	xmllint, err := exec.LookPath("xmllint")
	switch {
	case err != nil && os.Getenv("GMD_BROWSERTEST") == "1":
		// scripts/test installs xmllint with Chromium and sets
		// GMD_BROWSERTEST: there, a missing one is a broken install,
		// not a machine without it.
		t.Fatal("xmllint is not installed, though scripts/test installs it (Debian's libxml2-utils)")
	case err != nil:
		t.Log("xmllint is not installed: only the Go check read the SVGs")
		return
	}
	for start := 0; start < len(files); start += 100 {
		end := min(start+100, len(files))
		out, err := exec.Command(xmllint, append([]string{"--noout", "--nonet"}, files[start:end]...)...).CombinedOutput()
		if err != nil || len(out) > 0 {
			t.Errorf("xmllint: %v\n%s", err, out)
		}
	}
}

// fixtureShots are the hand-made phases of the other tests, as shots.
func fixtureShots(t testing.TB) []shot {
	var out []shot
	pos, res := s1901(t)
	out = append(out, shot{"s1901", pos, res})
	g := newGame(t, "standard", "S1901M", "England F nth", "England A lon", "France A pic", "France A bel", "Germany A bur", "Italy A ven")
	pos, res = g.play("England: F nth C A lon - nwy\nEngland: A lon - nwy\nFrance: A pic S A bel H\nGermany: A bur - pic\nItaly: A ven - mos")
	out = append(out, shot{"convoy-cut-void", pos, res})
	g = newGame(t, "standard", "F1901M", "Austria A vie", "Austria A bud", "Russia A gal", "Russia F sev", "Turkey F bla", "Turkey A arm")
	pos, res = g.play("Austria: A vie - gal\nAustria: A bud S A vie - gal\nRussia: A gal H\nTurkey: A arm - sev\nTurkey: F bla S A arm - sev\nRussia: F sev H")
	out = append(out, shot{"dislodge", pos, res})
	pos, res = g.play("Russia: A gal - ukr\nRussia: F sev disband")
	out = append(out, shot{"retreat", pos, res})
	g = newGame(t, "34-35-36", "W1901A", "England F nth", "England F nwg", "England A nwy").own("England", "nwy", "den")
	pos, res = g.play("England: build sc yor\nEngland: build A lvp")
	out = append(out, shot{"construct", pos, res}, shot{"pending", res.Next, nil})
	g = newGame(t, "standard", "S1901M", "Neutral A ser", "Austria A bud", "Austria A rum")
	pos, res = g.play("Austria: A bud - ser\nAustria: A rum S A bud - ser")
	out = append(out, shot{"neutral", pos, res})
	return out
}

// TestCorpusCoversMarks: the corpus that the whole-space tests walk
// holds every kind of order and mark, on more than one board; and every
// unit drawn in it carries its letter.
func TestCorpusCoversMarks(t *testing.T) {
	seen := map[string]map[string]bool{}
	drawn := corpusSVGs(t)
	for i, s := range corpus(t) {
		doc := drawn[i].doc
		// Every unit of a power carries its letter, for those who cannot
		// tell the colours apart; a neutral unit, no power's, carries
		// none (its grey says so: drawer.unit).
		units, neutral := count(doc, "unit"), count(doc, "unit", "neutral")
		if letters := count(doc, "unit-letter"); units-neutral != letters {
			t.Errorf("%s: %d units, %d of them neutral, %d with a letter", s.name, units, neutral, letters)
		}
		for _, e := range doc {
			for _, c := range e.class {
				if seen[c] == nil {
					seen[c] = map[string]bool{}
				}
				seen[c][s.name] = true
			}
		}
	}
	for _, c := range []string{"move", "retreat", "support-move", "support-hold", "convoy", "convoyed", "hold", "failed",
		"bounce", "cut", "void", "standoff", "dislodged", "disband", "build", "remove", "default", "waive", "construction", "attacker"} {
		if len(seen[c]) < 2 {
			t.Errorf("class %q in %d pictures of the corpus, want at least 2", c, len(seen[c]))
		}
	}
}

package main

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	gomail "github.com/emersion/go-message/mail"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/picture"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

// drawn records what the test drawers were asked to draw.
type drawn struct {
	mu     sync.Mutex
	phases []string
	orders []int // results in the resolution; -1 for none
}

// withTestPictures puts drawers in pictures for the test, so that the
// plumbing is tested whatever package picture draws: a 4×2 PNG whose
// top left pixel is red, and an SVG naming the phase.
func withTestPictures(t *testing.T) *drawn {
	t.Helper()
	d := new(drawn)
	note := func(pos *judge.Position, res *judge.Resolution) {
		d.mu.Lock()
		defer d.mu.Unlock()
		n := -1
		if res != nil {
			n = len(res.Results)
		}
		d.phases, d.orders = append(d.phases, pos.Phase.String()), append(d.orders, n)
	}
	old := pictures
	pictures = map[string]view.Drawer{
		"png": func(w io.Writer, pos *judge.Position, res *judge.Resolution) error {
			note(pos, res)
			img := image.NewRGBA(image.Rect(0, 0, 4, 2))
			img.Set(0, 0, color.RGBA{R: 255, A: 255})
			return png.Encode(w, img)
		},
		"svg": func(w io.Writer, pos *judge.Position, res *judge.Resolution) error {
			note(pos, res)
			_, err := fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="800"><title>%s</title></svg>`, pos.Phase)
			return err
		},
	}
	t.Cleanup(func() { pictures = old })
	return d
}

// TestMapDraws: gmd map draws the position with the orders adjudicated,
// as PNG to standard output by default, as SVG by -format or the -o
// file's extension.
func TestMapDraws(t *testing.T) {
	d := withTestPictures(t)
	out, errs, code := runGMD(t, "", "map", "-position", samplePosition, "-orders", sampleOrders)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	img, err := png.Decode(strings.NewReader(out))
	if err != nil {
		t.Fatalf("standard output is no PNG: %v", err)
	}
	if r, _, _, _ := img.At(0, 0).RGBA(); r != 0xffff || img.Bounds().Dx() != 4 {
		t.Errorf("the PNG is not the drawer's")
	}
	if len(d.phases) != 1 || d.phases[0] != "S1901M" || d.orders[0] != 22 {
		t.Errorf("drew %v with %v results, want S1901M with its 22 orders", d.phases, d.orders)
	}

	// Without orders: the position alone.
	if _, errs, code := runGMD(t, "", "map", "-position", samplePosition); code != 0 || d.orders[1] != -1 {
		t.Errorf("without -orders: exit %d (%s), drew with %d results, want none", code, errs, d.orders[1])
	}

	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		file string
		svg  bool
	}{
		{[]string{"-o", filepath.Join(dir, "board.svg")}, "board.svg", true},
		{[]string{"-o", filepath.Join(dir, "board.png")}, "board.png", false},
		{[]string{"-o", filepath.Join(dir, "board"), "-format", "SVG"}, "board", true},
		{[]string{"-o", filepath.Join(dir, "board.svg.out")}, "board.svg.out", false},
	} {
		args := append([]string{"map", "-position", samplePosition, "-orders", sampleOrders}, tc.args...)
		out, errs, code := runGMD(t, "", args...)
		if code != 0 || out != "" || errs != "" {
			t.Errorf("%v: exit %d, stdout %d bytes, stderr %q; want 0 and nothing", tc.args, code, len(out), errs)
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		if tc.svg {
			checkSVG(t, b)
		} else if _, err := png.Decode(bytes.NewReader(b)); err != nil {
			t.Errorf("%v: %s is no PNG: %v", tc.args, tc.file, err)
		}
	}
	out, _, code = runGMD(t, "", "map", "-position", samplePosition, "-format", "svg")
	if code != 0 {
		t.Fatalf("-format svg: exit %d", code)
	}
	checkSVG(t, []byte(out))
}

// checkSVG checks that b is well-formed XML whose root is an svg.
func checkSVG(t *testing.T, b []byte) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	root := ""
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed: %v\n%s", err, b)
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	if root != "svg" {
		t.Errorf("root element %q, want svg", root)
	}
}

// TestMapBadInput: bad input gives gmd adjudicate's message and exit
// status 2, and writes nothing.
func TestMapBadInput(t *testing.T) {
	withTestPictures(t)
	dir := t.TempDir()
	bad := writeTemp(t, dir, "pos.json", `{"phase": "S1901M", "units": [{"power": "England", "type": "A", "at": "xyz"}]}`)
	for _, args := range [][]string{
		{"-position", bad, "-orders", sampleOrders},
		{"-orders", sampleOrders},
		{"-position", "-", "-orders", "-"},
		{"-position", "no/such/file.json"},
		{"-position", samplePosition, "-orders", "no/such/orders.txt"},
		{"-position", bad + "x"},
	} {
		_, want, wantCode := runGMD(t, "", append([]string{"adjudicate"}, args...)...)
		want = strings.ReplaceAll(want, "see gmd adjudicate -h", "see gmd map -h")
		out, errs, code := runGMD(t, "", append([]string{"map", "-o", filepath.Join(dir, "board.png")}, args...)...)
		if code != 2 || wantCode != 2 || out != "" {
			t.Errorf("%v: exit %d (adjudicate %d), stdout %q; want 2 and nothing", args, code, wantCode, out)
		}
		if strings.TrimPrefix(errs, "gmd map: ") != strings.TrimPrefix(want, "gmd adjudicate: ") ||
			!strings.HasPrefix(errs, "gmd map: ") {
			t.Errorf("%v: stderr %q, want gmd adjudicate's %q", args, errs, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "board.png")); !os.IsNotExist(err) {
		t.Errorf("a failed gmd map wrote its -o file (%v)", err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-position", samplePosition, "-format", "gif"}, `-format "gif": want png or svg`},
		{[]string{"-position", samplePosition, "extra"}, `unexpected argument "extra"`},
	} {
		out, errs, code := runGMD(t, "", append([]string{"map"}, tc.args...)...)
		if code != 2 || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}

	// An order line that does not parse is dropped, as by gmd
	// adjudicate: exit 1, and the picture is drawn.
	out, errs, code := runGMD(t, "France: A Par - Bur\nGermany: A Mun - Burgundyy\n", "map", "-position", samplePosition, "-orders", "-")
	if code != 1 || !strings.HasPrefix(errs, "<stdin>: line 2 col ") {
		t.Errorf("a bad order line: exit %d, stderr %q; want 1 and the line", code, errs)
	}
	if _, err := png.Decode(strings.NewReader(out)); err != nil {
		t.Errorf("a bad order line: no PNG: %v", err)
	}
}

// TestMapPictures: this gmd draws with package picture: the S1901M
// opening with its 22 orders as a PNG 1000 pixels wide within 200 KB,
// and as an SVG.
func TestMapPictures(t *testing.T) {
	out, errs, code := runGMD(t, "", "map", "-position", samplePosition, "-orders", sampleOrders)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	img, err := png.Decode(strings.NewReader(out))
	if err != nil {
		t.Fatalf("no PNG: %v", err)
	}
	if w := img.Bounds().Dx(); w != 1000 || len(out) > picture.MaxPNGBytes {
		t.Errorf("PNG %d pixels wide, %d bytes; want 1000 wide, at most %d bytes", w, len(out), picture.MaxPNGBytes)
	}
	out, errs, code = runGMD(t, "", "map", "-position", samplePosition, "-orders", sampleOrders, "-format", "svg")
	if code != 0 || errs != "" {
		t.Fatalf("svg: exit %d, stderr %q", code, errs)
	}
	checkSVG(t, []byte(out))
}

// TestDryRunMaps: gmd tick -dry-run prints a results mail with its map
// as multipart/mixed, the text part first and unchanged, then
// S1901M.png; a mail whose map is gone goes as text alone, and stderr
// says so. Each phase is drawn once, however many mails carry it.
func TestDryRunMaps(t *testing.T) {
	d := withTestPictures(t)
	path := initDB(t, filepath.Join(t.TempDir(), "gmd.db"))
	posJSON, err := os.ReadFile(samplePosition)
	if err != nil {
		t.Fatal(err)
	}
	processed := time.Date(2026, 1, 2, 15, 0, 0, 0, time.UTC)
	ref := state.MapRef{Game: "dt", Turn: 1, Phase: "S1901M", Processed: processed}
	gone := ref
	gone.Turn = 2
	const text = "Movement results for Spring of 1901. (dt.001)\n\nFrance: Army Paris -> Burgundy.\nFrom here on.\n"
	db, err := state.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *state.Tx) error {
		if err := tx.PutGame(&state.Game{Name: "dt", Variant: "standard", Rules: "datc-3.0", Status: state.Active}); err != nil {
			return err
		}
		if err := tx.PutPhase("dt", &state.PhaseRecord{Phase: "S1901M", Turn: 1, Processed: processed, Position: posJSON,
			Orders: map[string][]string{"France": {"A Par - Bur"}, "England": {"F Lon - Nth"}}, Results: text}); err != nil {
			return err
		}
		for i, maps := range [][]state.MapRef{{ref}, {ref}, {gone}, nil} {
			err := tx.Enqueue(&state.OutMail{MessageID: fmt.Sprintf("<gmd.%d@localhost>", i), To: []string{fmt.Sprintf("p%d@example.com", i)},
				Subject: "GMD:dt - S1901M Results", Body: text, Created: processed, Maps: maps})
			if err != nil {
				return err
			}
		}
		return nil
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}

	code, out, errs := gmd(t, "", "tick", "-db", path, "-dry-run", "-now", now0)
	if code != 0 {
		t.Fatalf("tick: status %d, stderr %s", code, errs)
	}
	if !strings.Contains(errs, "mail 3 goes without its map") {
		t.Errorf("stderr %q does not say that mail 3 lost its map", errs)
	}
	mails := parseMbox(t, out)
	if len(mails) != 4 {
		t.Fatalf("%d mails printed, want 4", len(mails))
	}
	for i, m := range mails {
		if m.body != text {
			t.Errorf("mail %d: text part %q, want the results %q", i, m.body, text)
		}
		ct, _, _ := m.header.ContentType()
		atts := attachments(t, m.raw)
		if i < 2 {
			if ct != "multipart/mixed" || len(atts) != 1 || atts[0].name != "S1901M.png" || atts[0].typ != "image/png" {
				t.Errorf("mail %d: %s with attachments %+v, want multipart/mixed with S1901M.png", i, ct, atts)
			} else if _, err := png.Decode(bytes.NewReader(atts[0].data)); err != nil {
				t.Errorf("mail %d: S1901M.png is no PNG: %v", i, err)
			}
		} else if ct != "text/plain" || len(atts) != 0 {
			t.Errorf("mail %d: %s with %d attachments, want the text alone", i, ct, len(atts))
		}
	}
	if len(d.phases) != 1 || d.orders[0] != 22 {
		t.Errorf("drew %v with %v results; want S1901M once, with its 22 units' results", d.phases, d.orders)
	}
}

// attachment is one attachment of a mail, as a mail client sees it.
type attachment struct {
	name, typ string
	data      []byte
}

// attachments returns the attachments of the raw mail.
func attachments(t *testing.T, raw string) []attachment {
	t.Helper()
	mr, err := gomail.CreateReader(strings.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var out []attachment
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return out
		} else if err != nil {
			t.Fatal(err)
		}
		if h, ok := p.Header.(*gomail.AttachmentHeader); ok {
			name, _ := h.Filename()
			typ, _, _ := h.ContentType()
			b, _ := io.ReadAll(p.Body)
			out = append(out, attachment{name: name, typ: typ, data: b})
		}
	}
}

// TestMapOddPositions draws, with package picture, the busiest and the
// oddest positions a player may give gmd map: Chaos with a unit of its 34
// powers in every province and every centre owned, with good and garbage
// order lines; and a retreat phase with dislodged units (one on a split
// coast, one dislodged by convoy) and stand-offs. No panic: the garbage
// is reported as by gmd adjudicate (exit 1), the picture is drawn, and
// the PNG fits in a mail.
func TestMapOddPositions(t *testing.T) {
	dir := t.TempDir()
	m, err := variants.Load("chaos")
	if err != nil {
		t.Fatal(err)
	}
	var units, centres, holds []string
	for i, p := range m.Provinces() {
		info := &m.Locs[p]
		power := m.Powers[i%len(m.Powers)].Name
		typ := "A"
		if info.Kind == judge.Sea {
			typ = "F"
		}
		units = append(units, fmt.Sprintf(`{"power": %q, "type": %q, "at": %q}`, power, typ, info.Name))
		holds = append(holds, fmt.Sprintf("%s: %s %s H", power, typ, info.Name))
		if info.Center {
			centres = append(centres, fmt.Sprintf(`%q: %q`, info.Name, power))
		}
	}
	chaos := writeTemp(t, dir, "chaos.json", `{"variant": "chaos", "phase": "S1901M", "units": [`+
		strings.Join(units, ", ")+`], "centers": {`+strings.Join(centres, ", ")+`}}`)
	retreat := writeTemp(t, dir, "retreat.json", `{"variant": "standard", "phase": "S1901R",
		"units": [{"power": "France", "type": "A", "at": "bur"}, {"power": "Russia", "type": "F", "at": "bot"},
			{"power": "England", "type": "A", "at": "bel"}],
		"dislodged": [{"power": "Germany", "type": "A", "at": "bur", "attacker_from": "par"},
			{"power": "Germany", "type": "F", "at": "stp/sc", "attacker_from": "bot"},
			{"power": "France", "type": "A", "at": "bel"}],
		"bounced": ["ruh", "fin"],
		"centers": {"par": "France", "mun": "Germany"}}`)
	for _, tc := range []struct {
		name, pos, orders string
		code              int
	}{
		{"chaos", chaos, strings.Join(holds, "\n") + "\nAustria: A Vie - Gal\n\x00\xff garbage\n", 1},
		{"chaos without orders", chaos, "", 0},
		{"retreat", retreat, "Germany: A Bur - Mun\nGermany: F Stp/sc - Lvn\nFrance: A Bel disband\n" +
			"Germany: A Bur - Par\nnonsense here\n", 1},
	} {
		ordFile := writeTemp(t, dir, "orders.txt", tc.orders)
		for _, format := range []string{"png", "svg"} {
			out, errs, code := runGMD(t, "", "map", "-position", tc.pos, "-orders", ordFile, "-format", format)
			_, wantErrs, wantCode := runGMD(t, "", "adjudicate", "-position", tc.pos, "-orders", ordFile)
			if code != tc.code || wantCode != tc.code || errs != wantErrs {
				t.Errorf("%s %s: exit %d, stderr %q; want %d and gmd adjudicate's %q (exit %d)",
					tc.name, format, code, errs, tc.code, wantErrs, wantCode)
			}
			if format == "svg" {
				checkSVG(t, []byte(out))
				continue
			}
			img, err := png.Decode(strings.NewReader(out))
			if err != nil {
				t.Fatalf("%s: no PNG: %v", tc.name, err)
			}
			if w := img.Bounds().Dx(); w != 1000 || len(out) > picture.MaxPNGBytes {
				t.Errorf("%s: PNG %d pixels wide, %d bytes; want 1000, at most %d", tc.name, w, len(out), picture.MaxPNGBytes)
			}
		}
	}
}

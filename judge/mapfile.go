package judge

// The map file format.
//
// A map file is plain text read line by line. A '#' starts a comment that
// runs to the end of the line (except inside a quoted string); blank lines
// are ignored. Fields are separated by spaces or tabs; a field that holds
// spaces is written in double quotes ("North Sea"). Every data line starts
// with a keyword:
//
//	map <title> [victory <n>|dynamic] [start <year> [spring|winter]] [construction yes|no] [builds home|one|any|captured] [centres <n>] [ties share|continue] [neutrals hold|rebuild] [lead <n>] [wraps yes|no]
//	base <variant>
//	power <name> <adjective> <letter>
//	province <id> <kind> <sc|-> <home|-> <full name> [alias ...]
//	home <id> <power|->
//	centre <id> yes|no
//	coast <id>/<coast> <full name>
//	army <id>: <id> ...
//	fleet <loc>: <loc> ...
//	oneway army|fleet <loc>: <loc> ...
//	unit <power|-> <A|F> <loc>
//	archipelago <id> ...
//	place <id> <x> <y>
//	unowned <id> ...
//	owned <power> <id> ...
//	impassable <id> ...
//	weak <id>: <id> ...
//	closed <id> spring|fall
//
// The map line comes once. Victory defaults to a majority of the centres
// (half of them plus one, counted from the province and centre lines) and
// start to Spring 1901; a start year may be any from 0 ("start 0", North
// Sea Wars: the first phase is S0M, "Spring of 0"). "start 1900 winter" begins with that Winter's
// adjustments (Chaos, whose powers start without units). "builds" says
// where powers may build (see BuildRule; home centres by default), and
// "centres <n>" declares the number of supply centres, which the loader
// checks against the province and centre lines. "victory dynamic" makes the count a majority of the
// centres on the board at the time, which grows as centres are built, and
// "construction yes" lets powers build new centres (both for the "34, 35,
// 36" variant; see Map.DynamicVictory and Map.Construction). "ties
// continue" plays on while the two leaders are tied (see Map.TiesContinue;
// by default, "share", every power at the victory count wins). "lead <n>"
// adds a second way to win, by the position (Twenty Twenty: see
// Map.VictoryLead): a power that owns n more centres than any other power
// at the end of the first year wins, and the lead it needs shrinks by one
// each year after, to one centre. "wraps yes" says that the board is a
// band round the globe whose east and west edges meet (World, Asia,
// Twenty Twenty, Youngstown Redux; see Map.Wraps). Powers are
// numbered in the order of their lines, and that order is the order of
// every report. A power's letter is one letter or digit, case ignored,
// and never M or O, which stand for the master and the observers.
//
// A province id is lower-case letters and digits ("lon"). Its kind is land
// (inland: armies only), sea (fleets only) or coast (both). The third field
// is "sc" for a supply centre; the fourth names the power whose home
// country holds the province, centre or not, or is "-". The full name and
// any aliases follow; each must be unique on the map once case, spaces,
// dots, apostrophes, hyphens and underscores are ignored.
//
// A coast line splits a coastal province: "coast stp/nc ..." gives St
// Petersburg a north coast. A fleet then stands on, and moves between, the
// coasts, never the province itself.
//
// An army line lists the provinces an army may move to from its province;
// a fleet line lists the places a fleet may move to from its exact place (a
// coast of a split province, or a sea or coastal province). The loader
// takes every line literally and adds no reverse direction: each direction
// is written out, so that a map can be checked for symmetry rather than
// have it assumed.
//
// A oneway line declares moves that go one way only: "oneway fleet cns:
// woo iro gra" says that the fleet moves from cns to woo, iro and gra,
// which the fleet line of cns must list, have no way back, and that the
// lines of woo, iro and gra must not list cns (North Sea Wars: a fleet in
// the Central North Sea may sail into the trade centres, and nothing ever
// comes back). Every other edge must be written both ways. A convoy goes
// the direction of its moves: an army steps from its coast onto the first
// fleet's sea, from sea to sea, and from the last sea onto its
// destination, so no army is convoyed back along a one-way move.
//
// An archipelago line names coastal provinces that count as sea for
// convoys: a fleet there may convoy, as from a sea, while armies may still
// stand there (Baleares in the Ancient Mediterranean). Whether an army may
// walk in from the mainland is the army lines' business, as everywhere.
//
// A place line says where a schematic picture of the board draws a
// province (LocInfo.At), for a variant drawn without geometry of its own
// (package mapgeo): x and y are whole numbers from 0 to MaxPlace, x to the
// right and y down, in a box MaxPlace units wide. Places are per province,
// never per coast, and a map places every province or none (see
// Map.HasPlaces); tools/layout writes them.
//
// A unit line places a unit of the starting position. The centres owned at
// the start are the home centres, except those an unowned line names:
// "unowned bud vie" leaves them owned by nobody at the start, home centres
// all the same, which their power must take before it may build there
// (1898, where each power starts with one unit and one centre).
// "owned France bud tri vie" gives supply centres to a power at the
// start that is not their home power (the Shift variants, where each
// power's units start in another's home country and hold its centres):
// the centres stay the home centres of their own power, which must take
// them back before it may build there. A centre is named at most once
// by the unowned and owned lines together.
//
// An impassable line names inland provinces no unit may enter or stand in
// (Switzerland, on a board that names it): they are on the board, so that
// orders name them and pictures draw them, but no army or fleet line, unit
// line or centre may name them, and a move there is void.
//
// A weak line declares army moves, written in the army lines, that are
// weak crossings (Loeb9's straits, from Naples to Sicily and from Cordoba
// to North Africa; see Map.WeakCrossing): "weak nap: sic" makes the move
// from nap to sic one, and "weak sic: nap" the way back. An army crossing
// adds no strength of its own, only its supports'; no unit supports or
// retreats across it; and without support it neither cuts a support nor
// leaves a stand-off.
//
// A closed line closes a province in one season (Loeb9's Arctic Ocean,
// frozen in the Fall: "closed arc fall"; see LocInfo.ClosedIn): in that
// season's movement and retreat phases no unit may move, retreat or be
// supported into it, and a unit there may only hold.
//
// A canal needs no line of its own: it is a coastal province, without split
// coasts, whose fleet line lists the waters on both sides (Kiel and
// Constantinople on the standard board), so that a fleet sails from one
// sea into it and on to the other, one move each, and armies cross it as
// any land.
//
// A unit line whose power is "-" places a neutral unit ("unit - A lot":
// Western World 901's neutral armies), which belongs to no power: it takes
// no orders and holds, any power may support it to hold, it counts as
// nobody's unit, and when dislodged it is destroyed without a retreat, so
// that a neutral centre it holds must be taken by dislodging it (see
// Unit.Neutral). "neutrals rebuild" on the map line brings each one back
// to its place as a year ends if the place is empty and, being a centre,
// is owned by nobody (Map.NeutralsRebuild); by default, "neutrals hold",
// a neutral unit destroyed is gone. No power may be called Neutral, the
// name reports give these units.
//
// "base standard" builds the map on the standard map's board: its
// province, coast, army, fleet, oneway, archipelago, place and impassable lines, which
// the map may not have
// itself. The map declares its own map line, powers and units. A province
// of the base in the home country of a power the map does not declare
// belongs to no home country; "home <id> <power|->" and "centre <id>
// yes|no" change a province's home country and whether it is a supply
// centre. A base map may not itself have a base.
//
// A power letter is a letter or a digit (Chaos has 34 powers), never M or
// O, which sign on the master and the observers. After the lines, the
// board as a whole is checked: every edge must be written both ways unless
// a oneway line declares it, and
// every coast (a coastal province without split coasts, or a split coast)
// must have a fleet edge to a sea.
//
// Lines may come in any order: every reference is resolved after the
// whole file has been read. Provinces are numbered in the order of their
// lines, and coasts after all provinces.

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MapError is a mistake in a map file.
type MapError struct {
	File string // "standard.map"
	Line int    // 1-based; 0 for a mistake that belongs to no one line
	Msg  string
}

// Error returns "file:line: message", the form editors and compilers use,
// so that a map author can jump to the line.
func (e *MapError) Error() string {
	if e.Line == 0 {
		return e.File + ": " + e.Msg
	}
	return e.File + ":" + strconv.Itoa(e.Line) + ": " + e.Msg
}

// maxMapErrors bounds the errors ParseMap reports, since one early mistake
// (a misspelt province line) can make every later reference to it fail.
const maxMapErrors = 20

// ParseMap reads a map file (format above) for the variant called name
// ("standard") and builds its Map. Errors name the file as name + ".map"
// with the line number; when there are several, the result joins them in
// line order, each a *MapError. A map with a base line needs ParseMapFrom.
func ParseMap(name string, src []byte) (*Map, error) {
	return ParseMapFrom(name, src, nil)
}

// MapSource returns the file name and text of the map called name, for the
// base line of another map; variants.Source is the one for the embedded
// maps.
type MapSource func(name string) (file string, src []byte, err error)

// ParseMapFrom is ParseMap for a map that may be built on another: base
// finds the map a base line names (nil refuses every base line).
func ParseMapFrom(name string, src []byte, base MapSource) (*Map, error) {
	p := &mapParser{
		file:  name + ".map",
		own:   name + ".map",
		names: map[string]nameDef{},
	}
	p.lines = p.read(p.own, src)
	p.readBase(base)
	p.b = NewMapBuilder(name, "")
	p.b.m.Base = p.base
	// Each pass depends only on the ones before it, so that lines may come
	// in any order.
	p.each("map", p.mapLine)
	p.each("power", p.power)
	p.each("province", p.province)
	p.each("home", p.home)
	p.each("centre", p.centre)
	p.each("coast", p.coast)
	p.each("impassable", p.impassable)
	p.each("army", func(l srcLine) { p.adjacency(l, false) })
	p.each("fleet", func(l srcLine) { p.adjacency(l, true) })
	p.each("oneway", p.oneway)
	p.each("weak", p.weak)
	p.each("closed", p.closed)
	p.each("unit", p.unit)
	p.each("unowned", p.unowned)
	p.each("owned", p.owned)
	p.each("archipelago", p.archipelago)
	p.each("place", p.place)
	p.file = p.own
	p.finish()
	if len(p.errs) == 0 {
		// Checks of the whole board, made only on a file without other
		// mistakes: a line in error leaves edges out, and every one would
		// be reported again here.
		p.checkBoard()
		p.checkPlaces()
	}
	if len(p.errs) > 0 {
		return nil, p.err()
	}
	m, err := p.b.Build()
	if err != nil {
		// The checks above should have caught everything the builder
		// rejects; say where the message comes from all the same.
		return nil, &MapError{File: p.file, Msg: err.Error()}
	}
	return m, nil
}

// srcLine is one data line, split into fields.
type srcLine struct {
	file string // the file it comes from: the map's own, or its base's
	n    int
	f    []string
}

// nameDef records who first used a normalized name, for the message about
// a second use.
type nameDef struct {
	loc  string
	line int
}

type mapParser struct {
	file  string // the file of the line being read, which errors name
	own   string // the map's own file
	base  string // the variant named by the base line, or ""
	based bool   // the map has a base line, loaded or not
	lines []srcLine
	errs  []*MapError
	b     *MapBuilder

	mapLineNo  int
	victory    int
	powerLine  map[string]int // normalized power word → line
	names      map[string]nameDef
	armyLine   map[Loc]int
	fleetLine  map[Loc]int
	unitLine   map[Loc]int
	numCenters int
	centres    int // the count the map line declares, 0 for none
	// armyEdges and fleetEdges are the edges read, with their lines, for
	// the symmetry check.
	armyEdges, fleetEdges []lineEdge
	// oneWay holds the moves that oneway lines declare, with their lines.
	oneWay map[oneWayMove]int
	// homeLine and centreLine record the home and centre lines, by
	// province, so that a second one is refused.
	homeLine, centreLine map[Loc]int
	// placeLines records the place lines, by province.
	placeLines map[Loc]int
	// unownedLine records the home centres of unowned lines, by province.
	unownedLine map[Loc]int
}

// oneWayMove is a move declared one-way.
type oneWayMove struct {
	fleet bool
	a, b  Loc
}

// lineEdge is one adjacency read from a line.
type lineEdge struct {
	a, b Loc
	line int
}

func (p *mapParser) errorf(line int, format string, args ...any) {
	p.errs = append(p.errs, &MapError{File: p.file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

func (p *mapParser) err() error {
	slices.SortStableFunc(p.errs, func(a, b *MapError) int { return a.Line - b.Line })
	if len(p.errs) > maxMapErrors {
		p.errs = append(p.errs[:maxMapErrors], &MapError{File: p.file, Msg: "too many errors"})
	}
	if len(p.errs) == 1 {
		return p.errs[0]
	}
	errs := make([]error, len(p.errs))
	for i, e := range p.errs {
		errs[i] = e
	}
	return errors.Join(errs...)
}

// each runs fn on every line that starts with keyword kw, the base map's
// lines first, with errors naming the line's file.
func (p *mapParser) each(kw string, fn func(srcLine)) {
	for _, l := range p.lines {
		if l.f[0] == kw {
			p.file = l.file
			fn(l)
		}
	}
}

var mapKeywords = []string{"map", "base", "power", "province", "home", "centre", "coast", "army", "fleet", "oneway", "unit", "archipelago", "place", "unowned", "owned", "impassable", "weak", "closed"}

// boardKeywords are the lines a map built on another takes from it, and
// may not have itself.
var boardKeywords = []string{"province", "coast", "army", "fleet", "oneway", "archipelago", "place", "impassable", "weak", "closed"}

// readBase reads the map named by the base line, if there is one, and
// puts its board lines (boardKeywords) before the map's own.
func (p *mapParser) readBase(load MapSource) {
	var at int
	for _, l := range p.lines {
		if l.f[0] != "base" {
			continue
		}
		if at != 0 {
			p.errorf(l.n, "second base line (first at line %d)", at)
			continue
		}
		at, p.based = l.n, true
		if len(l.f) != 2 {
			p.errorf(l.n, "base line needs 1 field: base <variant>")
			continue
		}
		p.base = l.f[1]
	}
	if p.base == "" {
		return
	}
	var own []srcLine
	for _, l := range p.lines {
		if slices.Contains(boardKeywords, l.f[0]) {
			p.errorf(l.n, "%s line in a map built on %s, which gives the board: change it with home and centre lines, or copy the board", l.f[0], p.base)
			continue
		}
		own = append(own, l)
	}
	if load == nil {
		p.errorf(at, "base %s: this loader reads no other map", p.base)
		return
	}
	file, src, err := load(p.base)
	if err != nil {
		p.errorf(at, "base %s: %v", p.base, err)
		return
	}
	var board []srcLine
	var errs []*MapError
	p.errs, errs = nil, p.errs
	for _, l := range p.read(file, src) {
		switch {
		case l.f[0] == "base":
			p.errorf(at, "base %s is itself built on another map (%s:%d): name that one", p.base, file, l.n)
		case slices.Contains(boardKeywords, l.f[0]):
			board = append(board, l)
		}
	}
	if len(p.errs) > 0 {
		p.errs = append(errs, p.errs...)
		return
	}
	p.errs = errs
	p.lines = append(board, own...)
}

// read splits src, the text of file, into data lines, reporting unknown
// keywords and bad quoting at once.
func (p *mapParser) read(file string, src []byte) []srcLine {
	p.file = file
	defer func() { p.file = p.own }()
	var lines []srcLine
	for i, text := range strings.Split(string(src), "\n") {
		n := i + 1
		f, err := splitFields(strings.TrimSuffix(text, "\r"))
		if err != nil {
			p.errorf(n, "%v", err)
			continue
		}
		if len(f) == 0 {
			continue
		}
		if !slices.Contains(mapKeywords, f[0]) {
			p.errorf(n, "unknown keyword %q (want %s)", f[0], strings.Join(mapKeywords, ", "))
			continue
		}
		lines = append(lines, srcLine{file, n, f})
	}
	return lines
}

// splitFields splits a line into fields at spaces and tabs, keeping quoted
// strings whole and dropping a trailing comment.
func splitFields(s string) ([]string, error) {
	var f []string
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == ' ' || c == '\t':
			i++
		case c == '#':
			return f, nil
		case c == '"':
			j := strings.IndexByte(s[i+1:], '"')
			if j < 0 {
				return nil, errors.New("missing closing quote")
			}
			end := i + 1 + j + 1
			if end < len(s) && s[end] != ' ' && s[end] != '\t' && s[end] != '#' {
				return nil, fmt.Errorf("text right after the quoted string %s", s[i:end])
			}
			f = append(f, s[i+1:end-1])
			i = end
		default:
			j := i
			for j < len(s) && s[j] != ' ' && s[j] != '\t' && s[j] != '#' && s[j] != '"' {
				j++
			}
			if j < len(s) && s[j] == '"' {
				return nil, fmt.Errorf("quote inside the field %s", s[i:j+1])
			}
			f = append(f, s[i:j])
			i = j
		}
	}
	return f, nil
}

// mapUsage is the form of the map line, for its error messages.
const mapUsage = "map <title> [victory <n>|dynamic] [start <year> [spring|winter]] [construction yes|no] [builds home|one|any|captured] [centres <n>] [ties share|continue] [neutrals hold|rebuild] [lead <n>]"

func (p *mapParser) mapLine(l srcLine) {
	if l.file != p.own {
		return // the base map's own title and settings
	}
	if p.mapLineNo != 0 {
		p.errorf(l.n, "second map line (first at line %d)", p.mapLineNo)
		return
	}
	p.mapLineNo = l.n
	if len(l.f) < 2 || l.f[1] == "" {
		p.errorf(l.n, "map line needs a title: %s", mapUsage)
		return
	}
	p.b.m.Title = l.f[1]
	seen := map[string]bool{}
	for i := 2; i < len(l.f); i += 2 {
		key := l.f[i]
		want, known := mapSettings[key]
		if !known {
			p.errorf(l.n, "unknown map setting %q (want victory, start, construction, builds, centres, ties, neutrals or lead)", key)
			return
		}
		if seen[key] {
			p.errorf(l.n, "%s given twice", key)
			return
		}
		seen[key] = true
		if i+1 >= len(l.f) {
			p.errorf(l.n, "%s needs %s", key, want)
			return
		}
		val := l.f[i+1]
		switch key {
		case "construction", "ties", "neutrals", "wraps":
			// A switch: its default, or the value that turns it on.
			off, on, set := "no", "yes", p.b.AllowConstruction
			switch key {
			case "ties":
				off, on, set = "share", "continue", p.b.SetTiesContinue
			case "neutrals":
				off, on, set = "hold", "rebuild", p.b.SetNeutralsRebuild
			case "wraps":
				off, on, set = "no", "yes", p.b.SetWraps
			}
			switch val {
			case on:
				set()
			case off:
			default:
				p.errorf(l.n, "%s %q: want %s", key, val, mapSettings[key])
				return
			}
			continue
		case "builds":
			r, err := ParseBuildRule(val)
			if err != nil || val != r.String() {
				p.errorf(l.n, "builds %q: want %s", val, BuildRuleWords)
				return
			}
			p.b.SetBuilds(r)
			continue
		case "victory":
			if val == "dynamic" {
				p.b.SetDynamicVictory()
				continue
			}
		}
		n, err := strconv.Atoi(val)
		switch {
		case key == "start" && (err != nil || n < 0 || n > 99999 || val[0] == '+' || val[0] == '-'):
			// Year 0 is a year (North Sea Wars); the bound is ParsePhase's.
			p.errorf(l.n, "start %q is not a year from 0 to 99999", val)
			return
		case key != "start" && (err != nil || n <= 0):
			p.errorf(l.n, "%s %q is not a positive number", key, val)
			return
		}
		switch key {
		case "victory":
			p.victory = n
			p.b.SetVictory(n)
		case "centres":
			p.centres = n
		case "lead":
			p.b.SetVictoryLead(n)
		case "start":
			p.b.SetStartYear(n)
			// An optional season follows the year.
			if i+2 < len(l.f) {
				switch l.f[i+2] {
				case "spring":
					p.b.SetStartSeason(Spring)
					i++
				case "winter":
					p.b.SetStartSeason(Winter)
					i++
				}
			}
		}
	}
}

// mapSettings are the settings of the map line, each with what its value
// must be.
var mapSettings = map[string]string{
	"victory":      `a number or "dynamic"`,
	"start":        "a number",
	"construction": `"yes" or "no"`,
	"builds":       BuildRuleWords,
	"lead":         "a number",
	"centres":      "a number",
	"ties":         `"share" or "continue"`,
	"neutrals":     `"hold" or "rebuild"`,
	"wraps":        `"yes" or "no"`,
}

func (p *mapParser) power(l srcLine) {
	if l.file != p.own {
		return // a map built on another declares its own powers
	}
	if len(l.f) != 4 {
		p.errorf(l.n, "power line needs 3 fields: power <name> <adjective> <letter>")
		return
	}
	name, adj, letter := l.f[1], l.f[2], l.f[3]
	if len(letter) != 1 || !isASCIILetter(letter[0]) && !isDigit(letter[0]) {
		p.errorf(l.n, "power letter %q is not one letter or digit", letter)
		return
	}
	if c := letter[0] | 0x20; c == 'm' || c == 'o' {
		// "SIGNON Mgame" signs on the master and "SIGNON Ogame" an
		// observer, and PRESS TO M goes to the master: njudge keeps both
		// letters out of every variant, and so does gmd.
		p.errorf(l.n, "power letter %q is reserved: M is the master's and O the observers'", letter)
		return
	}
	if strings.EqualFold(name, Neutral) || strings.EqualFold(adj, Neutral) {
		// Reports and positions call the units of no power so.
		p.errorf(l.n, "power name %q is reserved for neutral units", Neutral)
		return
	}
	if len(name) < 2 || len(adj) < 2 {
		// A one-letter name or adjective would read as another power's
		// letter.
		p.errorf(l.n, "power name and adjective need at least two letters")
		return
	}
	if p.powerLine == nil {
		p.powerLine = map[string]int{}
	}
	for _, w := range []string{name, adj, strings.ToUpper(letter)} {
		k := strings.ToLower(w)
		if first, ok := p.powerLine[k]; ok {
			p.errorf(l.n, "power name %q already used (line %d)", w, first)
			return
		}
	}
	if len(p.b.m.Powers) >= int(NoPower) {
		p.errorf(l.n, "too many powers")
		return
	}
	for _, w := range []string{name, adj, letter} {
		p.powerLine[strings.ToLower(w)] = l.n
	}
	p.b.AddPower(name, adj, strings.ToUpper(letter)[0])
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// isDigit reports whether c is an ASCII digit: njudge's Chaos gives its
// 34 powers the 24 letters left after M and O and the ten digits.
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// validID reports whether s is a canonical id: lower-case letters and
// digits, starting with a letter. Such an id is its own normalized name,
// so Lookup finds it as written.
func validID(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

var kindWords = map[string]Kind{"land": Land, "sea": Sea, "coast": Coast}

func (p *mapParser) province(l srcLine) {
	if len(l.f) < 6 {
		p.errorf(l.n, "province line needs at least 5 fields: province <id> <kind> <sc|-> <home|-> <full name> [alias ...]")
		return
	}
	id, kindWord, sc, home, full, aliases := l.f[1], l.f[2], l.f[3], l.f[4], l.f[5], l.f[6:]
	if !validID(id) {
		p.errorf(l.n, "province id %q: want lower-case letters and digits", id)
		return
	}
	kind, ok := kindWords[kindWord]
	if !ok {
		p.errorf(l.n, "province %s: kind %q: want land, sea or coast", id, kindWord)
		return
	}
	if sc != "sc" && sc != "-" {
		p.errorf(l.n, "province %s: centre field %q: want sc or -", id, sc)
		return
	}
	owner := NoPower
	if home != "-" {
		owner, ok = p.b.Power(home)
		switch {
		case !ok && l.file != p.own:
			// The base map's home country of a power this map does not
			// have belongs to nobody.
			owner = NoPower
		case !ok:
			p.errorf(l.n, "province %s: unknown power %q", id, home)
			return
		}
	}
	if d, dup := p.names[id]; dup && d.loc == id {
		p.errorf(l.n, "province %s given twice (first at line %d)", id, d.line)
		return
	}
	if !p.checkNames(l.n, id, append([]string{id, full}, aliases...)) {
		return
	}
	if len(p.b.m.Locs) >= int(NoLoc) {
		p.errorf(l.n, "too many places")
		return
	}
	p.b.AddProvince(id, full, kind, sc == "sc", owner, aliases...)
	if sc == "sc" {
		p.numCenters++
	}
}

// checkNames checks that no name of the place is empty or already names
// another place, and records them.
func (p *mapParser) checkNames(line int, id string, names []string) bool {
	ok := true
	for _, s := range names {
		k := NormalizeName(s)
		if k == "" {
			p.errorf(line, "%s: empty name %q", id, s)
			ok = false
			continue
		}
		if strings.ContainsAny(k, "/()") {
			// The order parser splits coasts at these characters.
			p.errorf(line, "%s: name %q may not contain / or parentheses", id, s)
			ok = false
			continue
		}
		if i := strings.IndexFunc(s, func(r rune) bool { return !NameChar(r) }); i >= 0 {
			r, _ := utf8.DecodeRuneInString(s[i:])
			p.errorf(line, "%s: name %q holds %q, which no order can: a name is letters, digits, spaces, dots, apostrophes and hyphens", id, s, r)
			ok = false
			continue
		}
		if d, dup := p.names[k]; dup && d.loc != id {
			p.errorf(line, "%s: name %q already names %s (line %d)", id, s, d.loc, d.line)
			ok = false
		}
	}
	if ok {
		for _, s := range names {
			p.names[NormalizeName(s)] = nameDef{id, line}
		}
	}
	return ok
}

// home reads "home <province> <power|->", which puts a province in a
// power's home country, or in none, over what its province line says.
func (p *mapParser) home(l srcLine) {
	if len(l.f) != 3 {
		p.errorf(l.n, "home line needs 2 fields: home <province> <power|->")
		return
	}
	at, ok := p.overridden(l, "home", &p.homeLine)
	if !ok {
		return
	}
	owner := NoPower
	if l.f[2] != "-" {
		if owner, ok = p.b.Power(l.f[2]); !ok {
			p.errorf(l.n, "home %s: unknown power %q", l.f[1], l.f[2])
			return
		}
	}
	p.b.m.Locs[at].Home = owner
}

// centre reads "centre <province> yes|no", which makes a province a
// supply centre, or no longer one, over what its province line says.
func (p *mapParser) centre(l srcLine) {
	if len(l.f) != 3 || l.f[2] != "yes" && l.f[2] != "no" {
		p.errorf(l.n, "centre line needs 2 fields: centre <province> yes|no")
		return
	}
	at, ok := p.overridden(l, "centre", &p.centreLine)
	if !ok {
		return
	}
	li := &p.b.m.Locs[at]
	if li.Kind == Sea && l.f[2] == "yes" {
		p.errorf(l.n, "centre %s: %s is sea", li.Name, li.Name)
		return
	}
	switch c := l.f[2] == "yes"; {
	case c && !li.Center:
		p.numCenters++
	case !c && li.Center:
		p.numCenters--
	}
	li.Center = l.f[2] == "yes"
}

// overridden resolves the province of a home or centre line, refusing a
// second line of the kind for it.
func (p *mapParser) overridden(l srcLine, what string, seen *map[Loc]int) (Loc, bool) {
	at, ok := p.lookupLoc(l.f[1])
	if !ok || p.b.m.Locs[at].Province != at {
		p.errorf(l.n, "unknown province %q in %s line", l.f[1], what)
		return NoLoc, false
	}
	if *seen == nil {
		*seen = map[Loc]int{}
	}
	if first, dup := (*seen)[at]; dup {
		p.errorf(l.n, "second %s line for %s (first at line %d)", what, l.f[1], first)
		return NoLoc, false
	}
	(*seen)[at] = l.n
	return at, true
}

func (p *mapParser) coast(l srcLine) {
	if len(l.f) != 3 {
		p.errorf(l.n, "coast line needs 2 fields: coast <province>/<coast> <full name>")
		return
	}
	id, full := l.f[1], l.f[2]
	prov, c, ok := strings.Cut(id, "/")
	if !ok || !validID(c) {
		p.errorf(l.n, "coast %q: want <province>/<coast>, as stp/nc", id)
		return
	}
	pl, ok := p.b.Loc(prov)
	if !ok || p.b.m.Locs[pl].Name != prov {
		p.errorf(l.n, "unknown province %q in coast", prov)
		return
	}
	if k := p.b.m.Locs[pl].Kind; k != Coast {
		p.errorf(l.n, "coast %s on %s, which is %s", id, prov, k)
		return
	}
	if full == "" {
		p.errorf(l.n, "coast %s: empty full name", id)
		return
	}
	if d, dup := p.names[id]; dup {
		p.errorf(l.n, "coast %s given twice (first at line %d)", id, d.line)
		return
	}
	if len(p.b.m.Locs) >= int(NoLoc) {
		p.errorf(l.n, "too many places")
		return
	}
	p.names[id] = nameDef{id, l.n}
	p.b.AddCoast(pl, c, full)
}

// lookupLoc resolves a place written in an adjacency or unit line: a
// canonical id, or a province's canonical id and a coast. Full names and
// aliases are not accepted there, so that the file reads the same way to
// everyone.
func (p *mapParser) lookupLoc(s string) (Loc, bool) {
	l, ok := p.b.Loc(s)
	if !ok || p.b.m.Locs[l].Name != s {
		return NoLoc, false
	}
	return l, true
}

func (p *mapParser) adjacency(l srcLine, fleet bool) {
	what, seen := "army", &p.armyLine
	if fleet {
		what, seen = "fleet", &p.fleetLine
	}
	from, f, ok := p.splitFrom(l.n, what, what, l.f[1:])
	if !ok {
		return
	}
	a, ok := p.lookupLoc(from)
	if !ok {
		p.errorf(l.n, "unknown %s %q in %s adjacency", placeWord(fleet), from, what)
		return
	}
	if !p.canMove(l.n, what, a, fleet) {
		return
	}
	if *seen == nil {
		*seen = map[Loc]int{}
	}
	if first, dup := (*seen)[a]; dup {
		p.errorf(l.n, "second %s line for %s (first at line %d)", what, from, first)
		return
	}
	(*seen)[a] = l.n
	if len(f) == 0 {
		p.errorf(l.n, "%s adjacency of %s lists no neighbour", what, from)
		return
	}
	var done []Loc
	for _, to := range f {
		b, ok := p.lookupLoc(to)
		if !ok {
			p.errorf(l.n, "unknown %s %q in %s adjacency", placeWord(fleet), to, what)
			continue
		}
		if !p.canMove(l.n, what, b, fleet) {
			continue
		}
		switch {
		case p.b.m.Province(b) == p.b.m.Province(a):
			p.errorf(l.n, "%s adjacency of %s lists its own province", what, from)
		case slices.Contains(done, b):
			p.errorf(l.n, "%s adjacency of %s lists %s twice", what, from, to)
		default:
			done = append(done, b)
			if fleet {
				p.b.AddFleetEdge(a, b)
				p.fleetEdges = append(p.fleetEdges, lineEdge{a, b, l.n})
			} else {
				p.b.AddArmyEdge(a, b)
				p.armyEdges = append(p.armyEdges, lineEdge{a, b, l.n})
			}
		}
	}
}

// splitFrom splits the fields after the keyword of an adjacency or oneway
// line, "<from>: <to> ...", into the place before the colon and the rest;
// keyword is the line's own ("oneway fleet") and what the kind of move.
func (p *mapParser) splitFrom(line int, keyword, what string, f []string) (string, []string, bool) {
	if len(f) == 0 {
		p.errorf(line, "%s line needs a place: %s <place>: <place> ...", keyword, keyword)
		return "", nil, false
	}
	from := f[0]
	switch {
	case strings.HasSuffix(from, ":") && from != ":":
		return strings.TrimSuffix(from, ":"), f[1:], true
	case len(f) > 1 && f[1] == ":":
		return from, f[2:], true
	}
	p.errorf(line, "missing \":\" after %q in %s adjacency", from, what)
	return "", nil, false
}

// oneway reads "oneway army|fleet <from>: <to> ...", which declares that
// the moves from <from> to each <to>, written in the army or fleet line of
// <from>, have no way back (see the format above).
func (p *mapParser) oneway(l srcLine) {
	const usage = "oneway army|fleet <place>: <place> ..."
	if len(l.f) < 2 || l.f[1] != "army" && l.f[1] != "fleet" {
		p.errorf(l.n, "oneway line needs army or fleet: %s", usage)
		return
	}
	fleet := l.f[1] == "fleet"
	what, edges := l.f[1], p.armyEdges
	if fleet {
		edges = p.fleetEdges
	}
	from, f, ok := p.splitFrom(l.n, "oneway "+what, "oneway "+what, l.f[2:])
	if !ok {
		return
	}
	a, ok := p.lookupLoc(from)
	if !ok {
		p.errorf(l.n, "unknown %s %q in oneway line", placeWord(fleet), from)
		return
	}
	if len(f) == 0 {
		p.errorf(l.n, "oneway %s %s lists no move: %s", what, from, usage)
		return
	}
	if p.oneWay == nil {
		p.oneWay = map[oneWayMove]int{}
	}
	for _, to := range f {
		b, ok := p.lookupLoc(to)
		if !ok {
			p.errorf(l.n, "unknown %s %q in oneway line", placeWord(fleet), to)
			continue
		}
		mv := oneWayMove{fleet, a, b}
		if first, dup := p.oneWay[mv]; dup {
			p.errorf(l.n, "oneway %s %s: %s declared twice (first at line %d)", what, from, to, first)
			continue
		}
		if !slices.ContainsFunc(edges, func(e lineEdge) bool { return e.a == a && e.b == b }) {
			p.errorf(l.n, "oneway %s %s: %s: the %s line of %s does not list %s: a oneway line declares a move written there", what, from, to, what, from, to)
			continue
		}
		p.oneWay[mv] = l.n
		t := Army
		if fleet {
			t = Fleet
		}
		p.b.DeclareOneWay(t, a, b)
	}
}

// weak reads "weak <from>: <to> ...", which declares the army moves from
// <from> to each <to>, written in the army line of <from>, weak crossings
// (see the format above).
func (p *mapParser) weak(l srcLine) {
	const usage = "weak <province>: <province> ..."
	from, f, ok := p.splitFrom(l.n, "weak", "weak", l.f[1:])
	if !ok {
		return
	}
	a, ok := p.lookupLoc(from)
	if !ok {
		p.errorf(l.n, "unknown province %q in weak line", from)
		return
	}
	if len(f) == 0 {
		p.errorf(l.n, "weak %s lists no move: %s", from, usage)
		return
	}
	for _, to := range f {
		b, ok := p.lookupLoc(to)
		if !ok {
			p.errorf(l.n, "unknown province %q in weak line", to)
			continue
		}
		if p.b.m.WeakCrossing(a, b) {
			p.errorf(l.n, "weak %s: %s declared twice", from, to)
			continue
		}
		if !slices.ContainsFunc(p.armyEdges, func(e lineEdge) bool { return e.a == a && e.b == b }) {
			p.errorf(l.n, "weak %s: %s: the army line of %s does not list %s: a weak line declares a move written there", from, to, from, to)
			continue
		}
		p.b.DeclareWeak(a, b)
	}
}

// closed reads "closed <province> spring|fall" (see the format above).
func (p *mapParser) closed(l srcLine) {
	const usage = "closed <province> spring|fall"
	if len(l.f) != 3 {
		p.errorf(l.n, "closed line needs a province and a season: %s", usage)
		return
	}
	at, ok := p.lookupLoc(l.f[1])
	if !ok || p.b.m.Locs[at].Province != at {
		p.errorf(l.n, "unknown province %q in closed line", l.f[1])
		return
	}
	var season Season
	switch l.f[2] {
	case "spring":
		season = Spring
	case "fall":
		season = Fall
	default:
		p.errorf(l.n, "closed %s %q: want spring or fall", l.f[1], l.f[2])
		return
	}
	if p.b.m.Locs[at].ClosedIn != 0 {
		p.errorf(l.n, "closed %s given twice", l.f[1])
		return
	}
	p.b.SetClosed(at, season)
}

func placeWord(fleet bool) string {
	if fleet {
		return "place"
	}
	return "province"
}

// canMove checks that a unit of the line's kind may stand at l, the one
// test that both ends of every edge must pass.
func (p *mapParser) canMove(line int, what string, l Loc, fleet bool) bool {
	m := p.b.m
	li := &m.Locs[l]
	switch {
	case !fleet && li.Province != l:
		p.errorf(line, "army adjacency names the coast %s: armies move between provinces", li.Name)
	case !fleet && li.Kind == Sea:
		p.errorf(line, "army adjacency names %s, which is sea", li.Name)
	case fleet && li.Kind == Land:
		p.errorf(line, "fleet adjacency names %s, which is inland", li.Name)
	case fleet && len(li.Coasts) > 0:
		p.errorf(line, "fleet adjacency names %s, which has split coasts (%s)", li.Name, coastList(m, l))
	case li.Impassable:
		p.errorf(line, "%s adjacency names %s, which is impassable", what, li.Name)
	default:
		return true
	}
	return false
}

func (p *mapParser) unit(l srcLine) {
	if len(l.f) != 4 {
		p.errorf(l.n, "unit line needs 3 fields: unit <power> <A|F> <place>")
		return
	}
	pw, ok := p.b.Power(l.f[1])
	if l.f[1] == "-" {
		pw, ok = NoPower, true // a neutral unit
	}
	if !ok {
		p.errorf(l.n, "unknown power %q in unit (a neutral unit is written unit - A <place>)", l.f[1])
		return
	}
	var t UnitType
	switch l.f[2] {
	case "A", "a":
		t = Army
	case "F", "f":
		t = Fleet
	default:
		p.errorf(l.n, "unit type %q: want A or F", l.f[2])
		return
	}
	at, ok := p.lookupLoc(l.f[3])
	if !ok {
		p.errorf(l.n, "unknown place %q in unit", l.f[3])
		return
	}
	m := p.b.m
	li := &m.Locs[at]
	if !m.CanHold(t, at) {
		switch {
		case li.Impassable:
			p.errorf(l.n, "a unit cannot stand in %s, which is impassable", li.Name)
		case t == Army && li.Province != at:
			p.errorf(l.n, "an army stands in a province, not on the coast %s", li.Name)
		case t == Army:
			p.errorf(l.n, "an army cannot stand in %s, which is sea", li.Name)
		case li.Kind == Land:
			p.errorf(l.n, "a fleet cannot stand in %s, which is inland", li.Name)
		default:
			p.errorf(l.n, "a fleet in %s needs a coast (%s)", li.Name, coastList(m, at))
		}
		return
	}
	if p.unitLine == nil {
		p.unitLine = map[Loc]int{}
	}
	prov := m.Province(at)
	if first, dup := p.unitLine[prov]; dup {
		p.errorf(l.n, "second unit in %s (first at line %d)", m.Locs[prov].Name, first)
		return
	}
	p.unitLine[prov] = l.n
	p.b.AddStartUnit(pw, t, at)
}

// archipelago marks the coastal provinces of the line as archipelagos.
func (p *mapParser) archipelago(l srcLine) {
	if len(l.f) < 2 {
		p.errorf(l.n, "archipelago line needs a province: archipelago <id> ...")
		return
	}
	m := p.b.m
	for _, id := range l.f[1:] {
		at, ok := p.lookupLoc(id)
		if !ok {
			p.errorf(l.n, "unknown province %q in archipelago", id)
			continue
		}
		li := &m.Locs[at]
		switch {
		case li.Province != at:
			p.errorf(l.n, "archipelago names the coast %s: name the province", li.Name)
		case li.Kind != Coast:
			p.errorf(l.n, "archipelago %s is %s: an archipelago is a coastal province", li.Name, li.Kind)
		case len(li.Coasts) > 0:
			p.errorf(l.n, "archipelago %s has split coasts (%s)", li.Name, coastList(m, at))
		case li.Archipelago:
			p.errorf(l.n, "archipelago %s given twice", li.Name)
		default:
			p.b.SetArchipelago(at)
		}
	}
}

// provinceLine runs fn on each province of a line "<keyword> <id> ...",
// reporting an empty line and names that are no province.
func (p *mapParser) provinceLine(l srcLine, fn func(id string, at Loc, li *LocInfo)) {
	kw := l.f[0]
	if len(l.f) < 2 {
		p.errorf(l.n, "%s line needs a province: %s <id> ...", kw, kw)
		return
	}
	m := p.b.m
	for _, id := range l.f[1:] {
		at, ok := p.lookupLoc(id)
		if !ok || m.Locs[at].Province != at {
			p.errorf(l.n, "unknown province %q in %s line", id, kw)
			continue
		}
		fn(id, at, &m.Locs[at])
	}
}

// unowned reads "unowned <id> ...": home centres that nobody owns at the
// start (see MapBuilder.StartUnowned).
func (p *mapParser) unowned(l srcLine) {
	p.provinceLine(l, func(id string, at Loc, li *LocInfo) {
		switch {
		case !li.Center || li.Home == NoPower:
			p.errorf(l.n, "unowned %s: %s is no home centre, and nobody owns it at the start anyway", id, li.Name)
		case p.unownedLine[at] != 0:
			p.errorf(l.n, "unowned %s given twice (first at line %d)", id, p.unownedLine[at])
		default:
			if p.unownedLine == nil {
				p.unownedLine = map[Loc]int{}
			}
			p.unownedLine[at] = l.n
			p.b.StartUnowned(at)
		}
	})
}

// owned reads "owned <power> <id> ...": supply centres that the power
// owns at the start, not their home power (see MapBuilder.StartOwned).
func (p *mapParser) owned(l srcLine) {
	if len(l.f) < 3 {
		p.errorf(l.n, "owned line needs a power and a centre: owned <power> <id> ...")
		return
	}
	owner, ok := p.b.Power(l.f[1])
	if !ok {
		p.errorf(l.n, "owned: unknown power %q", l.f[1])
		return
	}
	centres := l
	centres.f = append([]string{"owned"}, l.f[2:]...)
	p.provinceLine(centres, func(id string, at Loc, li *LocInfo) {
		switch {
		case !li.Center:
			p.errorf(l.n, "owned %s %s: %s is no supply centre", l.f[1], id, li.Name)
		case p.unownedLine[at] != 0:
			p.errorf(l.n, "owned %s %s: its owner at the start is given twice (first at line %d)", l.f[1], id, p.unownedLine[at])
		default:
			if p.unownedLine == nil {
				p.unownedLine = map[Loc]int{}
			}
			p.unownedLine[at] = l.n
			p.b.StartOwned(at, owner)
		}
	})
}

// impassable reads "impassable <id> ...": inland provinces no unit may
// enter (see LocInfo.Impassable).
func (p *mapParser) impassable(l srcLine) {
	p.provinceLine(l, func(id string, at Loc, li *LocInfo) {
		switch {
		case li.Kind != Land:
			p.errorf(l.n, "impassable %s is %s: an impassable province is land", id, li.Kind)
		case li.Center:
			p.errorf(l.n, "impassable %s is a supply centre, which no unit could take", id)
		case li.Impassable:
			p.errorf(l.n, "impassable %s given twice", id)
		default:
			p.b.SetImpassable(at)
		}
	})
}

// finish checks what belongs to the file as a whole.
func (p *mapParser) finish() {
	switch {
	case p.mapLineNo == 0:
		p.errorf(0, "no map line")
	case len(p.b.m.Powers) == 0:
		p.errorf(0, "no power lines")
	case len(p.b.m.Locs) == 0:
		if !p.based { // a base that did not load has said why
			p.errorf(0, "no province lines")
		}
	case p.centres != 0 && p.centres != p.numCenters:
		p.errorf(p.mapLineNo, "the map line declares %d supply centres, but the province and centre lines make %d", p.centres, p.numCenters)
	case p.victory > p.numCenters:
		p.errorf(p.mapLineNo, "victory %d needs more than the %d supply centres of the map", p.victory, p.numCenters)
	}
}

// checkBoard checks the board as a whole: every edge has its way back,
// or is declared one-way and has none, and every coast touches a sea.
func (p *mapParser) checkBoard() {
	m := p.b.m
	for _, k := range []struct {
		what  string
		fleet bool
		edges []lineEdge
		lines map[Loc]int
	}{{"army", false, p.armyEdges, p.armyLine}, {"fleet", true, p.fleetEdges, p.fleetLine}} {
		back := map[lineEdge]bool{}
		for _, e := range k.edges {
			back[lineEdge{a: e.a, b: e.b}] = true
		}
		for _, e := range k.edges {
			from, to := m.Locs[e.a].Name, m.Locs[e.b].Name
			declared, isOneWay := p.oneWay[oneWayMove{k.fleet, e.a, e.b}]
			switch hasBack := back[lineEdge{a: e.b, b: e.a}]; {
			case hasBack && isOneWay:
				p.errorf(declared, "oneway %s %s: %s: the %s line of %s (line %d) lists %s, so the move goes both ways",
					k.what, from, to, k.what, to, k.lines[e.b], from)
			case hasBack || isOneWay:
			default:
				if n, ok := k.lines[e.b]; ok {
					p.errorf(e.line, "%s %s: %s is one-way: the %s line of %s (line %d) does not list %s", k.what, from, to, k.what, to, n, from)
				} else {
					p.errorf(e.line, "%s %s: %s is one-way: %s has no %s line", k.what, from, to, to, k.what)
				}
			}
		}
	}
	// A coast is a place a fleet stands on: a coastal province without
	// split coasts, or one of the split coasts. It must touch the sea,
	// directly or, up a river, by way of other coasts (Memphis on the
	// Nile in the Ancient Mediterranean); a declared one-way move from
	// the sea counts (the trade centres of North Sea Wars, which a fleet
	// enters from the sea and never leaves for it).
	reaches := make([]bool, len(m.Locs))
	for l := range m.Locs {
		reaches[l] = m.Locs[l].Kind == Sea
	}
	for changed := true; changed; {
		changed = false
		for _, e := range p.fleetEdges {
			_, oneWay := p.oneWay[oneWayMove{true, e.a, e.b}]
			if reaches[e.a] != reaches[e.b] && (reaches[e.b] || oneWay) {
				reaches[e.a], reaches[e.b], changed = true, true, true
			}
		}
	}
	for l := range m.Locs {
		li := &m.Locs[l]
		if li.Kind != Coast || len(li.Coasts) > 0 || reaches[l] {
			continue
		}
		line := p.fleetLine[Loc(l)]
		if line == 0 {
			line = p.placeLine(Loc(l))
		}
		p.errorf(line, "coast %s touches no sea: list a sea (or a coast on the way to one) in its fleet line, or make the province land", li.Name)
	}
}

// placeLine returns the line that made place l: its province or coast
// line.
func (p *mapParser) placeLine(l Loc) int {
	if d, ok := p.names[p.b.m.Locs[l].Name]; ok {
		return d.line
	}
	return 0
}

// MaxPlace is the largest coordinate of a place line: the schematic
// picture's box is MaxPlace units wide and at most MaxPlace high.
const MaxPlace = 1000

// place reads "place <id> <x> <y>", where a schematic picture draws the
// province.
func (p *mapParser) place(l srcLine) {
	if len(l.f) != 4 {
		p.errorf(l.n, "place line needs 3 fields: place <province> <x> <y>")
		return
	}
	at, ok := p.lookupLoc(l.f[1])
	if !ok {
		p.errorf(l.n, "unknown province %q in place line", l.f[1])
		return
	}
	li := &p.b.m.Locs[at]
	if li.Province != at {
		p.errorf(l.n, "place names the coast %s: a picture places the province %s", li.Name, p.b.m.Locs[li.Province].Name)
		return
	}
	var xy [2]int
	for i, s := range l.f[2:] {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n > MaxPlace {
			p.errorf(l.n, "place %s: coordinate %q: want a whole number from 0 to %d", li.Name, s, MaxPlace)
			return
		}
		xy[i] = n
	}
	if p.placeLines == nil {
		p.placeLines = map[Loc]int{}
	}
	if first, dup := p.placeLines[at]; dup {
		p.errorf(l.n, "second place line for %s (first at line %d)", li.Name, first)
		return
	}
	p.placeLines[at] = l.n
	p.b.SetPlace(at, xy[0], xy[1])
}

// checkPlaces checks that the place lines place every province or none: a
// picture with some provinces missing would draw their units nowhere.
func (p *mapParser) checkPlaces() {
	if len(p.placeLines) == 0 {
		return
	}
	var missing []string
	first := NoLoc
	for i := range p.b.m.Locs {
		l := Loc(i)
		if p.b.m.Locs[l].Province != l {
			continue
		}
		if _, ok := p.placeLines[l]; !ok {
			if first == NoLoc {
				first = l
			}
			missing = append(missing, p.b.m.Locs[l].Name)
		}
	}
	if len(missing) == 0 {
		return
	}
	const shown = 5
	list := strings.Join(missing[:min(len(missing), shown)], ", ")
	if len(missing) > shown {
		list += fmt.Sprintf(" and %d more", len(missing)-shown)
	}
	// The error names the first unplaced province's line, in its own
	// file (a base map's, for a map built on one), where the missing place
	// line would be written next to it.
	name := p.b.m.Locs[first].Name
	for _, l := range p.lines {
		if l.f[0] == "province" && l.f[1] == name {
			p.file = l.file
			p.errorf(l.n, "no place line for %s: place every province or none", list)
			p.file = p.own
			return
		}
	}
}

// Package judge holds the rules of Diplomacy: maps, units, orders, phases,
// and the adjudication of movement, retreat and adjustment phases.
//
// The package does no I/O, reads no clock and uses no randomness: the same
// position and orders always give the same result. Maps are data (see
// package judge/variants); a variant that changes a rule does so through
// the options of a Rules value, never through globals.
package judge

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Loc identifies a place on a map: a province, or one coast of a province
// with split coasts ("stp/nc"). The base province of every coast is itself a
// Loc, so a Loc is the index into Map.Locs.
type Loc uint16

// NoLoc is the zero-value-safe marker for "no location".
const NoLoc Loc = 0xFFFF

// Power identifies a great power by its index in Map.Powers.
type Power uint8

// NoPower marks an unowned centre or a province outside every home country.
// A unit of NoPower is a neutral unit (see Unit.Neutral).
const NoPower Power = 0xFF

// Neutral is the word for the units that belong to no power (Western
// World 901's neutral armies), in reports, pictures and the JSON of
// positions; no power may be called so (see Map.UnitOwner).
const Neutral = "Neutral"

// Kind says what a province is made of, which decides which units may enter.
type Kind uint8

// The province kinds.
const (
	Land  Kind = iota + 1 // inland: armies only
	Sea                   // fleets only
	Coast                 // armies and fleets
)

func (k Kind) String() string {
	switch k {
	case Land:
		return "land"
	case Sea:
		return "sea"
	case Coast:
		return "coast"
	}
	return "unknown"
}

// LocInfo describes one Loc.
type LocInfo struct {
	Name     string   // canonical short name: "lon", "stp/nc"
	FullName string   // "London", "St Petersburg (north coast)"
	Aliases  []string // other names players use, as written in the map file
	Province Loc      // the base province; equal to the Loc itself for a province
	Kind     Kind     // of the base province (a coast Loc has Kind Coast)
	Coasts   []Loc    // the split coasts of a base province, empty otherwise
	Center   bool     // a supply centre (base provinces only)
	Home     Power    // whose home country the province belongs to, or NoPower
	// Archipelago marks a coastal province that counts as sea for convoys:
	// a fleet there may convoy, as from a sea (Baleares in the Ancient
	// Mediterranean). Armies still stand in it.
	Archipelago bool
	// Impassable marks a province no unit may enter or stand in (an
	// impassable line of the map file): it is on the board, by name and
	// in pictures, but in no adjacency.
	Impassable bool
	// ClosedIn is the season (Spring or Fall) in which the province is
	// closed (a closed line of the map file: Loeb9's Arctic Ocean, frozen
	// in the Fall), or 0. In that season's movement and retreats no unit
	// may move, retreat or be supported into it, and a unit there may only
	// hold.
	ClosedIn Season
	// At is where a schematic picture of the board draws the province (a
	// place line of the map file), in a box MaxPlace units wide, x to the
	// right and y down; see Map.HasPlaces. Maps drawn from real geometry
	// (package mapgeo) need none. Two 16-bit numbers keep LocInfo as
	// small as it was without them: the adjudicator reads Locs in its
	// inner loops.
	At [2]int16
}

// PowerInfo describes a great power.
type PowerInfo struct {
	Name      string // "England"
	Adjective string // "English"
	Letter    byte   // 'E', as in "PRESS TO EG"
}

// StartUnit is a unit of the starting position.
type StartUnit struct {
	Power Power
	Type  UnitType
	Loc   Loc
}

// Map is a variant's board: places, powers, adjacency, centres and the
// starting position. A Map is immutable once built and safe for concurrent
// use.
type Map struct {
	Name           string // the variant name used on the command line: "standard"
	Title          string // "Standard"
	Locs           []LocInfo
	Powers         []PowerInfo
	VictoryCenters int         // centres needed to win (at the start, with DynamicVictory)
	StartYear      int         // 1901 in standard
	StartSeason    Season      // Spring (a movement phase) or Winter (an adjustment phase, as in Chaos)
	StartUnits     []StartUnit // the units of the first phase
	StartCenters   []Power     // owner of each province at the start, indexed by Loc: the home centres, less any the map leaves unowned
	// Builds is where the variant lets a power build (BuildHome unless its
	// map says otherwise); a game may choose another rule (Rules.Builds).
	Builds BuildRule
	// Base names the map this one is built on ("standard"), or is empty.
	Base string

	// DynamicVictory makes the victory count follow the number of supply
	// centres on the board, which grows as centres are built: a majority,
	// ceil((centres+1)/2), counted anew at the end of every year (the "34,
	// 35, 36" variant, rule 7). See Position.VictoryCenters.
	DynamicVictory bool
	// TiesContinue is a victory rule for maps whose victory count two
	// powers can reach at once ("1908 - Fall of Europe": 18 of 40): only
	// a power that leads alone wins, and while the two leaders are tied
	// at the end of a year the game goes on for another year. Without it,
	// every power at or over the count is a winner.
	TiesContinue bool
	// VictoryLead is a second victory rule, by the position (Twenty
	// Twenty): at the end of a year a power also wins when it owns more
	// centres than every other power by the lead LeadNeeded gives for
	// that year, VictoryLead in the first year and one fewer each year
	// after, never fewer than one. Zero: no such rule.
	VictoryLead int
	// Construction lets a power give up a build in a Winter to raise a new
	// supply centre in its home country (the "34, 35, 36" variant).
	Construction bool
	// NeutralsRebuild brings each neutral unit of the starting position
	// (a StartUnit of NoPower) back to its place as a year ends, when the
	// place is empty and, if it is a supply centre, nobody owns it
	// (Western World 901: a neutral army "will be rebuilt if the SC is
	// unowned during adjustment"). Without it a neutral unit destroyed is
	// gone for good.
	NeutralsRebuild bool
	// Wraps marks a board that goes round the globe, its east and west
	// edges one ocean ("wraps yes" on the map line): a schematic picture
	// draws a border between provinces at the two sides as stubs off the
	// picture's edges rather than a line right across it. On a regional
	// board (Pure) a long line is just a long border.
	Wraps bool

	// oneWay are the edges the map declares one-way (a fleet may sail from
	// the Central North Sea into the trade centres of North Sea Wars, never
	// back); every other edge is written both ways.
	oneWay []edge
	// weak are the army moves the map declares weak crossings (Loeb9's
	// Naples to Sicily): see Map.WeakCrossing.
	weak []edge

	words     int      // 64-bit words per adjacency row
	armyAdj   []uint64 // len(Locs) rows of words: army moves between provinces
	fleetAdj  []uint64 // len(Locs) rows of words: fleet moves between exact Locs
	provinces []Loc    // base provinces in Loc order
	centers   []Loc    // supply centres in Loc order
	names     map[string]Loc
	placed    bool // every province has a place line (LocInfo.At)
}

// HasPlaces reports whether the map's file places every province (LocInfo.At)
// for a schematic picture.
func (m *Map) HasPlaces() bool { return m.placed }

// StartPhase returns the first phase of a game on m: Spring movement of
// the start year, or its Winter adjustments for a map that starts with
// builds.
func (m *Map) StartPhase() Phase {
	if m.StartSeason == Winter {
		return Phase{Winter, m.StartYear, Adjustment}
	}
	return Phase{Spring, m.StartYear, Movement}
}

// LeadNeeded returns how many centres more than every other power a
// power needs at the end of year to win on a map with a lead rule
// (Map.VictoryLead): the map's lead in the start year, one fewer each
// year after, and never fewer than one; 0 on a map without the rule.
func (m *Map) LeadNeeded(year int) int {
	if m.VictoryLead == 0 {
		return 0
	}
	return max(m.VictoryLead-(year-m.StartYear), 1)
}

// NumLocs is the number of Locs, the bound of every array indexed by Loc.
func (m *Map) NumLocs() int { return len(m.Locs) }

// Provinces lists the base provinces in map order.
func (m *Map) Provinces() []Loc { return m.provinces }

// Centers lists the supply centres in map order.
func (m *Map) Centers() []Loc { return m.centers }

// Province returns the base province of l, or NoLoc for NoLoc.
func (m *Map) Province(l Loc) Loc {
	if int(l) >= len(m.Locs) {
		return NoLoc
	}
	return m.Locs[l].Province
}

// LocName returns the canonical short name of l, or "?" for NoLoc.
func (m *Map) LocName(l Loc) string {
	if int(l) >= len(m.Locs) {
		return "?"
	}
	return m.Locs[l].Name
}

// CoastName returns the coast part of the name of split coast l: "nc"
// for "stp/nc"; "" for a province. Drawn boards (package mapgeo) key a
// province's coasts by it, and pictures label them with it.
func (m *Map) CoastName(l Loc) string {
	_, c, _ := strings.Cut(m.LocName(l), "/")
	return c
}

// FullName returns the full name of l ("St Petersburg (north coast)").
func (m *Map) FullName(l Loc) string {
	if int(l) >= len(m.Locs) {
		return "?"
	}
	return m.Locs[l].FullName
}

// Lookup finds the Loc with exactly this canonical name, full name or alias.
// Case, dots and spaces are ignored. For the lenient matching used on
// players' text (longest match, suggestions) see package parser.
func (m *Map) Lookup(name string) (Loc, bool) {
	l, ok := m.names[NormalizeName(name)]
	return l, ok
}

// Names returns every normalized name of the map with its Loc, for
// parsers that build their own index.
func (m *Map) Names() map[string]Loc { return m.names }

// NormalizeName folds a place name for lookup: ASCII letters in lower
// case, with the characters that only space or join words removed (see
// NameSpacing). "St. Petersburg", "St–Petersburg" and "stpetersburg" fold
// to the same key. Slashes and parentheses are kept out of the key by the
// caller, which splits coasts first. The order parser folds the words of
// a player's text the same way, so that two names that fold alike are
// two spellings of one name to a player too.
func NormalizeName(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c >= 'A' && c <= 'Z':
				b.WriteByte(c + 'a' - 'A')
			case !NameSpacing(rune(c)):
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if !NameSpacing(r) {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// NameSpacing reports whether r only spaces or joins the words of a name,
// and so is dropped when names are compared: spacing (any Unicode space),
// dots, apostrophes (also the curly ones), underscores, hyphens and the
// typographic dashes and minus sign that mail programs put in their place,
// and the invisible zero-width spaces, joiners and byte order mark. These
// are the characters the order parser reads between or inside words.
func NameSpacing(r rune) bool {
	switch r {
	case ' ', '\t', '\v', '\f', '.', '\'', '_', '-', '\u2018', '\u2019', '\u2212', '\u200b', '\u200c', '\u200d', '\ufeff':
		return true
	}
	return r >= 0x2010 && r <= 0x2015 || r >= utf8.RuneSelf && unicode.IsSpace(r)
}

// NameChar reports whether a name may hold r: a letter, a digit, or a
// character that spaces words (NameSpacing). Any other character could
// not be written in an order.
func NameChar(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || NameSpacing(r)
}

// PowerByName finds a power by name, adjective or letter, ignoring case.
func (m *Map) PowerByName(s string) (Power, bool) {
	for i, p := range m.Powers {
		if strings.EqualFold(s, p.Name) || strings.EqualFold(s, p.Adjective) ||
			(len(s) == 1 && (s[0]|0x20) == (p.Letter|0x20)) {
			return Power(i), true
		}
	}
	return NoPower, false
}

// UnitOwner returns the name of the power a unit of power p belongs to,
// or Neutral for a neutral unit (NoPower).
func (m *Map) UnitOwner(p Power) string {
	if int(p) >= len(m.Powers) {
		return Neutral
	}
	return m.Powers[p].Name
}

// UnitAdjective returns the adjective of a unit of power p ("English
// Army"), or Neutral for a neutral unit.
func (m *Map) UnitAdjective(p Power) string {
	if int(p) >= len(m.Powers) {
		return Neutral
	}
	return m.Powers[p].Adjective
}

// HasNeutrals reports whether the map's starting position has neutral
// units.
func (m *Map) HasNeutrals() bool {
	for _, u := range m.StartUnits {
		if u.Power == NoPower {
			return true
		}
	}
	return false
}

// PowerName returns the power's name, or "Unowned" for NoPower.
func (m *Map) PowerName(p Power) string {
	if int(p) >= len(m.Powers) {
		return "Unowned"
	}
	return m.Powers[p].Name
}

func (m *Map) has(rows []uint64, a, b Loc) bool {
	if int(a) >= len(m.Locs) || int(b) >= len(m.Locs) {
		return false
	}
	return rows[int(a)*m.words+int(b)/64]&(1<<(uint(b)%64)) != 0
}

// ArmyAdjacent reports whether an army may move between the provinces of a
// and b (coasts are ignored).
func (m *Map) ArmyAdjacent(a, b Loc) bool {
	return m.has(m.armyAdj, m.Province(a), m.Province(b))
}

// FleetAdjacent reports whether a fleet at exactly a may move to exactly b.
// A fleet in a province with split coasts is at one of its coast Locs.
func (m *Map) FleetAdjacent(a, b Loc) bool { return m.has(m.fleetAdj, a, b) }

// FleetReaches reports whether a fleet at a can reach any Loc of b's province.
func (m *Map) FleetReaches(a, b Loc) bool {
	p := m.Province(b)
	if m.FleetAdjacent(a, p) {
		return true
	}
	for _, c := range m.Locs[p].Coasts {
		if m.FleetAdjacent(a, c) {
			return true
		}
	}
	return false
}

// FleetReachesFrom reports whether a fleet at some Loc of a's province
// can move to exactly b: the step an army convoyed from a takes onto the
// fleet at b. It is FleetReaches the other way round, which differs only
// on a map with one-way edges.
func (m *Map) FleetReachesFrom(a, b Loc) bool {
	p := m.Province(a)
	if m.FleetAdjacent(p, b) {
		return true
	}
	for _, c := range m.Locs[p].Coasts {
		if m.FleetAdjacent(c, b) {
			return true
		}
	}
	return false
}

// ShareShore reports whether a fleet may move, one way or the other,
// between some place of a's province and some place of b's (a coast of a
// province with split coasts, or the province itself): the provinces
// touch by water. Pictures draw such pairs as neighbours, and the
// geometry check expects a border between them.
func (m *Map) ShareShore(a, b Loc) bool {
	pa, pb := m.Province(a), m.Province(b)
	as, bs := m.Locs[pa].Coasts, m.Locs[pb].Coasts
	if len(as) == 0 {
		as = []Loc{pa}
	}
	if len(bs) == 0 {
		bs = []Loc{pb}
	}
	for _, x := range as {
		for _, y := range bs {
			if m.FleetAdjacent(x, y) || m.FleetAdjacent(y, x) {
				return true
			}
		}
	}
	return false
}

// OneWay reports whether the map declares the move of a unit of type t
// from a to b one-way: written, on purpose, without its way back.
func (m *Map) OneWay(t UnitType, a, b Loc) bool {
	return slices.Contains(m.oneWay, edge{t == Fleet, a, b})
}

// FleetTargets appends to dst the Locs of province p that a fleet at a can
// reach, and returns the extended slice.
func (m *Map) FleetTargets(dst []Loc, a, p Loc) []Loc {
	p = m.Province(p)
	if m.FleetAdjacent(a, p) {
		dst = append(dst, p)
	}
	for _, c := range m.Locs[p].Coasts {
		if m.FleetAdjacent(a, c) {
			dst = append(dst, c)
		}
	}
	return dst
}

// CanHold reports whether a unit of type t may stand at l: armies on land
// and coasts (never on a coast Loc), fleets at sea, on single-coast
// provinces and on split coasts (never on the base of a split province).
func (m *Map) CanHold(t UnitType, l Loc) bool {
	if int(l) >= len(m.Locs) {
		return false
	}
	li := &m.Locs[l]
	if li.Impassable {
		return false
	}
	switch t {
	case Army:
		return li.Province == l && li.Kind != Sea
	case Fleet:
		if li.Province != l {
			return true
		}
		return li.Kind != Land && len(li.Coasts) == 0
	}
	return false
}

// Convoys reports whether a fleet in province p may convoy: p is a sea, or
// a coastal province the map calls an archipelago.
func (m *Map) Convoys(p Loc) bool {
	if int(p) >= len(m.Locs) {
		return false
	}
	li := &m.Locs[p]
	return li.Kind == Sea || li.Archipelago
}

// Neighbours appends to dst every Loc that a unit of type t at l may move
// to directly, and returns the extended slice.
func (m *Map) Neighbours(dst []Loc, t UnitType, l Loc) []Loc {
	rows := m.fleetAdj
	if t == Army {
		rows = m.armyAdj
		l = m.Province(l)
	}
	for b := range m.Locs {
		if m.has(rows, l, Loc(b)) {
			dst = append(dst, Loc(b))
		}
	}
	return dst
}

// HomeCenters appends the home supply centres of p to dst.
func (m *Map) HomeCenters(dst []Loc, p Power) []Loc {
	for _, c := range m.centers {
		if m.Locs[c].Home == p {
			dst = append(dst, c)
		}
	}
	return dst
}

// majority returns the centres needed to win among n: ceil((n+1)/2), more
// than half of them.
func majority(n int) int { return n/2 + 1 }

// MapBuilder assembles a Map; the map file loader and tests use it. Add
// provinces and coasts first, then adjacencies, then call Build.
type MapBuilder struct {
	m       *Map
	edges   []edge
	errs    []string
	placed  map[Loc]bool // provinces given a place by SetPlace
	yearSet bool         // SetStartYear was called: a start year of 0 is the map's own
	unowned []Loc        // home centres owned by nobody at the start
	owned   []startOwner // centres owned at the start by a power not their home power
}

// NewMapBuilder starts a map with the given variant name and title.
func NewMapBuilder(name, title string) *MapBuilder {
	return &MapBuilder{m: &Map{Name: name, Title: title, names: map[string]Loc{}}}
}

// AddPower adds a great power and returns its id.
func (b *MapBuilder) AddPower(name, adjective string, letter byte) Power {
	b.m.Powers = append(b.m.Powers, PowerInfo{Name: name, Adjective: adjective, Letter: letter})
	return Power(len(b.m.Powers) - 1)
}

// AddProvince adds a base province and returns its Loc.
func (b *MapBuilder) AddProvince(name, fullName string, kind Kind, center bool, home Power, aliases ...string) Loc {
	l := Loc(len(b.m.Locs))
	b.m.Locs = append(b.m.Locs, LocInfo{Name: name, FullName: fullName, Aliases: aliases,
		Province: l, Kind: kind, Center: center, Home: home})
	b.name(name, l)
	b.name(fullName, l)
	for _, a := range aliases {
		b.name(a, l)
	}
	return l
}

// AddCoast adds a split coast ("nc") to province p and returns its Loc.
// Its name is "<province>/<coast>".
func (b *MapBuilder) AddCoast(p Loc, coast, fullName string) Loc {
	l := Loc(len(b.m.Locs))
	pi := &b.m.Locs[p]
	b.m.Locs = append(b.m.Locs, LocInfo{Name: pi.Name + "/" + coast, FullName: fullName,
		Province: p, Kind: Coast, Home: pi.Home})
	b.m.Locs[p].Coasts = append(b.m.Locs[p].Coasts, l)
	b.name(b.m.Locs[l].Name, l)
	return l
}

func (b *MapBuilder) name(s string, l Loc) {
	k := NormalizeName(s)
	if old, ok := b.m.names[k]; ok && old != l {
		b.errs = append(b.errs, fmt.Sprintf("name %q used by both %s and %s", s, b.m.Locs[old].Name, b.m.Locs[l].Name))
		return
	}
	b.m.names[k] = l
}

// Loc returns the Loc already added under this name.
func (b *MapBuilder) Loc(name string) (Loc, bool) {
	l, ok := b.m.names[NormalizeName(name)]
	return l, ok
}

// Power returns the power already added under this name.
func (b *MapBuilder) Power(name string) (Power, bool) { return b.m.PowerByName(name) }

type edge struct {
	fleet bool
	a, b  Loc
}

// AddArmyEdge records that an army may move from province a to province b
// (one direction; the map file lists both).
func (b *MapBuilder) AddArmyEdge(from, to Loc) { b.edges = append(b.edges, edge{false, from, to}) }

// AddFleetEdge records that a fleet may move from exact Loc a to exact Loc b
// (one direction).
func (b *MapBuilder) AddFleetEdge(from, to Loc) { b.edges = append(b.edges, edge{true, from, to}) }

// WeakCrossing reports whether the army move from a to b is a weak
// crossing (a weak line of the map file; Loeb9's straits): the army
// attacks with the strength of its supports alone, adding none of its
// own; no unit supports or retreats across it; and a move across it with
// no support cuts no support and leaves no stand-off.
func (m *Map) WeakCrossing(a, b Loc) bool {
	return len(m.weak) > 0 && slices.Contains(m.weak, edge{false, a, b})
}

// DeclareWeak records that the army move from a to b, which the army
// lines list, is a weak crossing (see Map.WeakCrossing).
func (b *MapBuilder) DeclareWeak(from, to Loc) {
	b.m.weak = append(b.m.weak, edge{false, from, to})
}

// SetClosed closes province p in season s (see LocInfo.ClosedIn).
func (b *MapBuilder) SetClosed(p Loc, s Season) { b.m.Locs[p].ClosedIn = s }

// DeclareOneWay records that the move of a unit of type t from a to b
// (added with AddArmyEdge or AddFleetEdge) has no way back on purpose
// (see Map.OneWay).
func (b *MapBuilder) DeclareOneWay(t UnitType, from, to Loc) {
	b.m.oneWay = append(b.m.oneWay, edge{t == Fleet, from, to})
}

// SetArchipelago makes the coastal province p count as sea for convoys
// (see LocInfo.Archipelago).
func (b *MapBuilder) SetArchipelago(p Loc) { b.m.Locs[p].Archipelago = true }

// SetPlace sets where a schematic picture draws province p (LocInfo.At),
// x and y from 0 to MaxPlace (the map file's reader checks them).
// The built map HasPlaces when every province has been given one.
func (b *MapBuilder) SetPlace(p Loc, x, y int) {
	b.m.Locs[p].At = [2]int16{int16(x), int16(y)}
	if b.placed == nil {
		b.placed = map[Loc]bool{}
	}
	b.placed[p] = true
}

// SetVictory sets the number of centres needed to win.
func (b *MapBuilder) SetVictory(n int) { b.m.VictoryCenters = n }

// SetDynamicVictory makes the victory count a majority of the centres on
// the board at the time (see Map.DynamicVictory).
func (b *MapBuilder) SetDynamicVictory() { b.m.DynamicVictory = true }

// SetVictoryLead sets the lead over every other power that wins in the
// first year (see Map.VictoryLead).
func (b *MapBuilder) SetVictoryLead(n int) { b.m.VictoryLead = n }

// SetTiesContinue makes a tie between the two leaders play on (see
// Map.TiesContinue).
func (b *MapBuilder) SetTiesContinue() { b.m.TiesContinue = true }

// SetNeutralsRebuild brings destroyed neutral units back (see
// Map.NeutralsRebuild).
func (b *MapBuilder) SetNeutralsRebuild() { b.m.NeutralsRebuild = true }

// SetWraps marks the board as one round the globe (see Map.Wraps).
func (b *MapBuilder) SetWraps() { b.m.Wraps = true }

// AllowConstruction lets powers build new supply centres (see
// Map.Construction).
func (b *MapBuilder) AllowConstruction() { b.m.Construction = true }

// SetStartYear sets the year of the first phase, 0 included (North Sea
// Wars starts in the Spring of year 0); a map that sets none starts in
// 1901.
func (b *MapBuilder) SetStartYear(y int) { b.m.StartYear, b.yearSet = y, true }

// SetImpassable makes province p one no unit may enter (see
// LocInfo.Impassable).
func (b *MapBuilder) SetImpassable(p Loc) { b.m.Locs[p].Impassable = true }

// StartUnowned leaves the home centre p owned by nobody at the start
// (1898: each power starts with one of its home centres and must take the
// others before it may build there). It stays a home centre.
func (b *MapBuilder) StartUnowned(p Loc) { b.unowned = append(b.unowned, p) }

// startOwner is a centre and the power that owns it at the start.
type startOwner struct {
	centre Loc
	power  Power
}

// StartOwned gives supply centre p to power at the start, whatever its
// home power: the Shift variants start each power's units in another's
// home country, holding its centres.
func (b *MapBuilder) StartOwned(p Loc, power Power) {
	b.owned = append(b.owned, startOwner{p, power})
}

// SetStartSeason sets the season of the first phase: Spring (the
// default) or Winter.
func (b *MapBuilder) SetStartSeason(s Season) { b.m.StartSeason = s }

// SetBuilds sets where powers may build (the default is BuildHome).
func (b *MapBuilder) SetBuilds(r BuildRule) { b.m.Builds = r }

// AddStartUnit places a unit in the starting position; a unit of
// NoPower is neutral.
func (b *MapBuilder) AddStartUnit(p Power, t UnitType, l Loc) {
	b.m.StartUnits = append(b.m.StartUnits, StartUnit{p, t, l})
}

// Build checks and returns the map.
func (b *MapBuilder) Build() (*Map, error) {
	m := b.m
	if len(b.errs) > 0 {
		return nil, fmt.Errorf("map %s: %s", m.Name, strings.Join(b.errs, "; "))
	}
	n := len(m.Locs)
	m.words = (n + 63) / 64
	m.armyAdj = make([]uint64, n*m.words)
	m.fleetAdj = make([]uint64, n*m.words)
	for _, e := range b.edges {
		rows := m.armyAdj
		if e.fleet {
			rows = m.fleetAdj
		}
		rows[int(e.a)*m.words+int(e.b)/64] |= 1 << (uint(e.b) % 64)
	}
	m.StartCenters = make([]Power, n)
	for i := range m.StartCenters {
		m.StartCenters[i] = NoPower
	}
	for i := range m.Locs {
		li := &m.Locs[i]
		if li.Province != Loc(i) {
			continue
		}
		m.provinces = append(m.provinces, Loc(i))
		if li.Center {
			m.centers = append(m.centers, Loc(i))
			m.StartCenters[i] = li.Home
		}
	}
	for _, p := range b.unowned {
		m.StartCenters[p] = NoPower
	}
	for _, o := range b.owned {
		m.StartCenters[o.centre] = o.power
	}
	m.placed = len(m.provinces) > 0
	for _, p := range m.provinces {
		m.placed = m.placed && b.placed[p]
	}
	for _, u := range m.StartUnits {
		if !m.CanHold(u.Type, u.Loc) {
			return nil, fmt.Errorf("map %s: start unit %s %s cannot stand there", m.Name, u.Type, m.LocName(u.Loc))
		}
	}
	if m.VictoryCenters == 0 || m.DynamicVictory {
		m.VictoryCenters = majority(len(m.centers))
	}
	if !b.yearSet {
		m.StartYear = 1901
	}
	if m.StartSeason == 0 {
		m.StartSeason = Spring
	}
	if m.Builds == BuildsOfMap {
		m.Builds = BuildHome
	}
	return m, nil
}

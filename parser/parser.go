// Package parser reads the orders that players write by mail, in the
// lenient classic judge syntax, into judge.Order values.
//
// The parser knows the shape of orders, not the position: it resolves
// names to places, says which kind of order each line is and checks that
// the order is complete ("F nth C A lon" has no destination), but whether
// a unit is there, whose it is and whether it can move where it is told is
// the adjudicator's business.
//
// What it accepts, case and dots ignored:
//
//	England: F Lon - Nth       power prefix: name, adjective ("English"), or letter ("E:", "E F Lon-Nth")
//	England                    alone on a line: the power of the lines below
//	A Par H, A Mar hold        several orders on a line, separated by "," or ";"
//	A Par - Bur                also "->", "=>", "m", "move(s) [to]", "to"
//	F Mao S A Par - Bur        support a move; "S A Par", "S Par", "S A Par H" support a hold
//	F Nth C A Lon - Nwy        convoy ("C", "convoy(s)", "T", "transport(s)")
//	A Lon - Nth - Nwy          a convoy route, sea by sea; or "A Lon - Nwy via convoy"
//	F Mao - Spa/nc             coasts: "/nc", "(nc)", "/north coast", " nc", " north coast"
//	A Par - Bur, A Par D       retreat phase: a move is a retreat; "D", "disband" disbands
//	Build A Par, remove F Tri  adjustment phase; "B", "R", "D", "waive", "W", and a bare "A Par" (a build or a removal)
//	A Lvp, s.c. Yor            adjustment phase: a supply-centre construction ("34, 35, 36" variant); also
//	                           "sc Yor", "build s.c. Yorkshire", "supply centre Yor"
//
// Places are matched against every name and alias of the map, longest
// first, over several words if needed ("St. Petersburg", "Gulf of Lyon",
// "Mid-Atlantic Ocean"), and by abbreviations written with hyphens
// ("Mid-Atl"). A name is taken whole or not at all: an unknown name is an
// error that suggests what the player may have meant, never a guess. The
// order words keep their role first: a longer name that would take in a
// unit type, an order word or a power's name ("A Den" as Aden, "Lao S" as
// Laos) is read only where the line is no order without it, and two such
// readings that are both orders are an error that shows both (see
// parser.order).
//
// Orders use NoLoc for the places they do not have (the Target of a Hold,
// the Dest of a Move, every place of a Waive).
package parser

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gmdjudge/gmd/judge"
)

// Options tell the parser what it cannot know from the text.
type Options struct {
	Map *judge.Map
	// Phase is the type of the phase the orders are for; Movement if zero.
	// It decides what bare orders mean ("A Par - Bur" is a retreat in a
	// retreat phase, "A Par" a build or removal in an adjustment phase)
	// and which orders are allowed.
	Phase judge.PhaseType
	// Power is the power of orders that name none. Its zero value is the
	// map's first power: set judge.NoPower when it is unknown.
	Power judge.Power
}

// ParsedOrder is an order with the place of its text.
type ParsedOrder struct {
	judge.Order
	Line, Col int    // where the order's text begins (1-based; Col in characters)
	Text      string // the source text of the order, power prefix included, trimmed
}

// ParseOrders reads every line of src. It returns the orders it could read
// and an error for each order it could not, both in the order of the text:
// a bad order does not hide the good ones around it.
func ParseOrders(src string, opt Options) ([]ParsedOrder, ErrorList) {
	if opt.Map == nil {
		return nil, ErrorList{{Line: 1, Col: 1, Msg: "parser: no map"}}
	}
	p := newParser(src, opt)
	defer p.release()
	// One order a line is typical: size the result once.
	orders := make([]ParsedOrder, 0, strings.Count(src, "\n")+1)
	power := opt.Power
	for p.readLine() {
		orders = p.parseLine(&power, orders)
	}
	return orders, p.errs
}

// ParseOrder reads exactly one order, as found in a JSON field or a DATC
// test case. A power prefix in the text overrides opt.Power.
func ParseOrder(text string, opt Options) (judge.Order, error) {
	orders, errs := ParseOrders(text, opt)
	switch {
	case len(errs) > 0:
		return judge.Order{}, errs[0]
	case len(orders) == 0:
		return judge.Order{}, &Error{Line: 1, Col: 1, Msg: "expected an order, found none"}
	case len(orders) > 1:
		o := orders[1]
		return judge.Order{}, &Error{Line: o.Line, Col: o.Col, Msg: "expected one order, found a second: " + strconv.Quote(o.Text)}
	}
	return orders[0].Order, nil
}

// ParseLoc reads one place name with the parser's leniency: any name or
// alias of the map, and a coast ("stp/nc", "St. Petersburg (north coast)").
// Its errors have no line or column, and suggest names.
func ParseLoc(m *judge.Map, name string) (judge.Loc, error) {
	if m == nil {
		return judge.NoLoc, &Error{Msg: "parser: no map"}
	}
	p := newParser(name, Options{Map: m})
	defer p.release()
	l := judge.NoLoc
	// The whole text is one name: at every choice, the longer name.
	p.mask, p.nchoice = ^uint32(0), 0
	if !p.readLine() {
		p.errorf(0, "expected a province, found nothing")
	} else if p.location(&l) {
		if t := p.cur(); t.tok != EOF {
			p.errorf(p.p, "expected end of name after %q, found %s", p.sofar(), p.desc(p.p))
		}
	}
	if len(p.errs) > 0 {
		return judge.NoLoc, &Error{Msg: p.errs[0].Msg}
	}
	return l, nil
}

// token is a token of the current line, with its folded form and what the
// index knows about it, computed once.
type token struct {
	tok      Token
	e        entry // the index entry of the folded word (words only)
	off, end int   // the literal's bytes in the source
	col      int   // the column; the line is parser.line
	k0, k1   int   // the folded word in parser.keys (words only)
}

// parser holds the state of one call; parsers are pooled so that their
// buffers are reused and a typical line costs no allocation.
type parser struct {
	ix    *index
	m     *judge.Map
	phase judge.PhaseType
	src   string
	sc    Scanner
	toks  []token // the current line, ending with its EOL or EOF token
	line  int     // the number of the current line
	keys  []byte  // folded words of the current line, back to back
	p     int     // the current token
	start int     // the first token of the current order, after any power prefix
	eof   bool
	errs  ErrorList
	// mask holds the choices of the reading being tried, one bit a
	// choice in the order met, and nchoice counts the choices met (see
	// parser.order).
	mask    uint32
	nchoice int
	// trial is set while readings are tried: an error then only marks
	// where the reading failed, without its message, whose suggestions
	// cost a search of every name.
	trial bool
}

var parsers = sync.Pool{New: func() any { return new(parser) }}

func newParser(src string, opt Options) *parser {
	p := parsers.Get().(*parser)
	p.ix = indexOf(opt.Map)
	p.m = opt.Map
	p.phase = opt.Phase
	if p.phase != judge.Retreat && p.phase != judge.Adjustment {
		p.phase = judge.Movement
	}
	p.src = src
	p.sc.Init(src)
	p.eof = false
	p.errs = nil
	return p
}

func (p *parser) release() {
	p.src, p.sc.src, p.m, p.ix, p.errs = "", "", nil, nil, nil
	if cap(p.toks) > 1024 { // do not keep the buffers of a freak line
		p.toks, p.keys = nil, nil
	}
	parsers.Put(p)
}

// readLine scans the next line into p.toks. It reports false at the end of
// the input.
func (p *parser) readLine() bool {
	if p.eof {
		return false
	}
	p.toks, p.keys, p.p, p.start = p.toks[:0], p.keys[:0], 0, 0
	for {
		pos, tok, lit := p.sc.Scan()
		p.toks = append(p.toks, token{}) // filled in place: a token is large to copy
		t := &p.toks[len(p.toks)-1]
		t.tok, t.off, t.end, t.col = tok, pos.Offset, pos.Offset+len(lit), pos.Col
		p.line = pos.Line // the same for every token of the line
		switch tok {
		case Word:
			t.k0 = len(p.keys)
			p.keys = appendFolded(p.keys, lit)
			t.k1 = len(p.keys)
			t.e = p.ix.lookup(p.keys[t.k0:t.k1])
		case EOL:
			t.end = t.off // keep line ends out of order texts
			return true
		case EOF:
			p.eof = true
			return len(p.toks) > 1
		}
	}
}

// parseLine reads the orders of the current line and appends them to
// orders. power is the power of the block the line is in.
func (p *parser) parseLine(power *judge.Power, orders []ParsedOrder) []ParsedOrder {
	if p.header(power) {
		return orders
	}
	linePower := *power
	for {
		for t := p.cur().tok; t == Comma || t == Semicolon; t = p.cur().tok {
			p.p++
		}
		if isEnd(p.cur().tok) {
			return orders
		}
		first := p.p
		if o, ok := p.order(&linePower); ok {
			t := &p.toks[first]
			orders = append(orders, ParsedOrder{Order: o, Line: p.line, Col: t.col,
				Text: p.src[t.off:p.toks[p.p-1].end]})
		} else {
			p.skipOrder()
		}
	}
}

// header handles a line that is only a power's name, with or without a
// colon ("England:", "North Vietnam", "E:"): it sets the power of the
// lines below.
func (p *parser) header(power *judge.Power) bool {
	if p.toks[0].tok != Word {
		return false
	}
	// Only words, and a colon at the end: most lines fail this at once.
	n := 1
	for t := p.toks[n].tok; t == Word || t == Dash; t = p.toks[n].tok {
		n++
	}
	if p.toks[n].tok == Colon {
		n++
	}
	if !isEnd(p.toks[n].tok) {
		return false
	}
	if pw, next, ok := p.matchPower(0); ok && isEnd(p.toks[next].tok) {
		*power = pw
		return true
	}
	pw, next, ok := p.colonPrefix(0)
	if !ok || !isEnd(p.toks[next].tok) {
		return false
	}
	if pw == judge.NoPower {
		p.unknownPower(0, next-2)
		return true
	}
	*power = pw
	return true
}

// skipOrder moves past the rest of a bad order: to the next ";", to the
// next "," that begins another order, or to the end of the line.
func (p *parser) skipOrder() {
	for t := p.cur().tok; !isEnd(t); t = p.cur().tok {
		if t == Semicolon || t == Comma && p.startsOrder(p.p+1) {
			return
		}
		p.p++
	}
}

// order reads one order, with its power prefix if it has one. A prefix
// sets the power of the rest of the line.
//
// Where the words can be read more than one way (a unit type or an order
// word taken into a longer place name: "A Den", "Lao S"; a power's name
// before a place named after it), the grammar's rule decides: every word
// is read in its role first, as a unit type, an order word, a power's
// name at the start, a "-" as a move, and a name that takes such a word in
// is read only where no reading without it is a whole order. Each such
// place in the text is a choice; the first reading is the one that takes
// every choice the first way. If it fails, the others are tried: one
// that reads is taken; two that read as different orders are an
// ambiguity, which the player is asked to settle, as the judge asks for a
// coast it cannot tell.
func (p *parser) order(power *judge.Power) (judge.Order, bool) {
	at, nerr, pw0 := p.p, len(p.errs), *power
	// Readings are tried without the cost of their messages (see
	// parser.trial); the one reported is read again for them.
	p.mask, p.nchoice, p.trial = 0, 0, true
	o, ok := p.reading(power)
	if ok {
		p.trial = false
		return o, ok // the reading with every word in its role
	}
	if p.nchoice == 0 || namesFirst {
		p.p, p.errs, *power = at, p.errs[:nerr], pw0
		p.mask, p.nchoice, p.trial = 0, 0, false
		return p.reading(power) // the only reading, for its message
	}
	// Try the other readings, up to maxChoices choices.
	type found struct {
		o    judge.Order
		mask uint32
		end  int
	}
	var valid []found
	bestMask, bestCol := uint32(0), p.errs[nerr].Col
	choices := min(p.nchoice, maxChoices)
	for mask := uint32(1); mask < 1<<choices; mask++ {
		p.p, p.errs, *power = at, p.errs[:nerr], pw0
		p.mask, p.nchoice = mask, 0
		o, ok := p.reading(power)
		if mask>>min(p.nchoice, maxChoices) != 0 {
			continue // a choice this reading never met: the same as a reading already tried
		}
		choices = max(choices, min(p.nchoice, maxChoices))
		if !ok {
			if c := p.errs[nerr].Col; c > bestCol {
				bestMask, bestCol = mask, c
			}
			continue
		}
		dup := false
		for _, v := range valid {
			dup = dup || v.end == p.p && sameReading(v.o, o)
		}
		if !dup {
			valid = append(valid, found{o, mask, p.p})
		}
	}
	p.errs, *power, p.trial = p.errs[:nerr], pw0, false
	// With no reading an order, report the one that went furthest.
	switch len(valid) {
	case 0:
	case 1:
		bestMask = valid[0].mask
	default:
		p.p = at
		a, b := valid[0], valid[1]
		return judge.Order{}, p.errorf(at, "%q can be read as %q or as %q: write it again as one of them",
			p.src[p.toks[at].off:p.toks[max(a.end, b.end)-1].end], p.readingText(a.o), p.readingText(b.o))
	}
	p.p, p.mask, p.nchoice = at, bestMask, 0
	return p.reading(power)
}

// maxChoices bounds the readings of one order at 1<<maxChoices; no order
// a player writes has more than two or three places to choose at.
const maxChoices = 6

// choose says how to read the words at the current choice: false for the
// reading with every word in its role (a unit type, an order word, a
// power's name), true for the longer name that takes it in.
func (p *parser) choose() bool {
	c := p.nchoice
	p.nchoice++
	return (c < maxChoices && p.mask>>c&1 != 0) != namesFirst
}

// namesFirst reverses the grammar's preference and tries no other reading:
// the longest name is read, as the parser once did. Only a test sets it,
// to show that the property test of every board catches that reading.
var namesFirst = false

// sameReading reports whether two readings of the same words are the same
// order.
func sameReading(a, b judge.Order) bool {
	return a.Kind == b.Kind && a.Power == b.Power && a.Type == b.Type && a.Unit == b.Unit &&
		a.TargetType == b.TargetType && a.Target == b.Target && a.Dest == b.Dest &&
		a.ViaConvoy == b.ViaConvoy && a.Bare == b.Bare && slices.Equal(a.Route, b.Route)
}

// readingText writes one reading of an ambiguous order for the message
// that asks which was meant, in the canonical form that reads one way.
func (p *parser) readingText(o judge.Order) string {
	if o.Power != judge.NoPower {
		return o.CanonicalWithPower(p.m)
	}
	return o.Canonical(p.m)
}

// reading reads one order, with its power prefix, taking the choices
// p.mask says.
func (p *parser) reading(power *judge.Power) (judge.Order, bool) {
	if !p.prefix(power) {
		return judge.Order{}, false
	}
	p.start = p.p
	o := judge.Order{Power: *power, Unit: judge.NoLoc, Target: judge.NoLoc, Dest: judge.NoLoc}
	var ok bool
	if p.phase == judge.Adjustment {
		ok = p.adjustment(&o)
	} else {
		ok = p.unitOrder(&o)
	}
	if !ok {
		return o, false
	}
	switch p.cur().tok {
	case EOL, EOF, Semicolon, Comma:
		return o, true
	}
	if _, ok := p.construction(p.p); ok && p.phase == judge.Adjustment {
		// "A Lvp s.c. Yor": the construction is a second order, even
		// without the comma the rule book writes.
		return o, true
	}
	hint := ""
	if p.phase == judge.Adjustment && (p.cur().tok == Word || p.isMove(p.p)) {
		hint = " (this is " + phaseName(p.phase) + ")"
	}
	return o, p.errorf(p.p, "expected end of order after %q, found %s%s", p.sofar(), p.desc(p.p), hint)
}

// prefix reads a power prefix: "England:", "North Vietnam:", "E:",
// "England", "English", "North Vietnamese" or "E" before a unit.
func (p *parser) prefix(power *judge.Power) bool {
	t := p.cur()
	if t.tok != Word {
		return true
	}
	if pw, next, ok := p.colonPrefix(p.p); ok {
		if pw == judge.NoPower {
			return p.unknownPower(p.p, next-2)
		}
		*power = pw
		p.p = next
		return true
	}
	pw, next, ok := p.matchPower(p.p)
	if !ok {
		pw, next = p.ix.powerLetter(p.key(p.p)), p.p+1
		if pw == judge.NoPower {
			return true
		}
		// "R A Par" removes in an adjustment phase; "A Par" is an army,
		// but "A F Tri" is Austria's fleet.
		if p.phase == judge.Adjustment && t.e.kw&kwAdjust != 0 ||
			t.e.kw&kwType != 0 && !p.isType(p.p+1) {
			return true
		}
	}
	// "North Vietnam - Hanoi" moves the unit in the province North
	// Vietnam, as no unit follows; "English Channel - Bre" could be
	// England's unit in the Channel, but both readings name the same
	// place, and the name does not give the order a power.
	if p.nameOverPower(next) {
		return true
	}
	if p.startsUnit(next) {
		*power = pw
		p.p = next
	}
	return true
}

// colonPrefix reads a prefix that ends in a colon at token i: a power's
// name or adjective, of one word or several, or a power's letter. It
// returns the power and the token after the colon, and false if the words
// at i are not followed by a colon or, being several, hold a keyword ("A
// Par H:"), so that they are not meant as a power. A prefix that names no
// power has NoPower, for the caller to report: its words end at next-2.
func (p *parser) colonPrefix(i int) (judge.Power, int, bool) {
	if t := &p.toks[i]; t.e.kw != 0 && t.e.power == judge.NoPower && t.e.pre&powerPrefix == 0 &&
		p.toks[i+1].tok != Colon {
		return judge.NoPower, 0, false // "A Par ...", the most common case, at no cost
	}
	last := i
	for n := p.nextWord(last); n >= 0; n = p.nextWord(last) {
		last = n
	}
	if p.toks[last+1].tok != Colon {
		return judge.NoPower, 0, false
	}
	next := last + 2
	if pw, end, ok := p.matchPower(i); ok && end == last+1 {
		return pw, next, true
	}
	// A name of one word written as several ("St. Petersburg:" for
	// Chaos's StPetersburg), which matchPower does not walk.
	if e := p.ix.lookup(p.keys[p.toks[i].k0:p.toks[last].k1]); e.power != judge.NoPower {
		return e.power, next, true
	}
	if last == i {
		if pw := p.ix.powerLetter(p.key(i)); pw != judge.NoPower {
			return pw, next, true
		}
	} else {
		for j := i; j <= last; j++ {
			if t := &p.toks[j]; t.tok == Word && t.e.kw != 0 {
				return judge.NoPower, 0, false
			}
		}
	}
	return judge.NoPower, next, true
}

// matchPower finds the longest power name or adjective that begins at
// token i, over several words as names does ("North Vietnamese"). It
// returns the power and the token after the name.
func (p *parser) matchPower(i int) (judge.Power, int, bool) {
	t := &p.toks[i]
	if t.tok != Word {
		return judge.NoPower, 0, false
	}
	best, bestNext := t.e.power, i+1
	if t.e.pre&powerPrefix != 0 {
		for j := p.nextWord(i); j >= 0; j = p.nextWord(j) {
			e := p.ix.lookup(p.keys[t.k0:p.toks[j].k1])
			if e.power != judge.NoPower {
				best, bestNext = e.power, j+1
			}
			if e.pre&powerPrefix == 0 {
				break
			}
		}
	}
	return best, bestNext, best != judge.NoPower
}

// unitOrder reads a movement or retreat order: [type] place, then what the
// unit does.
func (p *parser) unitOrder(o *judge.Order) bool {
	if next, ok := p.construction(p.p); ok && !p.placeAt(p.p) {
		return p.errorf(p.p, "%q: supply centre construction is an order of an adjustment phase, not of %s",
			p.src[p.toks[p.p].off:p.toks[next-1].end], phaseName(p.phase))
	}
	if t := p.cur(); t.tok == Word && t.e.kw&kwAdjust != 0 && (!p.placeAt(p.p) || !p.choose()) {
		if p.phase == judge.Retreat && t.e.kw&kwDisband != 0 {
			// "Disband A Par": the unit should come first, but the meaning is plain.
			p.p++
			if !p.unit(&o.Type, &o.Unit) {
				return false
			}
			o.Kind = judge.Disband
			return true
		}
		if t.e.kw&kwDisband != 0 { // "D", "disband" in a movement phase
			return p.errorf(p.p, "%s: disbanding is for dislodged units, in a retreat phase", p.desc(p.p))
		}
		return p.errorf(p.p, "%s: builds and removals are orders of an adjustment phase, not of %s",
			p.desc(p.p), phaseName(p.phase))
	}
	if !p.unit(&o.Type, &o.Unit) {
		return false
	}
	i := p.peekCont()
	if next, ok := p.moveKw(i); ok {
		p.p = next
		return p.move(o)
	}
	if t := &p.toks[i]; t.tok == Word {
		k := t.e.kw
		switch {
		case k&kwHold != 0 && p.phase == judge.Movement:
			p.p = i + 1
			o.Kind = judge.Hold
			return true
		case k&kwSupport != 0 && p.phase == judge.Movement:
			p.p = i + 1
			return p.support(o)
		case k&kwConvoy != 0 && p.phase == judge.Movement:
			p.p = i + 1
			return p.convoy(o)
		case k&kwDisband != 0 && p.phase == judge.Retreat:
			p.p = i + 1
			o.Kind = judge.Disband
			return true
		}
	}
	want, hint := `"-", "S", "C" or "H"`, ""
	k := p.toks[i].e.kw
	if p.toks[i].tok != Word {
		k = 0
	}
	if p.phase == judge.Retreat {
		want = `"-" or "disband"`
		if k&(kwHold|kwSupport|kwConvoy) != 0 {
			hint = " (this is a retreat phase: a dislodged unit retreats or disbands)"
		}
	} else if k&kwDisband != 0 {
		hint = " (disbanding is for dislodged units, in a retreat phase)"
	}
	return p.errorf(i, "expected %s after %q, found %s%s", want, p.sofar(), p.desc(i), hint)
}

// move reads the rest of a move after its first "-": the destination, more
// of them for a convoy route, and "via convoy".
func (p *parser) move(o *judge.Order) bool {
	first := p.p
	dest := judge.NoLoc
	if !p.location(&dest) {
		return false
	}
	var route []judge.Loc
	for {
		i := p.peekCont()
		next, ok := p.moveKw(i)
		if !ok {
			break
		}
		p.p = next
		l := judge.NoLoc
		if !p.location(&l) {
			return false
		}
		route = append(route, dest)
		dest = l
	}
	o.Kind, o.Target = judge.Move, dest
	if len(route) > 0 {
		o.Route, o.ViaConvoy = route, true
	}
	if i := p.peekCont(); p.toks[i].tok == Word && p.toks[i].e.kw&kwVia != 0 &&
		p.toks[i+1].tok == Word && p.toks[i+1].e.kw&kwConvoy != 0 {
		p.p = i + 2
		o.ViaConvoy = true
	}
	if o.ViaConvoy {
		switch {
		case p.phase == judge.Retreat:
			return p.errorf(first, "a retreat cannot go by convoy")
		case o.Type == judge.Fleet:
			return p.errorf(p.start, "only an army can move by convoy")
		}
	}
	return true
}

// support reads what follows "S": the supported unit, and its move if it
// moves.
func (p *parser) support(o *judge.Order) bool {
	p.nationality()
	if !p.unit(&o.TargetType, &o.Target) {
		return false
	}
	o.Kind = judge.SupportHold
	i := p.peekCont()
	if next, ok := p.moveKw(i); ok {
		p.p = next
		o.Kind = judge.SupportMove
		return p.location(&o.Dest)
	}
	if t := &p.toks[i]; t.tok == Word && t.e.kw&kwHold != 0 {
		p.p = i + 1
	}
	return true
}

// convoy reads what follows "C": the army and its destination.
func (p *parser) convoy(o *judge.Order) bool {
	p.nationality()
	at := p.p
	if !p.unit(&o.TargetType, &o.Target) {
		return false
	}
	i := p.peekCont()
	next, ok := p.moveKw(i)
	if !ok {
		return p.errorf(i, `expected "-" and the army's destination after %q, found %s`, p.sofar(), p.desc(i))
	}
	p.p = next
	if !p.location(&o.Dest) {
		return false
	}
	o.Kind = judge.Convoy
	switch {
	case o.TargetType == judge.Fleet:
		return p.errorf(at, "only an army can be convoyed")
	case o.Type == judge.Army:
		return p.errorf(p.start, "only a fleet can convoy")
	}
	return true
}

// adjustment reads a build, a removal, a waiver or a construction.
func (p *parser) adjustment(o *judge.Order) bool {
	if next, ok := p.construction(p.p); ok {
		p.p = next
		return p.construct(o)
	}
	if t := p.cur(); t.tok == Word && t.e.kw&kwAdjust != 0 && (!p.placeAt(p.p) || !p.choose()) {
		k := t.e.kw
		p.p++
		switch {
		case k&kwBuild != 0:
			if n := p.cur(); n.tok == Word && n.e.kw&kwWaive != 0 { // "build waive"
				p.p++
				o.Kind = judge.Waive
				return true
			}
			if next, ok := p.construction(p.p); ok { // "build s.c. Yor"
				p.p = next
				return p.construct(o)
			}
			o.Kind = judge.Build
			at := p.p
			if !p.unit(&o.Type, &o.Unit) {
				return false
			}
			if o.Type == judge.NoUnit {
				return p.errorf(at, "build needs a unit type (A or F)")
			}
		case k&kwWaive != 0:
			o.Kind = judge.Waive
		default: // remove, disband
			o.Kind = judge.Remove
			return p.unit(&o.Type, &o.Unit)
		}
		return true
	}
	at := p.p
	if !p.unit(&o.Type, &o.Unit) {
		return false
	}
	i := p.peekCont()
	if t := &p.toks[i]; t.tok == Word && t.e.kw&(kwRemove|kwBuild) != 0 { // "A Par remove", "A Par build"
		p.p = i + 1
		if t.e.kw&kwRemove != 0 {
			o.Kind = judge.Remove
			return true
		}
		o.Kind = judge.Build
		if o.Type == judge.NoUnit {
			return p.errorf(at, "build needs a unit type (A or F)")
		}
		return true
	}
	o.Kind, o.Bare = judge.Build, true
	if o.Type == judge.NoUnit {
		return p.errorf(at, `expected "build", "remove" or a unit type (A or F) before %q`, p.sofar())
	}
	return true
}

// construction reports whether the words at token i name a supply-centre
// construction: "sc" (also written "s.c." or "SC"), "s c" ("s. c."), or
// "supply centre" ("supply center"). It returns the token after them.
func (p *parser) construction(i int) (int, bool) {
	t := &p.toks[i]
	if t.tok != Word {
		return 0, false
	}
	if t.e.kw&kwConstruct != 0 {
		return i + 1, true
	}
	if p.toks[i+1].tok != Word {
		return 0, false
	}
	switch next := string(p.key(i + 1)); string(p.key(i)) {
	case "s":
		return i + 2, next == "c"
	case "supply":
		return i + 2, next == "centre" || next == "center"
	}
	return 0, false
}

// construct reads the province of a construction, after its keyword.
func (p *parser) construct(o *judge.Order) bool {
	p.skipComma()
	if p.isType(p.p) && !p.placeAt(p.p) {
		return p.errorf(p.p, `a construction names a province, not a unit: write "s.c." and the province, as in "s.c. Yor"`)
	}
	l := judge.NoLoc
	if !p.location(&l) {
		return false
	}
	o.Kind, o.Unit = judge.Construct, p.m.Province(l)
	return true
}

// nationality skips the power of a supported or convoyed unit ("S German
// A Ber"): the adjudicator knows whose unit is there.
func (p *parser) nationality() {
	p.skipComma()
	_, next, ok := p.matchPower(p.p)
	if !ok || p.nameOverPower(next) {
		return
	}
	if p.startsUnit(next) {
		p.p = next
	}
}

// nameOverPower reports, for a power's name at the current token that ends
// before token next, whether the words are read as a place's name instead:
// where the name runs on past the power's and the rest is a name of the
// same place ("English Channel"; "Channel" names it too), both readings
// name one unit and the place is taken; elsewhere as the choice says.
func (p *parser) nameOverPower(next int) bool {
	_, _, l, end := p.names(p.p)
	if end <= next {
		return false
	}
	if _, _, rl, rend := p.names(next); rend == end && p.m.Province(rl) == p.m.Province(l) {
		return true
	}
	return p.choose()
}

// unit reads [type] place. A unit is wanted, so a comma before it can
// only be a pause ("F Nth C, A Lon - Nwy").
func (p *parser) unit(typ *judge.UnitType, loc *judge.Loc) bool {
	if p.cur().tok == Comma {
		p.p++
	}
	if t := p.cur(); t.tok == Word && t.e.kw&kwType != 0 {
		// A type word, unless it begins a longer place name and the
		// choice says so ("A Den" is an army in Denmark, where Aden is
		// a place too).
		if _, _, _, next := p.names(p.p); next <= p.p+1 || !p.choose() {
			if t.e.kw&kwArmy != 0 {
				*typ = judge.Army
			} else {
				*typ = judge.Fleet
			}
			p.p++
			return p.location(loc)
		}
	}
	return p.place(loc, "a unit")
}

// location reads a place name and its coast.
func (p *parser) location(loc *judge.Loc) bool {
	return p.place(loc, "a province")
}

// place reads a place name and its coast; what names what is wanted there
// for the error message.
func (p *parser) place(loc *judge.Loc, what string) bool {
	p.skipComma()
	t := p.cur()
	if t.tok != Word || t.e.kw != 0 && t.e.kw&kwType == 0 && !p.placeAt(p.p) {
		return p.errorf(p.p, "expected %s%s, found %s", what, p.after(), p.desc(p.p))
	}
	// The name, as the choice says where a longer one takes in an order
	// word (see names).
	l, next, long, lNext := p.names(p.p)
	if lNext > next && p.choose() {
		l, next = long, lNext
	}
	if next == 0 {
		return p.unknownPlace(p.p)
	}
	p.p = next
	if !p.coast(&l) {
		return false
	}
	*loc = l
	return true
}

// names finds the place names that begin at token i. Names may run over
// several words ("Gulf of Lyon") and over a hyphen with no space around it
// ("Mid-Atlantic"). It returns the longest name whose words after the
// first are no order words and are joined by spaces (safe, or NoLoc and
// 0), and the longest of all (long), each with the token after it. A
// compound written with hyphens that no name spells is read as the one
// place whose name's words it abbreviates ("Mid-Atl", "St-Pete").
func (p *parser) names(i int) (safe judge.Loc, sNext int, long judge.Loc, lNext int) {
	safe, long = judge.NoLoc, judge.NoLoc
	if p.toks[i].tok != Word {
		return
	}
	k0 := p.toks[i].k0
	crossed := false // an order word or a joining hyphen is in the name
walk:
	for j := i; ; {
		t := &p.toks[j]
		e := t.e
		if j > i {
			e = p.ix.lookup(p.keys[k0:t.k1])
			crossed = crossed || t.e.kw != 0
		}
		if e.loc != judge.NoLoc {
			long, lNext = e.loc, j+1
			if !crossed {
				safe, sNext = e.loc, j+1
			}
		}
		if e.pre&placePrefix == 0 {
			break
		}
		// As nextWord, written out: this loop is the parser's hottest.
		switch n := &p.toks[j+1]; {
		case n.tok == Word:
			j++
		case n.tok == Dash && n.off == t.end && p.toks[j+2].tok == Word && p.toks[j+2].off == n.end:
			j += 2
			crossed = true
		default:
			break walk
		}
	}
	if n := &p.toks[i+1]; n.tok == Dash && n.off == p.toks[i].end { // a compound: rare
		if locs, end := p.abbrev(i); len(locs) == 1 && end > lNext {
			long, lNext = locs[0], end
		}
	}
	return
}

// nextWord returns the token of the word that may go on a name after the
// word at token j: the next word, or the word after a hyphen with no space
// around it ("Mid-Atlantic"); or -1.
func (p *parser) nextWord(j int) int {
	switch n := &p.toks[j+1]; {
	case n.tok == Word:
		return j + 1
	case n.tok == Dash && n.off == p.toks[j].end && p.toks[j+2].tok == Word && p.toks[j+2].off == n.end:
		return j + 2
	}
	return -1
}

// joined reports whether the word at token j is joined to the next word by
// a hyphen with no space around it ("Mid-Atl").
func (p *parser) joined(j int) bool {
	n := &p.toks[j+1]
	return p.toks[j].tok == Word && n.tok == Dash && n.off == p.toks[j].end &&
		p.toks[j+2].tok == Word && p.toks[j+2].off == n.end
}

// abbrev reads the compound of words joined by hyphens at token i ("N-Atl",
// "St-Pete") as an abbreviation: it returns every place with a name whose
// words begin with the compound's words, one by one, and the token after
// the compound. A single word is no compound, and abbreviates nothing.
func (p *parser) abbrev(i int) ([]judge.Loc, int) {
	if !p.joined(i) {
		return nil, 0
	}
	j := i
	for p.joined(j) {
		j += 2
	}
	var locs []judge.Loc
	first := string(p.key(i))
	names := p.ix.abbrs
	for k := sort.Search(len(names), func(k int) bool { return names[k].words[0] >= first }); k < len(names); k++ {
		a := &names[k]
		if !strings.HasPrefix(a.words[0], first) {
			break
		}
		if len(a.words) < (j-i)/2+1 || slices.Contains(locs, a.loc) {
			continue
		}
		ok := true
		for w := i + 2; w <= j && ok; w += 2 {
			ok = strings.HasPrefix(a.words[(w-i)/2], string(p.key(w)))
		}
		if ok {
			locs = append(locs, a.loc)
		}
	}
	return locs, j + 1
}

// coast reads a coast after a place ("/nc", "(north coast)", " nc") and
// makes loc that coast.
func (p *parser) coast(loc *judge.Loc) bool {
	open := p.cur().tok
	switch open {
	case Slash, LParen:
		at := p.p + 1
		short, n := p.coastSpec(at, true)
		if short == "" {
			return p.errorf(at, "expected a coast (nc, sc, ec or wc) after %q, found %s", p.sofar()+p.lit(p.p), p.desc(at))
		}
		next := at + n
		if open == LParen {
			if p.toks[next].tok != RParen {
				return p.errorf(next, `expected ")" after %q, found %s`, p.src[p.toks[p.start].off:p.toks[next-1].end], p.desc(next))
			}
			next++
		}
		p.p = next
		return p.setCoast(loc, short, at)
	case Word:
		at := p.p
		short, n := p.coastSpec(at, false)
		if short == "" {
			return true // no coast
		}
		if _, ok := p.construction(at); ok && p.phase == judge.Adjustment && len(p.m.Locs[p.m.Province(*loc)].Coasts) == 0 {
			return true // "A Lvp sc Yor": not Liverpool's south coast, but a construction
		}
		p.p += n
		return p.setCoast(loc, short, at)
	}
	return true
}

// coastSpec reads a coast name at token i and returns its short name ("nc")
// and how many tokens it took, or "" if there is none. After "/" and "("
// (loose) "n" and "north" will do; after a space only "nc" or "north
// coast", so that a coast is never taken from a word that means something
// else.
func (p *parser) coastSpec(i int, loose bool) (string, int) {
	t := &p.toks[i]
	if t.tok != Word {
		return "", 0
	}
	k := p.keys[t.k0:t.k1]
	short, ok := coastNames[string(k)]
	if !ok {
		return "", 0
	}
	switch string(k) {
	case "north", "south", "east", "west":
		if n := &p.toks[i+1]; n.tok == Word && string(p.keys[n.k0:n.k1]) == "coast" {
			return short, 2
		}
	}
	if loose || len(k) == 2 || len(k) > 5 { // "nc", "northcoast"
		return short, 1
	}
	return "", 0
}

// setCoast makes loc its province's coast short, or reports why not.
func (p *parser) setCoast(loc *judge.Loc, short string, at int) bool {
	m := p.m
	prov := m.Province(*loc)
	coasts := m.Locs[prov].Coasts
	if len(coasts) == 0 {
		return p.errorf(at, "%s has no coasts", m.FullName(prov))
	}
	have := make([]string, 0, len(coasts))
	for _, c := range coasts {
		name := m.LocName(c)
		s := name[strings.LastIndexByte(name, '/')+1:]
		if s == short {
			if *loc != prov && *loc != c {
				return p.errorf(at, "%s is not on the %s", m.FullName(*loc), coastWord(short))
			}
			*loc = c
			return true
		}
		have = append(have, coastWord(s))
	}
	return p.errorf(at, "%s has no %s (it has %s)", m.FullName(prov), coastWord(short), strings.Join(have, " and "))
}

// moveKw reports whether a move keyword begins at token i: "-", "->",
// "m", "move", "moves", "move to", "moves to" or "to". It returns the
// token after it.
func (p *parser) moveKw(i int) (int, bool) {
	t := &p.toks[i]
	switch {
	case t.tok == Dash || t.tok == Arrow:
		return i + 1, true
	case t.tok != Word:
		return 0, false
	case t.e.kw&kwMove != 0:
		if n := &p.toks[i+1]; n.tok == Word && n.e.kw&kwTo != 0 {
			return i + 2, true
		}
		return i + 1, true
	case t.e.kw&kwTo != 0:
		return i + 1, true
	}
	return 0, false
}

func (p *parser) isMove(i int) bool {
	_, ok := p.moveKw(i)
	return ok
}

// peekCont returns the token where an order may go on: the current one, or
// the one after a comma that does not begin another order ("A Lon - Nwy,
// via convoy"). The caller moves there only if the order does go on.
func (p *parser) peekCont() int {
	if p.cur().tok == Comma && !p.startsOrder(p.p+1) {
		return p.p + 1
	}
	return p.p
}

// skipComma moves past a comma where the order cannot end ("F Nth C, A
// Lon - Nwy"), unless another order begins after it.
func (p *parser) skipComma() {
	if p.cur().tok == Comma && !p.startsOrder(p.p+1) {
		p.p++
	}
}

// startsOrder reports whether an order may begin at token i: that decides
// whether a comma separates orders or is just a pause in one.
func (p *parser) startsOrder(i int) bool {
	t := &p.toks[i]
	if t.tok != Word {
		return false
	}
	if _, ok := p.construction(i); ok {
		// In every phase, so that "A Lvp, s.c. Yor" in the wrong phase
		// gets the error about the construction, not a puzzle about the
		// comma.
		return true
	}
	if _, _, ok := p.matchPower(i); ok {
		return true
	}
	switch {
	case t.e.kw&kwType != 0, p.toks[i+1].tok == Colon:
		return true
	case p.phase == judge.Adjustment && t.e.kw&kwAdjust != 0:
		return true
	case p.ix.powerLetter(p.key(i)) != judge.NoPower && p.startsUnit(i+1):
		return true
	}
	return p.placeAt(i)
}

// startsUnit reports whether a unit ([type] place) begins at token i.
func (p *parser) startsUnit(i int) bool {
	return p.isType(i) || p.placeAt(i)
}

func (p *parser) isType(i int) bool {
	return p.toks[i].tok == Word && p.toks[i].e.kw&kwType != 0
}

// placeAt reports whether a place name begins at token i.
func (p *parser) placeAt(i int) bool {
	if p.toks[i].tok != Word {
		return false
	}
	_, _, _, next := p.names(i)
	return next > 0
}

// unknownPlace reports the unknown name at token i, with suggestions. The
// name is taken to run over the words that follow it up to a keyword.
func (p *parser) unknownPlace(i int) bool {
	// "Mid-Atl": a compound that abbreviates more than one place's name.
	c := i
	for c-2 >= p.start && p.joined(c-2) {
		c -= 2
	}
	if locs, end := p.abbrev(c); len(locs) > 1 {
		if p.trial {
			return p.errorf(c, "ambiguous province") // where, not what: see parser.trial
		}
		names := make([]string, len(locs))
		for k, l := range locs {
			names[k] = p.m.FullName(l)
		}
		return p.errorf(c, "ambiguous province %q%s", p.src[p.toks[c].off:p.toks[end-1].end], didYouMean(dedupSorted(names)))
	}
	if p.trial {
		return p.errorf(i, "unknown province")
	}
	j := i
	for p.toks[j+1].tok == Word && p.toks[j+1].e.kw == 0 {
		j++
	}
	text := p.src[p.toks[i].off:p.toks[j].end]
	sugg := p.ix.suggestLocs(string(p.keys[p.toks[i].k0:p.toks[j].k1]))
	if len(sugg) == 0 && j > i {
		sugg = p.ix.suggestLocs(string(p.key(i)))
	}
	// "Engl F Lon - Nth", "Nort Vietnam A Han - Vin": a power, misspelt.
	if i == p.start && p.isType(j+1) {
		if ps := p.ix.suggestPowers(string(p.keys[p.toks[i].k0:p.toks[j].k1])); len(ps) > 0 {
			return p.unknownPower(i, j)
		}
	}
	return p.errorf(i, "unknown province %q%s", text, didYouMean(sugg))
}

// unknownPower reports the unknown power name of the words at tokens i
// to j.
func (p *parser) unknownPower(i, j int) bool {
	if p.trial {
		return p.errorf(i, "unknown power")
	}
	return p.errorf(i, "unknown power %q%s", p.src[p.toks[i].off:p.toks[j].end],
		didYouMean(p.ix.suggestPowers(string(p.keys[p.toks[i].k0:p.toks[j].k1]))))
}

func (p *parser) cur() *token      { return &p.toks[p.p] }
func (p *parser) key(i int) []byte { return p.keys[p.toks[i].k0:p.toks[i].k1] }
func (p *parser) lit(i int) string { return p.src[p.toks[i].off:p.toks[i].end] }

// sofar returns the text of the current order up to the current token.
func (p *parser) sofar() string {
	if p.p <= p.start {
		return ""
	}
	return p.src[p.toks[p.start].off:p.toks[p.p-1].end]
}

// after returns ` after "<order so far>"`, or "" at the start of an order.
func (p *parser) after() string {
	if s := p.sofar(); s != "" {
		return " after " + strconv.Quote(s)
	}
	return ""
}

// desc describes token i for a message.
func (p *parser) desc(i int) string {
	switch p.toks[i].tok {
	case EOL, EOF:
		return "end of line"
	}
	return strconv.Quote(p.lit(i))
}

// errorf records an error at token i and returns false, so that parse
// functions can end with "return p.errorf(...)".
func (p *parser) errorf(i int, format string, args ...any) bool {
	t := &p.toks[i]
	msg := format
	if !p.trial {
		msg = fmt.Sprintf(format, args...)
	}
	p.errs = append(p.errs, &Error{Line: p.line, Col: t.col, Msg: msg})
	return false
}

func isEnd(t Token) bool { return t == EOL || t == EOF }

func phaseName(t judge.PhaseType) string {
	switch t {
	case judge.Retreat:
		return "a retreat phase"
	case judge.Adjustment:
		return "an adjustment phase"
	}
	return "a movement phase"
}

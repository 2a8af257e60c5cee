package parser

import (
	"cmp"
	"slices"
	"strings"
	"unicode"

	"github.com/gmdjudge/gmd/judge"
)

// The bounds of conditional orders: a player's mail is untrusted input, and
// every condition costs an evaluation, every level of nesting a frame of
// the parser. No honest set of orders comes near either.
const (
	// MaxCondDepth is how deeply IF statements may nest.
	MaxCondDepth = 8
	// MaxConds is how many conditions (an IF or an ELSE IF line each) one
	// text may hold; the game master holds a whole mail to it too.
	MaxConds = 64
)

// A Script is a block of order lines that may hold conditionals, as
// njudge writes them after PHASE:
//
//	IF <condition> [THEN]
//	  orders
//	ELSE IF <condition> [THEN]
//	  orders
//	ELSE
//	  orders
//	ENDIF
//
// A condition is about the position at the start of the phase the orders
// are for: "[power] [type] place" holds when such a unit stands there
// ("A Bur", "Russian F Bla", "Germany IN Bel"); "power OWNS place" when
// the power owns that supply centre; and NOT, AND, OR and parentheses
// combine them, NOT binding tightest and OR loosest. ParseScript reads
// only the structure and the conditions; the order lines stay text, for
// ParseOrders, so that a script is read once with the map and evaluated
// (Select) on whatever position its phase begins with.
type Script struct {
	items []item
	// Conds is how many conditions the script holds; Control says
	// whether it has any IF, ELSE or ENDIF line at all.
	Conds   int
	Control bool
	lines   int // the number of lines of the text
	control []bool
}

// item is an order line or an IF statement of a script.
type item struct {
	line int     // the order line, from 1 (when ifs is nil)
	ifs  *ifStmt // an IF statement
}

// ifStmt is one IF ... ENDIF: its clauses, the ELSE last if any. A bad
// statement (an error in one of its lines) is never taken.
type ifStmt struct {
	clauses []clause
	bad     bool
}

// clause is the IF, an ELSE IF or the ELSE of a statement, with its
// orders.
type clause struct {
	line int
	text string
	cond *Cond // nil for ELSE
	body []item
}

// condOp is what a Cond node does.
type condOp uint8

const (
	condUnit condOp = iota // a unit stands in a place
	condOwns               // a power owns a centre
	condNot
	condAnd
	condOr
)

// Cond is a condition of a Script, read with the map: a test of the
// position, or NOT, AND, OR of conditions.
type Cond struct {
	op    condOp
	x, y  *Cond
	power judge.Power    // whose unit or centre; NoPower: anyone's unit
	typ   judge.UnitType // the unit's type; NoUnit: either
	loc   judge.Loc      // the place: a province, or a coast of one
}

// Holds reports whether c is true of pos. Dislodged units of a retreat
// phase do not count: the unit in a place is the one standing there.
func (c *Cond) Holds(pos *judge.Position) bool {
	switch c.op {
	case condNot:
		return !c.x.Holds(pos)
	case condAnd:
		return c.x.Holds(pos) && c.y.Holds(pos)
	case condOr:
		return c.x.Holds(pos) || c.y.Holds(pos)
	case condOwns:
		prov := pos.Map.Province(c.loc)
		return int(prov) < len(pos.Centers) && pos.Centers[prov] == c.power
	}
	prov := pos.Map.Province(c.loc)
	if int(prov) >= len(pos.Units) {
		return false
	}
	u := pos.Units[prov]
	return u.Type != judge.NoUnit &&
		(c.typ == judge.NoUnit || u.Type == c.typ) &&
		(c.power == judge.NoPower || u.Power == c.power) &&
		(c.loc == prov || u.Loc == c.loc)
}

// Branch is a clause of a script as Select met it: the line of its IF,
// ELSE IF or ELSE, as written, and whether it was the one taken.
type Branch struct {
	Line  int
	Text  string
	Depth int // 0 for a statement at the top, 1 inside one, ...
	Taken bool
}

// IsControl reports whether line, as written, is an IF, ELSE IF, ELSE or
// ENDIF line, which ParseScript reads and ParseOrders does not: a cheap
// test to find whether a block of orders has conditionals at all.
func IsControl(line string) bool {
	line = strings.TrimLeftFunc(line, unicode.IsSpace)
	n := 0
	for n < len(line) && ('a' <= line[n]|0x20 && line[n]|0x20 <= 'z') {
		n++
	}
	switch strings.ToUpper(line[:n]) {
	case "IF", "ELSE", "ELSEIF", "ENDIF":
		return true
	}
	return false
}

// ParseScript reads the conditionals of src, order lines with IF, ELSE
// IF, ELSE and ENDIF lines among them, on opt.Map. Its errors, with the
// line and column of the word at fault, are of the control lines only;
// a statement with an error is kept, and never taken. A condition that
// can never be true (an army at sea, a fleet inland, a place that is no
// supply centre owned) is an error.
func ParseScript(src string, opt Options) (*Script, ErrorList) {
	if opt.Map == nil {
		return nil, ErrorList{{Line: 1, Col: 1, Msg: "parser: no map"}}
	}
	p := newParser(src, opt)
	defer p.release()
	// Place names: at every choice, the longer name, as ParseLoc reads.
	p.mask, p.nchoice = ^uint32(0), 0
	s := &Script{}
	// open holds the statements being read, outermost first; each one's
	// current clause receives the lines.
	var open []*ifStmt
	top := func() *[]item {
		if len(open) == 0 {
			return &s.items
		}
		st := open[len(open)-1]
		return &st.clauses[len(st.clauses)-1].body
	}
	markBad := func() {
		if len(open) > 0 {
			open[0].bad = true
		}
	}
	var ifLines []int
	for p.readLine() {
		s.lines = p.line
		for len(s.control) < p.line {
			s.control = append(s.control, false)
		}
		t := &p.toks[0]
		if t.tok != Word || !isControlWord(p.lit(0)) {
			if !isEnd(t.tok) {
				*top() = append(*top(), item{line: p.line})
			}
			continue
		}
		s.Control = true
		s.control[p.line-1] = true
		text := strings.TrimSpace(p.src[t.off:lineEnd(p)])
		word := strings.ToUpper(p.lit(0))
		switch {
		case word == "IF":
			st := &ifStmt{clauses: []clause{{line: p.line, text: text}}}
			*top() = append(*top(), item{ifs: st})
			open = append(open, st)
			ifLines = append(ifLines, p.line)
			if len(open) > MaxCondDepth {
				p.errorf(0, "IF statements nested more than %d deep", MaxCondDepth)
				markBad()
				continue
			}
			if !p.condLine(1, s, &st.clauses[0].cond) {
				markBad()
			}
		case word == "ELSE" && p.isWord(1, "IF") || word == "ELSEIF":
			at := 1
			if word == "ELSE" {
				at = 2
			}
			if len(open) == 0 {
				p.errorf(0, "ELSE IF without IF")
				continue
			}
			st := open[len(open)-1]
			if st.clauses[len(st.clauses)-1].cond == nil && len(st.clauses) > 1 {
				p.errorf(0, "ELSE IF after ELSE")
				markBad()
			}
			st.clauses = append(st.clauses, clause{line: p.line, text: text})
			if !p.condLine(at, s, &st.clauses[len(st.clauses)-1].cond) {
				markBad()
			}
		case word == "ELSE":
			if len(open) == 0 {
				p.errorf(0, "ELSE without IF")
				continue
			}
			st := open[len(open)-1]
			if last := st.clauses[len(st.clauses)-1]; last.cond == nil && len(st.clauses) > 1 {
				p.errorf(0, "a second ELSE")
				markBad()
			}
			st.clauses = append(st.clauses, clause{line: p.line, text: text})
			if !isEnd(p.toks[1].tok) {
				p.errorf(1, "expected end of line after ELSE, found %s (write ELSE IF for another condition)", p.desc(1))
				markBad()
			}
		default: // ENDIF
			if len(open) == 0 {
				p.errorf(0, "ENDIF without IF")
				continue
			}
			n := 1
			if !isEnd(p.toks[n].tok) {
				p.errorf(n, "expected end of line after ENDIF, found %s", p.desc(n))
				markBad()
			}
			open = open[:len(open)-1]
			ifLines = ifLines[:len(ifLines)-1]
		}
	}
	for i := len(open) - 1; i >= 0; i-- {
		open[i].bad = true
		p.errs = append(p.errs, &Error{Line: ifLines[i], Col: 1, Msg: "IF without ENDIF"})
	}
	for len(s.control) < s.lines {
		s.control = append(s.control, false)
	}
	sortErrors(p.errs)
	return s, p.errs
}

// isControlWord reports whether the first word of a line makes it a
// control line. ("END IF" is not one: END is SIGNOFF, and ends the mail.)
func isControlWord(w string) bool {
	switch strings.ToUpper(w) {
	case "IF", "ELSE", "ELSEIF", "ENDIF":
		return true
	}
	return false
}

// lineEnd returns the offset of the end of the current line's text.
func lineEnd(p *parser) int {
	return p.toks[len(p.toks)-1].off
}

// sortErrors puts errs in the order of the text (the unclosed IFs are
// found last).
func sortErrors(errs ErrorList) {
	slices.SortStableFunc(errs, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
}

// isWord reports whether token i is the word w, in any case.
func (p *parser) isWord(i int, w string) bool {
	return p.toks[i].tok == Word && strings.EqualFold(p.lit(i), w)
}

// condLine reads the condition of an IF or ELSE IF line from token at,
// then an optional THEN and the end of the line. It counts the condition
// in s.
func (p *parser) condLine(at int, s *Script, c **Cond) bool {
	s.Conds++
	switch {
	case s.Conds == MaxConds+1:
		return p.errorf(0, "more than %d conditions", MaxConds)
	case s.Conds > MaxConds:
		return false
	}
	p.p, p.start = at, at
	if isEnd(p.cur().tok) {
		return p.errorf(p.p, "expected a condition after %s, found end of line", strings.ToUpper(p.src[p.toks[0].off:p.toks[at-1].end]))
	}
	x, ok := p.orCond(0)
	if !ok {
		return false
	}
	if p.isWord(p.p, "THEN") {
		p.p++
	}
	if !isEnd(p.cur().tok) {
		return p.errorf(p.p, "expected AND, OR, THEN or end of line after %q, found %s", p.sofar(), p.desc(p.p))
	}
	*c = x
	return true
}

// orCond reads conditions joined by OR. depth counts the parentheses
// open, bounded like the statements' nesting.
func (p *parser) orCond(depth int) (*Cond, bool) {
	x, ok := p.andCond(depth)
	for ok && p.isWord(p.p, "OR") {
		p.p++
		var y *Cond
		if y, ok = p.andCond(depth); ok {
			x = &Cond{op: condOr, x: x, y: y}
		}
	}
	return x, ok
}

// andCond reads conditions joined by AND.
func (p *parser) andCond(depth int) (*Cond, bool) {
	x, ok := p.notCond(depth)
	for ok && p.isWord(p.p, "AND") {
		p.p++
		var y *Cond
		if y, ok = p.notCond(depth); ok {
			x = &Cond{op: condAnd, x: x, y: y}
		}
	}
	return x, ok
}

// notCond reads NOT condition, a condition in parentheses, or a test.
func (p *parser) notCond(depth int) (*Cond, bool) {
	switch {
	case p.isWord(p.p, "NOT"):
		if depth >= 4*MaxCondDepth {
			return nil, p.errorf(p.p, "condition nested too deeply")
		}
		p.p++
		x, ok := p.notCond(depth + 1)
		if !ok {
			return nil, false
		}
		return &Cond{op: condNot, x: x}, true
	case p.cur().tok == LParen:
		if depth >= MaxCondDepth {
			return nil, p.errorf(p.p, "parentheses nested more than %d deep", MaxCondDepth)
		}
		p.p++
		x, ok := p.orCond(depth + 1)
		if !ok {
			return nil, false
		}
		if p.cur().tok != RParen {
			return nil, p.errorf(p.p, `expected ")" after %q, found %s`, p.sofar(), p.desc(p.p))
		}
		p.p++
		return x, true
	}
	return p.test()
}

// test reads "[power] [type] [IN] place" or "power OWNS place", and
// refuses one that can never be true.
func (p *parser) test() (*Cond, bool) {
	c := &Cond{op: condUnit, power: judge.NoPower, typ: judge.NoUnit, loc: judge.NoLoc}
	at := p.p
	if t := p.cur(); t.tok != Word || p.isWord(p.p, "AND") || p.isWord(p.p, "OR") || p.isWord(p.p, "THEN") {
		return nil, p.errorf(p.p, "expected a condition%s, found %s", p.after(), p.desc(p.p))
	}
	// A power's name, unless the words are a place's name and nothing
	// follows them ("IF Holland" where Holland is a place).
	if pw, next, ok := p.matchPower(p.p); ok && p.toks[next].tok == Word && !p.isWord(next, "AND") && !p.isWord(next, "OR") && !p.isWord(next, "THEN") {
		c.power, p.p = pw, next
	}
	if c.power != judge.NoPower && (p.isWord(p.p, "OWNS") || p.isWord(p.p, "OWN")) {
		c.op = condOwns
		p.p++
	} else {
		if p.isType(p.p) && p.toks[p.p+1].tok == Word {
			if p.toks[p.p].e.kw&kwArmy != 0 {
				c.typ = judge.Army
			} else {
				c.typ = judge.Fleet
			}
			p.p++
		}
		if p.isWord(p.p, "IN") && p.toks[p.p+1].tok == Word {
			p.p++
		}
	}
	where := p.p
	if !p.place(&c.loc, "a province") {
		return nil, false
	}
	m, l := p.m, c.loc
	li := &m.Locs[l]
	name := m.FullName(l)
	switch {
	case c.op == condOwns && !m.Locs[li.Province].Center:
		return nil, p.errorf(where, "%s is no supply centre: %q can never be true", m.FullName(li.Province), p.src[p.toks[at].off:p.toks[p.p-1].end])
	case c.op != condOwns && m.Locs[li.Province].Impassable:
		return nil, p.errorf(where, "no unit ever stands in %s, which is impassable: %q can never be true", m.FullName(li.Province), p.src[p.toks[at].off:p.toks[p.p-1].end])
	case c.typ == judge.Army && li.Province != l:
		return nil, p.errorf(where, "an army is never on a coast (%s): %q can never be true", name, p.src[p.toks[at].off:p.toks[p.p-1].end])
	case c.typ == judge.Army && li.Kind == judge.Sea:
		return nil, p.errorf(where, "an army is never at sea (%s): %q can never be true", name, p.src[p.toks[at].off:p.toks[p.p-1].end])
	case c.typ == judge.Fleet && m.Locs[li.Province].Kind == judge.Land:
		return nil, p.errorf(where, "a fleet is never inland (%s has no coast): %q can never be true", name, p.src[p.toks[at].off:p.toks[p.p-1].end])
	}
	return c, true
}

// OrderLines reports, for each line of the script's text from 1, whether
// it is an order line (and not IF, ELSE or ENDIF): ParseOrders should see
// these lines only, so that every order of every branch is read.
func (s *Script) OrderLines() []bool {
	out := make([]bool, s.lines)
	for i := range out {
		out[i] = !s.control[i]
	}
	return out
}

// Select evaluates the script's conditions on pos, the position at the
// start of the phase its orders are for. It returns which lines hold the
// orders of the branches taken (for each line of the text from 1, as
// OrderLines), and every clause it met, in the order of the text: the
// clauses of a statement until the one taken, then that one's body.
func (s *Script) Select(pos *judge.Position) (keep []bool, met []Branch) {
	keep = make([]bool, s.lines)
	var walk func(items []item, depth int)
	walk = func(items []item, depth int) {
		for _, it := range items {
			if it.ifs == nil {
				keep[it.line-1] = true
				continue
			}
			if it.ifs.bad {
				continue
			}
			for _, c := range it.ifs.clauses {
				taken := c.cond == nil || c.cond.Holds(pos)
				met = append(met, Branch{Line: c.line, Text: c.text, Depth: depth, Taken: taken})
				if taken {
					walk(c.body, depth+1)
					break
				}
			}
		}
	}
	walk(s.items, 0)
	return keep, met
}

// Only returns src with every line for which keep is false blanked (its
// line break kept), so that the orders read from it keep their lines.
func Only(src string, keep []bool) string {
	lines := strings.SplitAfter(normalizeBreaks(src), "\n")
	for i := range lines {
		if i >= len(keep) || !keep[i] {
			if strings.HasSuffix(lines[i], "\n") {
				lines[i] = "\n"
			} else {
				lines[i] = ""
			}
		}
	}
	return strings.Join(lines, "")
}

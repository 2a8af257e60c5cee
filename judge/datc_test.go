package judge_test

// The DATC conformance runner: the repository's own suite (testdata/datc,
// every case of DATC 3.0 section 6; see datcrepo_test.go) under each case's
// rule sets, and, when it is there, every case of every *.txt file in the
// shared godip corpus (GMD_DATC_DIR, default ../../shared/datc) under the
// DATC 2.4 rules.
//
//	go test ./judge -run TestDATC                         all cases
//	go test ./judge -run 'TestDATC/shared/.*/6.F.14'      one case (both 6.F.14s)
//	go test ./judge -run XXX -bench DATC                  adjudication speed
//
// A case passes when the units and dislodged units of Resolution.Next are
// the expected ones, Adjudicate left its input alone, every order has a
// ruling, and the per-order checks hold: "#= <outcome>" annotations in our
// own files, and the hand-classified comments of the godip files (see
// godipOrderComments).

import (
	"fmt"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/parser"
)

// datcCorpusSize is the number of cases in the shared godip corpus:
// 167 (datc_v2.4_06) + 9 (dipai) + 4 (real) + 4 (droidippy) + 1 (diplicity).
const datcCorpusSize = 185

// datcUnparseable lists the order texts ("Power: order" as written) that
// the parser may refuse, each with the reason why refusing it is right. A
// refused order is dropped, which the DATC treats like the void order it
// is. Any other order that fails to parse fails its case: the parser should
// read everything the format describes.
var datcUnparseable = map[string]string{
	// 6.A.7.modified: the order itself says the convoyed unit is a fleet,
	// which no position can make legal.
	"England: F nth Convoys F lon-bel": "a convoy of a fleet",
	// 6.H.1-6.H.3: in a retreat phase only retreats and disbands exist; the
	// parser knows the phase and says so.
	"Austria: A ser S F tri-alb": "a support in a retreat phase",
	"Russia: F hol S F edi-nth":  "a support in a retreat phase",
	"England: F nth C A hol-yor": "a convoy in a retreat phase",
}

// datcCheckKind is what a per-order check demands of the ruling.
type datcCheckKind uint8

const (
	datcCheckNone      datcCheckKind = iota // the comment states no outcome
	datcCheckSucceeds                       // the order did what it asked
	datcCheckFails                          // it did not (bounced, void, cut, …)
	datcCheckDislodged                      // the ordered unit was dislodged
	datcCheckOutcome                        // exactly this Outcome ("#=" annotations)
)

func (k datcCheckKind) String() string {
	return [...]string{"no check", "succeeds", "fails", "dislodged", "outcome"}[k]
}

// godipOrderComments classifies, by hand, every comment that the shared
// godip files put on an ORDERS line. Only comments that say plainly what
// became of the order they sit on give a check; comments about intent,
// paradox membership or other units give none ("will dislodged English
// fleet" is on the French move, which therefore succeeds; it says nothing
// about the French fleet being dislodged). TestDATCOrderComments fails if a
// comment in the corpus is missing here, so the list stays complete.
var godipOrderComments = map[string]datcCheckKind{
	// datc_v2.4_06.txt
	"no coast specified in a multi-coastal area": datcCheckNone, // 6.B.14
	"impossible move":                                   datcCheckFails,     // 6.D.28, 6.D.29
	"not a legal order. Dislodged/Destroyed":            datcCheckDislodged, // 6.D.34
	"illegal":                                           datcCheckFails,     // 6.E.14
	"part of paradox":                                   datcCheckNone,      // 6.F.22.extended
	"not part of paradox":                               datcCheckNone,      // 6.F.22.extended
	"this will occur, over land.":                       datcCheckSucceeds,  // 6.G.3
	"will dislodged English fleet":                      datcCheckSucceeds,  // 6.G.4
	"should be successful, over land":                   datcCheckSucceeds,  // 6.G.4
	"explicit!":                                         datcCheckNone,      // 6.G.8, 6.G.10
	"intent is to convoy":                               datcCheckNone,      // 6.G.9, 6.G.11
	"this is the order that shows intent":               datcCheckNone,      // 6.G.9
	"this creates intent to convoy":                     datcCheckNone,      // 6.G.11, 6.G.13
	"move will use convoy":                              datcCheckNone,      // 6.G.13
	"retreat":                                           datcCheckNone,      // 6.H.1
	"this is illegal":                                   datcCheckFails,     // 6.H.1
	"clearly illegal":                                   datcCheckFails,     // 6.H.2, 6.H.3
	"fails; will disband":                               datcCheckFails,     // 6.H.3
	"valid retreat order":                               datcCheckNone,      // 6.H.4: "valid" is not "succeeds"
	"clearly illegal; unit isn't dislodged":             datcCheckFails,     // 6.H.4
	"cannot retreat to black sea! disbanded":            datcCheckFails,     // 6.H.5
	"cannot retreat to con (unit there)! disbanded":     datcCheckFails,     // 6.H.5.mod
	"failure: boh is a contested area. Disbanded.":      datcCheckFails,     // 6.H.6
	"should fail; was attacked from ber; will disband!": datcCheckFails,     // 6.H.10
	"this should succeed.":                              datcCheckSucceeds,  // 6.H.10
	"should succeeds since gas-mar was via convoy":      datcCheckSucceeds,  // 6.H.11
	"this is the question":                              datcCheckNone,      // 6.H.12
	"illegal retreat! will disband.":                    datcCheckFails,     // 6.H.13
	"will disband":                                      datcCheckFails,     // 6.H.14
	"spa (all of) is contested; disbands":               datcCheckFails,     // 6.H.16
	"not owned, not a Homse SC, and has a unit there!":  datcCheckFails,     // 6.I.1
	"this should succeed":                               datcCheckSucceeds,  // 6.I.1
	"fails; already built kie unit":                     datcCheckFails,     // 6.I.1
	"will fail; unit already build (1 build unused)":    datcCheckFails,     // 6.I.7 (second of two identical builds)
	"dislodged":                                         datcCheckDislodged, // dipai DipAI:F02M
	"this is a convoy order":                            datcCheckNone,      // real.txt
	"converted from joke order":                         datcCheckNone,      // real.txt
}

// datcKey identifies the ruling for an order: power, province of the
// ordered unit (or build), and kind.
type datcKey struct {
	power judge.Power
	prov  judge.Loc
	kind  judge.OrderKind
}

func datcKeyOf(m *judge.Map, o *judge.Order) datcKey {
	p := o.Unit
	if int(p) < m.NumLocs() {
		p = m.Province(p)
	}
	return datcKey{o.Power, p, o.Kind}
}

// datcCheck is one per-order expectation.
type datcCheck struct {
	line    int
	text    string // the order line as written
	why     string // the comment it comes from
	key     datcKey
	kind    datcCheckKind
	outcome judge.Outcome // for datcCheckOutcome
}

func (ck *datcCheck) holds(r *judge.OrderResult) bool {
	switch ck.kind {
	case datcCheckOutcome:
		return r.Outcome == ck.outcome
	case datcCheckDislodged:
		return r.Dislodged || r.Outcome == judge.Dislodged
	case datcCheckSucceeds:
		return datcSucceeded(r)
	case datcCheckFails:
		return !datcSucceeded(r)
	}
	return true
}

func (ck *datcCheck) want() string {
	if ck.kind == datcCheckOutcome {
		return ck.outcome.String()
	}
	return ck.kind.String()
}

// datcSucceeded reports whether an order did what it asked. A disband order
// succeeds by disbanding; any other order that ends in a disbanding (a
// retreat that failed) did not succeed.
func datcSucceeded(r *judge.OrderResult) bool {
	switch r.Outcome {
	case judge.Succeeds, judge.Built, judge.Removed, judge.Waived:
		return true
	case judge.Disbanded:
		return r.Order.Kind == judge.Disband
	}
	return false
}

// datcOutcomeByName reads an outcome as judge.Outcome.String writes it.
func datcOutcomeByName(s string) (judge.Outcome, bool) {
	for o := judge.Outcome(1); !strings.HasPrefix(o.String(), "Outcome("); o++ {
		if o.String() == s {
			return o, true
		}
	}
	return 0, false
}

// datcWant is an expected unit.
type datcWant struct {
	line int
	u    judge.Unit
	// anyCoast marks a fleet written without a coast on a province with
	// split coasts: it matches a fleet on either coast. The shared corpus
	// never writes one (TestDATCReader checks); our own files may.
	anyCoast bool
}

func (w datcWant) matches(m *judge.Map, u judge.Unit) bool {
	if w.u.Power != u.Power || w.u.Type != u.Type {
		return false
	}
	if w.anyCoast {
		return int(u.Loc) < m.NumLocs() && m.Province(u.Loc) == w.u.Loc
	}
	return w.u.Loc == u.Loc
}

// datcDropped is an order line that failed to parse.
type datcDropped struct {
	line    int
	text    string // "Power: order"
	err     error
	allowed bool // listed in datcUnparseable
}

// datcRun is a case ready to adjudicate.
type datcRun struct {
	c             *datcCase
	m             *judge.Map
	pos           *judge.Position
	orders        []judge.Order
	src           []datcOrder // the line of each order
	dropped       []datcDropped
	wantUnits     []datcWant
	wantDislodged []datcWant
	checks        []datcCheck
	// refused counts the "#= refused" orders that the parser refused, as
	// it must; problems holds those it read all the same.
	refused  int
	problems []string
}

func (r *datcRun) errf(line int, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", r.c.path, line, fmt.Sprintf(format, args...))
}

func (r *datcRun) power(line int, name string) (judge.Power, error) {
	p, ok := r.m.PowerByName(name)
	if !ok {
		return judge.NoPower, r.errf(line, "unknown power %q", name)
	}
	return p, nil
}

// unit resolves a unit line; a fleet on a split-coast province without a
// coast is refused unless loose (expectations only).
func (r *datcRun) unit(u datcUnit, loose bool) (judge.Unit, bool, error) {
	m := r.m
	p, err := r.power(u.line, u.power)
	if err != nil {
		return judge.Unit{}, false, err
	}
	l, ok := m.Lookup(u.loc)
	if !ok {
		return judge.Unit{}, false, r.errf(u.line, "unknown province %q", u.loc)
	}
	ju := judge.Unit{Type: u.typ, Power: p, Loc: l}
	if loose && u.typ == judge.Fleet && len(m.Locs[l].Coasts) > 0 {
		return ju, true, nil
	}
	if !m.CanHold(u.typ, l) {
		return judge.Unit{}, false, r.errf(u.line, "%s %s cannot stand in %s", u.power, u.typ, u.loc)
	}
	return ju, false, nil
}

// parse reads one order for a phase of type pt. An order that does not
// parse is recorded in r.dropped and reported as not ok.
func (r *datcRun) parse(line int, powerName, text string, pt judge.PhaseType) (judge.Order, bool, error) {
	m := r.m
	p, err := r.power(line, powerName)
	if err != nil {
		return judge.Order{}, false, err
	}
	o, err := parser.ParseOrder(text, parser.Options{Map: m, Phase: pt, Power: p})
	if err != nil {
		full := m.PowerName(p) + ": " + text
		_, allowed := datcUnparseable[full]
		r.dropped = append(r.dropped, datcDropped{line: line, text: full, err: err, allowed: allowed})
		return judge.Order{}, false, nil
	}
	o.Power = p
	return o, true, nil
}

// buildDATCRun turns a case into a position, orders and expectations on
// map m. godip says whether the file is one of the shared godip files, whose
// free-text comments godipOrderComments classifies.
//
// Supply centres: a case with PRESTATE_SUPPLYCENTER_OWNERS owns exactly the
// centres listed (every adjustment case of the corpus has the section, and
// 6.I/6.J depend on it: 6.I.5 gives Berlin to Russia, 6.J.9 gives Russia
// only St Petersburg); a case without it starts from the map's home-centre
// ownership (Map.StartCenters), which only matters for the ownership update
// after a Fall movement, never for the units the cases expect.
func buildDATCRun(c *datcCase, m *judge.Map, godip bool) (*datcRun, error) {
	r := &datcRun{c: c, m: m, pos: judge.NewPosition(m, c.phase)}
	errf, power, unit, parse := r.errf, r.power, r.unit, r.parse

	// Centres.
	if c.hasOwners {
		for _, u := range c.owners {
			p, err := power(u.line, u.power)
			if err != nil {
				return nil, err
			}
			l, ok := m.Lookup(u.loc)
			if !ok {
				return nil, errf(u.line, "unknown province %q", u.loc)
			}
			l = m.Province(l)
			if !m.Locs[l].Center {
				return nil, errf(u.line, "%s is not a supply centre", u.loc)
			}
			if r.pos.Centers[l] != judge.NoPower {
				return nil, errf(u.line, "%s owned twice", u.loc)
			}
			r.pos.Centers[l] = p
		}
	} else {
		copy(r.pos.Centers, m.StartCenters)
	}

	// Units.
	for _, u := range c.prestate {
		ju, _, err := unit(u, false)
		if err != nil {
			return nil, err
		}
		if err := r.pos.Place(ju); err != nil {
			return nil, errf(u.line, "%v", err)
		}
	}

	// How the previous movement went: who dislodged whom, where the
	// stand-offs were.
	type prevMove struct {
		line    int
		success bool
		o       judge.Order
	}
	var moves []prevMove
	for _, res := range c.results {
		o, ok, err := parse(res.line, res.power, res.text, judge.Movement)
		if err != nil {
			return nil, err
		}
		if ok && o.Kind == judge.Move {
			moves = append(moves, prevMove{res.line, res.success, o})
		}
	}
	// attackerOrigin[p] is the province the unit that dislodged the unit in
	// p came from, whether by land or by convoy.
	attackerOrigin := map[judge.Loc]judge.Loc{}
	for _, u := range c.dislodged {
		ju, _, err := unit(u, false)
		if err != nil {
			return nil, err
		}
		prov := m.Province(ju.Loc)
		if _, dup := attackerOrigin[prov]; dup {
			return nil, errf(u.line, "two dislodged units in %s", u.loc)
		}
		du := judge.DislodgedUnit{Unit: ju, AttackerFrom: judge.NoLoc}
		attackerOrigin[prov] = judge.NoLoc
		found := false
		for _, mv := range moves {
			if !mv.success || m.Province(mv.o.Target) != prov {
				continue
			}
			found = true
			from := m.Province(mv.o.Unit)
			attackerOrigin[prov] = from
			// An army that came by convoy leaves its origin open to the
			// retreat (DATC 6.H.11, 6.H.12). The data says so with "via
			// convoy"; a move between provinces that armies cannot walk
			// between was convoyed too (dipai F01R: A wal-pic).
			attackerType := mv.o.Type
			if attackerType == judge.NoUnit {
				if at, ok := r.pos.UnitAt(prov); ok {
					attackerType = at.Type
				}
			}
			convoyed := mv.o.ViaConvoy || len(mv.o.Route) > 0 ||
				attackerType == judge.Army && !m.ArmyAdjacent(mv.o.Unit, mv.o.Target)
			if !convoyed {
				du.AttackerFrom = from
			}
		}
		if !found && len(c.results) > 0 {
			return nil, errf(u.line, "no SUCCESS move into %s in PRESTATE_RESULTS says who dislodged this unit", u.loc)
		}
		r.pos.Dislodged = append(r.pos.Dislodged, du)
	}
	// A stand-off leaves its province empty with at least two failed moves
	// into it. One failed move into an empty province is no stand-off: it
	// failed for its own reasons, like the head-to-head loser of 6.H.9
	// (Russian A pru-ber, dislodged from Berlin: Berlin stays open to
	// retreats) or the disrupted convoy of 6.H.12 (English A lvp-edi:
	// Edinburgh stays open). A unit dislodged by a unit that came from the
	// province it moved to had no effect there (DATC 6.E.1) and is not
	// counted.
	failedInto := map[judge.Loc]int{}
	for _, mv := range moves {
		if mv.success {
			continue
		}
		dest := m.Province(mv.o.Target)
		if _, occupied := r.pos.UnitAt(dest); occupied {
			continue
		}
		if from, ok := attackerOrigin[m.Province(mv.o.Unit)]; ok && from == dest {
			continue
		}
		failedInto[dest]++
	}
	for _, p := range m.Provinces() {
		if failedInto[p] >= 2 {
			r.pos.Bounced = append(r.pos.Bounced, p)
		}
	}

	if err := r.addPhase(&c.datcPhaseData, godip); err != nil {
		return nil, err
	}
	return r, nil
}

// addPhase reads the orders and expectations of one phase of r's case,
// to be played on r.pos.
func (r *datcRun) addPhase(pd *datcPhaseData, godip bool) error {
	c, m := r.c, r.m
	// Orders. An order for a unit the power does not own goes to the
	// adjudicator like any other: ruling it void is its business (6.A.6).
	for _, od := range pd.orders {
		refuse := datcAnnotation(od.comment) == "refused"
		if refuse {
			n := len(r.dropped)
			if _, ok, err := r.parse(od.line, od.power, od.text, c.phase.Type); err != nil {
				return err
			} else if ok {
				r.problems = append(r.problems, fmt.Sprintf("line %d %q: the parser read it, but #= refused says it must refuse it in a %v phase",
					od.line, od.power+": "+od.text, c.phase.Type))
			} else {
				r.dropped = r.dropped[:n] // refused as expected
				r.refused++
			}
			continue
		}
		o, ok, err := r.parse(od.line, od.power, od.text, c.phase.Type)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		r.orders = append(r.orders, o)
		r.src = append(r.src, od)
		ck := datcCheck{line: od.line, text: m.PowerName(o.Power) + ": " + od.text, why: od.comment, key: datcKeyOf(m, &o)}
		switch {
		case strings.HasPrefix(od.comment, "="):
			name := datcAnnotation(od.comment)
			out, ok := datcOutcomeByName(name)
			if !ok {
				return r.errf(od.line, "unknown outcome %q in #= annotation", name)
			}
			ck.kind, ck.outcome = datcCheckOutcome, out
		case godip && od.comment != "":
			ck.kind = godipOrderComments[od.comment]
		}
		if ck.kind != datcCheckNone {
			r.checks = append(r.checks, ck)
		}
	}

	// Expectations. POSTSTATE_SAME: the units stand where they stood.
	if pd.same {
		if c.phase.Type == judge.Retreat {
			return r.errf(c.line, "POSTSTATE_SAME in a retreat phase: write where the units end up")
		}
		for _, u := range r.pos.Units {
			if u.Type != judge.NoUnit {
				r.wantUnits = append(r.wantUnits, datcWant{line: c.line, u: u})
			}
		}
		for _, d := range r.pos.Dislodged {
			r.wantDislodged = append(r.wantDislodged, datcWant{line: c.line, u: d.Unit})
		}
		return nil
	}
	for _, list := range []struct {
		in  []datcUnit
		out *[]datcWant
	}{{pd.post, &r.wantUnits}, {pd.postDislodged, &r.wantDislodged}} {
		for _, u := range list.in {
			ju, loose, err := r.unit(u, true)
			if err != nil {
				return err
			}
			*list.out = append(*list.out, datcWant{line: u.line, u: ju, anyCoast: loose})
		}
	}
	return nil
}

// datcAnnotation returns the name in a "#= name" annotation (the comment
// without its '#'), or "".
func datcAnnotation(comment string) string {
	rest, ok := strings.CutPrefix(comment, "=")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, "#")
	return strings.TrimSpace(name)
}

// datcTestName makes a subtest name of a case label: the DATC number when
// the label starts with one ("6.E.15. TEST CASE, …" is "6.E.15", "6.A.5.old
// (Nov-24-2001 DATC)" is "6.A.5.old"), otherwise the label with every run
// of other characters than letters, digits and ".:-" made one "_" (a "/"
// would split the name into levels).
func datcTestName(label string) string {
	if f := strings.Fields(label); len(f) > 0 && f[0][0] >= '0' && f[0][0] <= '9' {
		return strings.TrimRight(f[0], ".")
	}
	var b strings.Builder
	under := false
	for _, ch := range label {
		if ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || strings.ContainsRune(".:-", ch) {
			b.WriteRune(ch)
			under = false
		} else if !under && b.Len() > 0 {
			b.WriteByte('_')
			under = true
		}
	}
	return strings.TrimRight(b.String(), "_")
}

// datcStats counts over the whole corpus, for the summary line.
type datcStats struct {
	cases, orders, dropped, allowed, checks int
	refused                                 map[string]bool // texts of the dropped orders
}

// runDATCFile runs every case of one file as subtests.
func runDATCFile(t *testing.T, df *datcFile, m *judge.Map, rules judge.Rules, godip bool, st *datcStats) {
	t.Run(strings.TrimSuffix(filepath.Base(df.path), ".txt"), func(t *testing.T) {
		if df.variant != "" && !strings.EqualFold(df.variant, "standard") {
			t.Fatalf("%s: variant %q: only the standard map is known here", df.path, df.variant)
		}
		used := map[string]int{}
		for _, c := range df.cases {
			name := datcTestName(c.label)
			if used[name]++; used[name] > 1 {
				name = fmt.Sprintf("%s_%d", name, used[name])
			}
			t.Run(name, func(t *testing.T) {
				st.cases++
				r, err := buildDATCRun(c, m, godip)
				if err != nil {
					t.Fatalf("case %q: %v", c.label, err)
				}
				st.orders += len(c.orders)
				st.checks += len(r.checks)
				for _, d := range r.dropped {
					st.dropped++
					st.refused[d.text] = true
					if d.allowed {
						st.allowed++
						t.Logf("%s:%d: %q does not parse (allowed: %s): %v", c.path, d.line, d.text, datcUnparseable[d.text], d.err)
					} else {
						t.Errorf("%s:%d: %q does not parse: %v\n(the parser should read it; if it is deliberately illegal, list it in datcUnparseable with the reason)",
							c.path, d.line, d.text, d.err)
					}
				}
				runDATCCase(t, r, rules)
			})
		}
	})
}

// runDATCCase adjudicates one case (or one phase of a chained case),
// compares, and returns the resolution.
func runDATCCase(t *testing.T, r *datcRun, rules judge.Rules) *judge.Resolution {
	t.Helper()
	m := r.m
	before := r.pos.Clone()
	ordersBefore := datcCloneOrders(r.orders)
	var res *judge.Resolution
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("Adjudicate panicked: %v\n%s\n%s", p, debug.Stack(), r.describe(nil, nil))
			}
		}()
		res = judge.Adjudicate(r.pos, r.orders, rules)
	}()

	problems := slices.Clone(r.problems)
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if !reflect.DeepEqual(before, r.pos) {
		fail("Adjudicate changed the position it was given")
	}
	if !reflect.DeepEqual(ordersBefore, r.orders) {
		fail("Adjudicate changed the orders it was given")
	}
	if res == nil || res.Next == nil {
		t.Fatalf("Adjudicate returned no next position\n%s", r.describe(res, nil))
	}
	next := res.Next

	// Units, each in the slot of its province.
	var units []judge.Unit
	for i, u := range next.Units {
		if u.Type == judge.NoUnit {
			continue
		}
		if int(u.Loc) >= m.NumLocs() || m.Province(u.Loc) != judge.Loc(i) {
			fail("Next.Units[%s] holds a unit at %s", m.LocName(judge.Loc(i)), m.LocName(u.Loc))
		}
		units = append(units, u)
	}
	datcCompareUnits(m, "units", r.wantUnits, units, fail)
	var disl []judge.Unit
	for _, d := range next.Dislodged {
		disl = append(disl, d.Unit)
	}
	datcCompareUnits(m, "dislodged units", r.wantDislodged, disl, fail)

	// Next is the next phase with something to do: a retreat phase exactly
	// when units wait to retreat.
	ph := r.c.phase
	if len(next.Dislodged) > 0 {
		want := judge.Phase{Season: ph.Season, Year: ph.Year, Type: judge.Retreat}
		if ph.Type != judge.Movement || next.Phase != want {
			fail("Next has dislodged units but its phase is %v after %v", next.Phase, ph)
		}
	} else if next.Phase.Type == judge.Retreat {
		fail("Next is the retreat phase %v but has no dislodged units", next.Phase)
	}

	// A ruling for every order.
	have := map[datcKey][]int{}
	for i := range res.Results {
		k := datcKeyOf(m, &res.Results[i].Order)
		have[k] = append(have[k], i)
	}
	sent := map[datcKey]int{}
	for i := range r.orders {
		k := datcKeyOf(m, &r.orders[i])
		if sent[k]++; sent[k] > len(have[k]) {
			fail("no ruling for order %q (line %d)", r.orders[i].CanonicalWithPower(m), r.src[i].line)
		}
	}

	// Per-order checks, the exact ones first so that a coarse check cannot
	// take the ruling an exact one needs (6.I.7 has two identical builds).
	checks := slices.Clone(r.checks)
	slices.SortStableFunc(checks, func(a, b datcCheck) int { return int(b.kind) - int(a.kind) })
	usedRes := map[int]bool{}
	for _, ck := range checks {
		var got []string
		ok := false
		for _, i := range have[ck.key] {
			if usedRes[i] {
				continue
			}
			if ck.holds(&res.Results[i]) {
				usedRes[i], ok = true, true
				break
			}
			got = append(got, datcResultText(&res.Results[i]))
		}
		if !ok {
			if len(got) == 0 {
				got = []string{"no ruling"}
			}
			fail("line %d %q (%s): want %s, got %s", ck.line, ck.text, datcCommentText(ck.why), ck.want(), strings.Join(got, "; "))
		}
	}

	if len(problems) > 0 {
		t.Errorf("%s\n%s", strings.Join(problems, "\n"), r.describe(res, units))
	}
	return res
}

// datcCompareUnits reports the expected units that are missing and the actual
// ones that nobody expected.
func datcCompareUnits(m *judge.Map, what string, want []datcWant, got []judge.Unit, fail func(string, ...any)) {
	used := make([]bool, len(got))
	var missing, extra []string
	for _, w := range want {
		found := false
		for i, u := range got {
			if !used[i] && w.matches(m, u) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			missing = append(missing, datcUnitText(m, w.u))
		}
	}
	for i, u := range got {
		if !used[i] {
			extra = append(extra, datcUnitText(m, u))
		}
	}
	if len(missing) > 0 || len(extra) > 0 {
		fail("%s: missing [%s], unexpected [%s]", what, strings.Join(missing, ", "), strings.Join(extra, ", "))
	}
}

func datcUnitText(m *judge.Map, u judge.Unit) string {
	return m.PowerName(u.Power) + ": " + u.Type.String() + " " + m.LocName(u.Loc)
}

func datcUnitsText(m *judge.Map, us []judge.Unit) string {
	s := make([]string, len(us))
	for i, u := range us {
		s[i] = datcUnitText(m, u)
	}
	slices.Sort(s)
	return strings.Join(s, ", ")
}

func datcResultText(r *judge.OrderResult) string {
	s := r.Outcome.String()
	if r.Dislodged && r.Failed != 0 && r.Failed != r.Outcome {
		s += " (" + r.Failed.String() + ")"
	}
	if r.Default {
		s += " [default]"
	}
	if r.Reason != "" {
		s += ": " + r.Reason
	}
	return s
}

// datcCommentText writes an order line's comment back as the file has it:
// "#= bounce" for an annotation, "# text" for free text.
func datcCommentText(c string) string {
	if strings.HasPrefix(c, "=") {
		return "#" + c
	}
	return "# " + c
}

func datcCloneOrders(orders []judge.Order) []judge.Order {
	c := slices.Clone(orders)
	for i := range c {
		c[i].Route = slices.Clone(c[i].Route)
	}
	return c
}

// describe writes what the lead needs to debug a failing case: where it
// is, the position, the orders as written and as parsed, the expectation,
// what came out, and every ruling.
func (r *datcRun) describe(res *judge.Resolution, units []judge.Unit) string {
	m, c := r.m, r.c
	var b strings.Builder
	fmt.Fprintf(&b, "--- case %q (%s:%d), %v\n", c.label, c.path, c.line, c.phase)
	var pre []judge.Unit
	for _, u := range r.pos.Units {
		if u.Type != judge.NoUnit {
			pre = append(pre, u)
		}
	}
	fmt.Fprintf(&b, "prestate:  %s\n", datcUnitsText(m, pre))
	for _, d := range r.pos.Dislodged {
		fmt.Fprintf(&b, "dislodged: %s (attacker from %s)\n", datcUnitText(m, d.Unit), m.LocName(d.AttackerFrom))
	}
	if len(r.pos.Bounced) > 0 {
		names := make([]string, len(r.pos.Bounced))
		for i, l := range r.pos.Bounced {
			names[i] = m.LocName(l)
		}
		fmt.Fprintf(&b, "stand-offs: %s\n", strings.Join(names, ", "))
	}
	b.WriteString("orders:\n")
	for i, o := range r.orders {
		fmt.Fprintf(&b, "  %-36s  line %d: %s: %s", o.CanonicalWithPower(m), r.src[i].line, r.src[i].power, r.src[i].text)
		if cm := r.src[i].comment; cm != "" {
			fmt.Fprintf(&b, "  %s", datcCommentText(cm))
		}
		b.WriteByte('\n')
	}
	for _, d := range r.dropped {
		fmt.Fprintf(&b, "  (dropped, unparseable) line %d: %s: %v\n", d.line, d.text, d.err)
	}
	want := func(ws []datcWant) string {
		us := make([]judge.Unit, len(ws))
		for i, w := range ws {
			us[i] = w.u
		}
		return datcUnitsText(m, us)
	}
	fmt.Fprintf(&b, "want units:     %s\n", want(r.wantUnits))
	if res != nil && res.Next != nil {
		fmt.Fprintf(&b, "got units:      %s\n", datcUnitsText(m, units))
	}
	fmt.Fprintf(&b, "want dislodged: %s\n", want(r.wantDislodged))
	if res == nil {
		return b.String()
	}
	if res.Next != nil {
		var disl []string
		for _, d := range res.Next.Dislodged {
			disl = append(disl, fmt.Sprintf("%s (attacker from %s)", datcUnitText(m, d.Unit), m.LocName(d.AttackerFrom)))
		}
		fmt.Fprintf(&b, "got dislodged:  %s\nnext phase: %v\n", strings.Join(disl, ", "), res.Next.Phase)
	}
	for _, u := range res.Destroyed {
		fmt.Fprintf(&b, "destroyed: %s\n", datcUnitText(m, u))
	}
	b.WriteString("rulings:\n")
	for i := range res.Results {
		rr := &res.Results[i]
		fmt.Fprintf(&b, "  %-36s  %s\n", rr.Order.CanonicalWithPower(m), datcResultText(rr))
	}
	return b.String()
}

// TestDATC runs the repository's DATC suite (testdata/datc: all of
// section 6 of DATC 3.0, under each case's rule sets) and, when it is
// there, the shared godip corpus under the DATC 2.4 rules.
func TestDATC(t *testing.T) {
	m := variants.Standard()
	rs := repoStats{runs: map[string]int{}}
	t.Run("repo", func(t *testing.T) { runRepoDATC(t, &rs) })
	t.Logf("DATC suite (%s): %d cases, %d runs under datc-3.0 and %d under datc-2.4, %d chained (%d retreats also played alone), %d per-order checks, %d orders refused as they must be",
		repoDATCDir, rs.cases, rs.runs[judge.DATC30.Name], rs.runs[judge.DATC24.Name], rs.chained, rs.alone, rs.checks, rs.refused)

	st := datcStats{refused: map[string]bool{}}
	t.Run("shared", func(t *testing.T) {
		dir, isDefault := datcDir(t)
		files, err := readDATCDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Fatalf("no *.txt files in %s", dir)
		}
		total := 0
		for _, df := range files {
			total += len(df.cases)
			runDATCFile(t, df, m, judge.DATC24, true, &st)
		}
		if isDefault && total != datcCorpusSize {
			t.Errorf("read %d cases from %s, want %d", total, dir, datcCorpusSize)
		}
	})
	if st.cases > 0 {
		t.Logf("shared corpus: %d cases, %d orders, %d unparseable (%d allowed), %d per-order checks",
			st.cases, st.orders, st.dropped, st.allowed, st.checks)
	}
	if st.cases >= datcCorpusSize {
		for text := range datcUnparseable {
			if !st.refused[text] {
				t.Logf("datcUnparseable: %q parses now; the entry can go", text)
			}
		}
	}
}

// TestDATCOrderComments keeps godipOrderComments complete and free of
// stale entries: every comment on an ORDERS line of the shared corpus is
// classified, and every classification is used.
func TestDATCOrderComments(t *testing.T) {
	dir, isDefault := datcDir(t)
	if !isDefault {
		t.Skip("GMD_DATC_DIR is not the shared corpus")
	}
	files, err := readDATCDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	checks := 0
	for _, df := range files {
		for _, c := range df.cases {
			for _, o := range c.orders {
				if o.comment == "" {
					continue
				}
				k, ok := godipOrderComments[o.comment]
				if !ok {
					t.Errorf("%s:%d: comment %q is not classified in godipOrderComments", df.path, o.line, o.comment)
				}
				used[o.comment] = true
				if k != datcCheckNone {
					checks++
				}
			}
		}
	}
	for c := range godipOrderComments {
		if !used[c] {
			t.Errorf("godipOrderComments: %q is in no order comment of the corpus", c)
		}
	}
	// 6.D.28, 6.D.29, 6.D.34, 6.E.14, 6.G.3, 6.G.4 ×2, 6.H.1, 6.H.2, 6.H.3 ×2,
	// 6.H.4, 6.H.5, 6.H.5.mod, 6.H.6, 6.H.10 ×2, 6.H.11, 6.H.13, 6.H.14 ×2,
	// 6.H.16, 6.I.1 ×3, 6.I.7, DipAI:F02M ×3.
	if checks != 29 {
		t.Errorf("%d order comments give checks, want 29", checks)
	}
}

// BenchmarkDATC adjudicates the first phase of every case of the
// repository's suite (testdata/datc, all of DATC 3.0 section 6) once per
// op, under its first rule set. Reading, parsing and building the
// positions happen before the timed loop; positions are reused as is,
// which TestDATC makes safe by checking that Adjudicate leaves its input
// alone.
func BenchmarkDATC(b *testing.B) {
	m := variants.Standard()
	type run struct {
		r     *datcRun
		rules judge.Rules
	}
	var runs []run
	for _, df := range readRepoDATC(b) {
		for _, c := range df.cases {
			r, err := buildDATCRun(c, m, false)
			if err != nil {
				b.Fatal(err)
			}
			runs = append(runs, run{r, datcRuleSets[c.rules[0]]})
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range runs {
			judge.Adjudicate(r.r.pos, r.r.orders, r.rules)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(runs)), "ns/case")
	b.ReportMetric(float64(len(runs)), "cases")
}

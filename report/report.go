// Package report writes the results of a processed phase as text, in the
// layout of the njudge 1.7 email judges (judge-mail-format.md §3d, §3e):
// one line per order grouped by power, the dislodged units, the ownership
// table and build counts after a Fall, and the next phase. Other programs
// read this text, so the layout follows njudge to the space; where gmd
// differs it says so below.
//
// Variants with supply-centre construction ("34, 35, 36") add paragraphs
// that njudge never wrote: the centres under construction after every
// phase that leaves some, the constructions that ended with a Fall (built,
// or not and why; said again in the Winter's results that follow), and
// the victory count under the ownership table.
//
// WriteResults writes only the body of one phase's results. The header
// lines of a game's mail (judge, game, deadline) and the game name and turn
// number after the title belong to the caller.
package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gmdjudge/gmd/judge"
)

// lineWidth is where njudge wraps long lines: a character that would land
// in column 79 (counting from 0) moves the last word or list item to the
// next line.
const lineWidth = 79

// WriteResults writes the results of the phase that was played from pos
// and ruled on in res: the results for its orders, then what the phase
// leaves to do, ending with the next phase (or the end of the game).
func WriteResults(w io.Writer, pos *judge.Position, res *judge.Resolution) error {
	return WriteResultsAs(w, pos, res, nil)
}

// WriteResultsAs is WriteResults for one viewer under fog of war (nil:
// everything), pos and res being what the viewer sees (view.Fog).
func WriteResultsAs(w io.Writer, pos *judge.Position, res *judge.Resolution, v *Viewer) error {
	wr := writer{m: pos.Map, pos: pos, res: res, v: v}
	switch pos.Phase.Type {
	case judge.Retreat:
		wr.retreats()
	case judge.Adjustment:
		wr.adjustments()
	default:
		wr.movement()
	}
	wr.v.nothingSeen(&wr.b, wr.m)
	if len(res.Constructions) > 0 {
		wr.constructionsEnded()
	}
	if pos.Phase.Type == judge.Adjustment && len(pos.EndedConstructions) > 0 {
		wr.constructionsStarted()
	}
	if res.Next != nil && len(res.Next.PendingCenters) > 0 {
		wr.underConstruction(res.Next)
	}
	if res.OwnershipChanged && res.Next != nil {
		wr.ownership(res.Next)
	}
	wr.nextPhase()
	_, err := io.WriteString(w, wr.b.String())
	return err
}

// writer builds the text of one phase's results.
type writer struct {
	b   strings.Builder
	m   *judge.Map
	pos *judge.Position
	res *judge.Resolution
	v   *Viewer // nil: everything is seen
}

// ruling is one result with what the report needs to know about it.
type ruling struct {
	r     *judge.OrderResult
	o     judge.Order // the order, with the unit's exact place filled in
	u     judge.Unit  // the ordered unit, if found
	found bool
	power judge.Power // whose line it is
}

// rulings returns the results in power order, each power's by the name of
// the unit's province, so that a report reads the same whatever order the
// orders came in.
func (wr *writer) rulings() []ruling {
	out := make([]ruling, 0, len(wr.res.Results))
	for i := range wr.res.Results {
		r := &wr.res.Results[i]
		o, u, ok := wr.pos.ResolveOrder(&r.Order)
		p := o.Power
		if p == judge.NoPower && ok {
			p = u.Power
		}
		out = append(out, ruling{r: r, o: o, u: u, found: ok, power: p})
	}
	m := wr.m
	slices.SortStableFunc(out, func(a, b ruling) int {
		return cmp.Or(cmp.Compare(a.power, b.power), cmp.Compare(m.FullName(m.Province(a.o.Unit)), m.FullName(m.Province(b.o.Unit))))
	})
	return out
}

// movement writes "Movement results for Spring of 1901." and its orders,
// with a blank line before each power, then the dislodged units.
func (wr *writer) movement() {
	m := wr.m
	fmt.Fprintf(&wr.b, "Movement results for %s.\n", Season(wr.pos.Phase))
	last := judge.Power(0xFE)
	for _, x := range wr.rulings() {
		if x.power != last {
			wr.b.WriteByte('\n')
			last = x.power
		}
		o := &x.o
		neutral := x.found && x.u.Neutral()
		if neutral {
			wr.b.WriteString(judge.Neutral)
		} else {
			wr.b.WriteString(m.PowerName(x.power))
		}
		wr.b.WriteString(": ")
		wr.unitName(x)
		switch o.Kind {
		case judge.Hold:
			// A neutral unit takes no orders: holding is all it does,
			// not a missed order.
			if x.r.Default && !neutral {
				wr.b.WriteString(", No Order Processed")
			} else {
				wr.b.WriteString(" HOLD")
			}
		case judge.Move:
			// A convoyed army prints its whole route, as its order
			// wrote it or as the judge found it.
			route := o.Route
			if len(route) == 0 {
				route = x.r.Route
			}
			for _, l := range route {
				wr.b.WriteString(" -> ")
				wr.b.WriteString(m.FullName(l))
			}
			wr.b.WriteString(" -> ")
			wr.b.WriteString(m.FullName(o.Target))
		case judge.SupportHold, judge.SupportMove:
			wr.b.WriteString(" SUPPORT ")
			wr.other(x.power, o.TargetType, o.Target, false)
			if o.Kind == judge.SupportMove {
				wr.b.WriteString(" -> ")
				wr.b.WriteString(m.FullName(o.Dest))
			}
		case judge.Convoy:
			// njudge writes the convoyed unit as an army whatever the
			// order said, and the destination without a coast.
			wr.b.WriteString(" CONVOY ")
			wr.other(x.power, judge.Army, o.Target, true)
			wr.b.WriteString(" -> ")
			wr.b.WriteString(m.FullName(m.Province(o.Dest)))
		case judge.Disband:
			wr.b.WriteString(" DISBAND")
		default:
			// Adjustment orders in a movement phase are void; say what
			// they were.
			wr.b.WriteByte(' ')
			wr.b.WriteString(strings.ToUpper(o.Kind.String()))
		}
		wr.b.WriteByte('.')
		if mk := marker(x.r); mk != "" {
			wr.b.WriteString(" (*")
			wr.b.WriteString(mk)
			wr.b.WriteString("*)")
		}
		wr.b.WriteByte('\n')
	}
	wr.dislodged()
}

// unitName writes "Army Vienna" or "Fleet St Petersburg (south coast)" for
// the ordered unit; for an order naming no unit, what the order said.
func (wr *writer) unitName(x ruling) {
	t, l := x.o.Type, x.o.Unit
	if x.found {
		t, l = x.u.Type, x.u.Loc
	}
	wr.b.WriteString(t.Word())
	wr.b.WriteByte(' ')
	wr.b.WriteString(wr.m.FullName(l))
}

// other writes the unit that a support or convoy is about, as it stands:
// with its power's adjective when it is not the ordering power's ("English
// Army Moscow"), with its coast.
func (wr *writer) other(me judge.Power, t judge.UnitType, l judge.Loc, forceType bool) {
	m := wr.m
	if int(l) >= len(m.Locs) {
		wr.b.WriteString(t.Word() + " ?")
		return
	}
	if u, ok := wr.pos.UnitAt(l); ok {
		if u.Power != me {
			wr.b.WriteString(m.UnitAdjective(u.Power)) // "Neutral Army Lothairingia"
			wr.b.WriteByte(' ')
		}
		if !forceType {
			t = u.Type
		}
		l = u.Loc
	}
	wr.b.WriteString(t.Word())
	wr.b.WriteByte(' ')
	wr.b.WriteString(m.FullName(l))
}

// marker is the text between "(*" and "*)" after a movement result, or ""
// for a success: "bounce", "cut", "dislodged", "bounce, dislodged", ...
func marker(r *judge.OrderResult) string {
	if r.Dislodged || r.Outcome == judge.Dislodged {
		switch r.Failed {
		case 0, judge.Succeeds, judge.Dislodged:
			return "dislodged"
		}
		return r.Failed.String() + ", dislodged"
	}
	switch r.Outcome {
	case 0, judge.Succeeds, judge.Built, judge.Removed, judge.Disbanded, judge.Waived:
		return ""
	}
	return r.Outcome.String()
}

// dislodged writes the units that must retreat and those destroyed for
// want of a retreat, by power and then place.
func (wr *writer) dislodged() {
	type entry struct {
		u  judge.Unit
		to []judge.Loc
	}
	var list []entry
	for _, r := range wr.res.Retreats {
		list = append(list, entry{r.Unit.Unit, r.To})
	}
	for _, u := range wr.res.Destroyed {
		list = append(list, entry{u, nil})
	}
	if len(list) == 0 {
		return
	}
	slices.SortStableFunc(list, func(a, b entry) int {
		return cmp.Or(cmp.Compare(a.u.Power, b.u.Power), cmp.Compare(a.u.Loc, b.u.Loc))
	})
	m := wr.m
	wr.b.WriteString("\nThe following units were dislodged:\n\n")
	for _, e := range list {
		var s strings.Builder
		s.WriteString("The ")
		s.WriteString(m.UnitAdjective(e.u.Power))
		s.WriteByte(' ')
		s.WriteString(e.u.Type.Word())
		s.WriteString(wr.in(e.u.Loc))
		s.WriteString(m.FullName(e.u.Loc))
		switch {
		case e.u.Neutral():
			s.WriteString(" was destroyed.") // neutral units never retreat
		case len(e.to) == 0:
			s.WriteString(" with no valid retreats was destroyed.")
		default:
			for i, l := range e.to {
				if i == 0 {
					s.WriteString(" can retreat to ")
				} else {
					s.WriteString(" or ")
				}
				s.WriteString(m.FullName(l))
			}
			s.WriteByte('.')
		}
		wrapWords(&wr.b, s.String())
	}
}

// in returns " in the " for a sea space ("in the Aegean Sea") and " in "
// elsewhere.
func (wr *writer) in(l judge.Loc) string { return In(wr.m, l) }

// In returns " in the " before a sea space ("in the Aegean Sea") and
// " in " before the rest, as njudge writes them; a Loc outside the map
// gets " in ". The game master's acknowledgements use it too, so that
// they and the results say it alike.
func In(m *judge.Map, l judge.Loc) string {
	if int(l) < len(m.Locs) && m.Locs[l].Kind == judge.Sea {
		return " in the "
	}
	return " in "
}

// wrapWords writes line, broken at spaces as njudge breaks the dislodged
// list: no line reaches column 79 and the newline itself counts, so lines
// hold at most 78 characters.
func wrapWords(b *strings.Builder, line string) { wrapIndented(b, line, 0) }

// wrapIndented is wrapWords with the lines after the first indented by
// indent spaces, to line up under the text after a power's name.
func wrapIndented(b *strings.Builder, line string, indent int) {
	pad := strings.Repeat(" ", indent)
	for len(line) > lineWidth-1 {
		cut := strings.LastIndexByte(line[:lineWidth], ' ')
		if cut <= indent {
			break
		}
		b.WriteString(line[:cut])
		b.WriteByte('\n')
		line = pad + line[cut+1:]
	}
	b.WriteString(line)
	b.WriteByte('\n')
}

// PowerColumn is where the text after "Austria:" starts in retreat and
// adjustment results and in the ownership table: the longest power name
// plus two, but at least 11. njudge before 1.7 padded to LPOWER 9 (giving
// 11 for the standard powers) and sized the ownership table from the
// longest name with a minimum of 10 (giving 11 too); 1.7 pads orders to 24,
// which gmd does not copy, so that all three tables line up.
// The game master's adjustment acknowledgements line up on it too.
func PowerColumn(m *judge.Map) int {
	n := 0
	for _, p := range m.Powers {
		n = max(n, len(p.Name))
	}
	return max(n+2, 11)
}

// powerPrefix writes "Austria:" padded to the power column.
func (wr *writer) powerPrefix(name string) {
	wr.b.WriteString(name)
	wr.b.WriteByte(':')
	for i := len(name) + 1; i < PowerColumn(wr.m); i++ {
		wr.b.WriteByte(' ')
	}
}

// retreats writes "Retreat results for Fall of 1901." and one line per
// dislodged unit, without blank lines between powers.
func (wr *writer) retreats() {
	m := wr.m
	fmt.Fprintf(&wr.b, "Retreat results for %s.\n\n", Season(wr.pos.Phase))
	for _, x := range wr.rulings() {
		wr.powerPrefix(m.PowerName(x.power))
		t, l := x.o.Type, x.o.Unit
		if x.found {
			t, l = x.u.Type, x.u.Loc
		}
		fmt.Fprintf(&wr.b, "%-5s %s", t.Word(), m.FullName(l))
		o, r := &x.o, x.r
		// A unit whose retreat failed leaves the board; an order for a unit
		// that is not there destroys nothing.
		destroyed := ", destroyed"
		if !x.found {
			destroyed = ""
		}
		switch {
		case r.Default:
			wr.b.WriteString(", No Order Processed (DISBAND)")
		case o.Kind == judge.Disband && r.Outcome != judge.Void:
			wr.b.WriteString(" DISBAND")
		case o.Kind == judge.Move:
			wr.b.WriteString(" -> ")
			wr.b.WriteString(m.FullName(o.Target))
			if r.Outcome != judge.Succeeds {
				fmt.Fprintf(&wr.b, " (*%s%s*)", r.Outcome, destroyed)
			}
		default:
			fmt.Fprintf(&wr.b, " %s (*%s%s*)", strings.ToUpper(o.Kind.String()), r.Outcome, destroyed)
		}
		wr.b.WriteString(".\n")
	}
}

// adjustments writes "Adjustment results for Winter of 1901." and the
// builds, removals and waives, by power; builds a power left unused are
// reported as waived.
func (wr *writer) adjustments() {
	m := wr.m
	fmt.Fprintf(&wr.b, "Adjustment results for %s.\n\n", Season(wr.pos.Phase))
	rs := wr.rulings()
	centers, units := wr.pos.CenterCount(), wr.pos.UnitCount()
	used := make([]int, len(m.Powers))
	for _, x := range rs {
		if (x.r.Outcome == judge.Built || x.r.Outcome == judge.Waived) && int(x.power) < len(used) {
			used[x.power]++
		}
	}
	i := 0
	for p := judge.Power(0); int(p) <= len(m.Powers); p++ {
		if int(p) == len(m.Powers) {
			p = judge.NoPower // orders that named no power come last
		}
		for ; i < len(rs) && rs[i].power == p; i++ {
			wr.adjustment(rs[i])
		}
		if p == judge.NoPower {
			break
		}
		if left := centers[p] - units[p] - used[p]; left > 0 && wr.v.counts(p) {
			wr.unusedBuilds(p, left)
		}
	}
}

// adjustment writes one adjustment result.
func (wr *writer) adjustment(x ruling) {
	m := wr.m
	wr.powerPrefix(m.PowerName(x.power))
	o := &x.o
	t, l := o.Type, o.Unit
	if x.found {
		t, l = x.u.Type, x.u.Loc
	}
	switch o.Kind {
	case judge.Build:
		fmt.Fprintf(&wr.b, "Builds %s%s%s.", Article(t), wr.in(l), m.FullName(l))
	case judge.Remove:
		if x.r.Default {
			wr.b.WriteString("Defaults, removing ")
		} else {
			wr.b.WriteString("Removes ")
		}
		fmt.Fprintf(&wr.b, "the %s%s%s.", strings.ToLower(t.Word()), wr.in(l), m.FullName(l))
	case judge.Waive:
		wr.b.WriteString("Build waived.")
	case judge.Construct:
		fmt.Fprintf(&wr.b, "Starts building a supply centre%s%s.", wr.in(l), m.FullName(l))
	default:
		fmt.Fprintf(&wr.b, "%s %s %s.", strings.ToUpper(o.Kind.String()), t.Word(), m.FullName(l))
	}
	if mk := marker(x.r); mk != "" {
		fmt.Fprintf(&wr.b, " (*%s*)", mk)
	}
	wr.b.WriteByte('\n')
}

// unusedBuilds reports builds that p neither made nor waived: as njudge's
// "1 unusable build waived." when p has no vacant home centre left to
// build in, and as plain waives otherwise (the judge forfeits them when
// the phase is processed without them).
func (wr *writer) unusedBuilds(p judge.Power, n int) {
	if wr.res.Next != nil && len(wr.res.Next.BuildSites(p, wr.res.Builds)) == 0 {
		wr.powerPrefix(wr.m.PowerName(p))
		fmt.Fprintf(&wr.b, "%d unusable %s waived.\n", n, Plural(n, "build", "builds"))
		return
	}
	for range n {
		wr.powerPrefix(wr.m.PowerName(p))
		wr.b.WriteString("Build waived.\n")
	}
}

// Article returns "an army", "a fleet" or "a unit", for the results and
// the game master's acknowledgements alike.
func Article(t judge.UnitType) string {
	switch t {
	case judge.Army:
		return "an army"
	case judge.Fleet:
		return "a fleet"
	}
	return "a unit"
}

// ownership writes the centre table and the build counts of next.
func (wr *writer) ownership(next *judge.Position) {
	m := wr.m
	wr.b.WriteString("\nOwnership of supply centers:\n\n")
	col := PowerColumn(m)
	owners := make([][]string, len(m.Powers)+1) // the last holds the unowned
	for _, c := range next.CenterList() {
		if !wr.v.sees(c) {
			continue
		}
		p := next.Centers[c]
		if int(p) >= len(m.Powers) {
			p = judge.Power(len(m.Powers))
		}
		owners[p] = append(owners[p], m.FullName(c))
	}
	for p, names := range owners {
		if len(names) == 0 {
			continue
		}
		slices.Sort(names)
		name := "Unowned"
		if p < len(m.Powers) {
			name = m.Powers[p].Name
		}
		var head strings.Builder
		head.WriteString(name)
		head.WriteByte(':')
		for head.Len() < col {
			head.WriteByte(' ')
		}
		wrapList(&wr.b, head.String(), names, col)
	}
	centers, units := next.CenterCount(), next.UnitCount()
	if !wr.v.ownershipSeen(&wr.b, m, owners, centers, units) {
		return
	}
	wr.b.WriteByte('\n')
	for p := range m.Powers {
		np, nu := centers[p], units[p]
		if np == 0 && nu == 0 || !wr.v.counts(judge.Power(p)) {
			continue
		}
		wr.b.WriteString(m.Powers[p].Name)
		wr.b.WriteByte(':')
		for i := len(m.Powers[p].Name) + 1; i < col-1; i++ {
			wr.b.WriteByte(' ')
		}
		verb, n := "Builds ", np-nu
		if np < nu {
			verb, n = "Removes", nu-np
		}
		fmt.Fprintf(&wr.b, "%2d Supply center%s %2d Unit%s  %s %2d unit%s.",
			np, Plural(np, ", ", "s,"), nu, Plural(nu, ": ", "s:"), verb, n, Plural(n, "", "s"))
		if slices.Contains(wr.res.Winners, judge.Power(p)) {
			// njudge pads "unit." so that the marker lines up with "units.".
			fmt.Fprintf(&wr.b, "%s  (* VICTORY!! *)", Plural(n, " ", ""))
		}
		wr.b.WriteByte('\n')
	}
	if m.DynamicVictory {
		// The count changes as centres are built ("34, 35, 36" rule 7).
		fmt.Fprintf(&wr.b, "\nVictory needs %d of the %d supply centres.\n", next.VictoryCenters(), len(next.CenterList()))
	}
	if note := LeadNote(next); note != "" {
		// The lead that wins shrinks every year (Twenty Twenty).
		fmt.Fprintf(&wr.b, "\n%s\n", note)
	}
}

// LeadNote says, on a map with a lead rule (judge.Map.VictoryLead), what
// lead wins at the end of the year that pos is in, or of the next year
// when pos is a Winter, whose year has been judged: "A lead of 19 supply
// centres over every other power at the end of 2002 also wins." It is ""
// on other maps.
func LeadNote(pos *judge.Position) string {
	m := pos.Map
	if m.VictoryLead == 0 {
		return ""
	}
	year := pos.Phase.Year
	if pos.Phase.Season == judge.Winter {
		year++
	}
	n := m.LeadNeeded(year)
	return fmt.Sprintf("A lead of %d supply centre%s over every other power at the end of %d also wins.", n, Plural(n, "", "s"), year)
}

// constructionsEnded writes what became of the constructions whose year
// ended with this phase: built (and whose, if another power's unit stood
// in the province), or not built, with the order that spoiled it.
func (wr *writer) constructionsEnded() {
	m := wr.m
	wr.b.WriteString("\nSupply centre construction:\n\n")
	for _, pc := range wr.res.Constructions {
		builder := m.PowerName(pc.Power)
		where := m.FullName(pc.Loc)
		if pc.Spoiled {
			wrapWords(&wr.b, fmt.Sprintf("%s's supply centre in %s was not built: %s.", builder, where, spoiler(m, pc)))
			continue
		}
		line := fmt.Sprintf("%s builds a supply centre in %s.", builder, where)
		if wr.res.Next != nil {
			if u, ok := wr.res.Next.UnitAt(pc.Loc); ok && u.Power != pc.Power && int(u.Power) < len(m.Powers) {
				line = fmt.Sprintf("%s builds a supply centre in %s; %s %s unit stands there, so %s owns it.",
					builder, where, aOrAn(m.Powers[u.Power].Adjective), m.Powers[u.Power].Adjective, m.Powers[u.Power].Name)
			}
		}
		wrapWords(&wr.b, line)
	}
}

// constructionsStarted writes, in a Winter's results, what became of the
// constructions started the Winter before, which ended with the Fall just
// played (pos.EndedConstructions): the Fall's results said it first, in
// the words of constructionsEnded; the Winter's say it again, in the past
// tense, beside the builds the new centres may take.
func (wr *writer) constructionsStarted() {
	m := wr.m
	fmt.Fprintf(&wr.b, "\nSupply centres started in %s:\n\n", Season(judge.Phase{Season: judge.Winter, Year: wr.pos.Phase.Year - 1}))
	for _, pc := range wr.pos.EndedConstructions {
		builder := m.PowerName(pc.Power)
		where := m.FullName(pc.Loc)
		if pc.Spoiled {
			wrapWords(&wr.b, fmt.Sprintf("%s's supply centre in %s was not built: %s.", builder, where, spoiler(m, pc)))
			continue
		}
		line := fmt.Sprintf("%s's supply centre in %s was built.", builder, where)
		if owner := wr.pos.Centers[pc.Loc]; owner != pc.Power && int(owner) < len(m.Powers) {
			// Ownership after the Fall went to the unit standing there.
			line = fmt.Sprintf("%s's supply centre in %s was built; %s %s unit stood there, so %s owns it.",
				builder, where, aOrAn(m.Powers[owner].Adjective), m.Powers[owner].Adjective, m.Powers[owner].Name)
		}
		wrapWords(&wr.b, line)
	}
}

// underConstruction lists the centres under construction in next, by
// power, with those already spoiled marked, and after a Winter says when
// they will be built.
func (wr *writer) underConstruction(next *judge.Position) {
	m := wr.m
	wr.b.WriteString("\nSupply centres under construction:\n\n")
	pcs := slices.Clone(next.PendingCenters)
	slices.SortStableFunc(pcs, func(a, b judge.PendingCenter) int { return cmp.Compare(a.Power, b.Power) })
	col := PowerColumn(m)
	for _, pc := range pcs {
		var line strings.Builder
		line.WriteString(m.PowerName(pc.Power))
		line.WriteByte(':')
		for line.Len() < col {
			line.WriteByte(' ')
		}
		line.WriteString(m.FullName(pc.Loc))
		if pc.Spoiled {
			line.WriteString(" (will not be built: " + spoiler(m, pc) + ")")
		}
		line.WriteByte('.')
		wrapIndented(&wr.b, line.String(), col)
	}
	if wr.pos.Phase.Type == judge.Adjustment {
		wr.b.WriteByte('\n')
		wrapWords(&wr.b, fmt.Sprintf("A supply centre under construction is built when the Fall of %d ends, "+
			"unless a unit of another power is ordered into its province before then.", next.Phase.Year))
	}
}

// spoiler says which order spoiled a construction: "a German unit was
// ordered there in F1902M".
func spoiler(m *judge.Map, pc judge.PendingCenter) string {
	adj := "another power's"
	if int(pc.SpoiledBy) < len(m.Powers) {
		adj = m.Powers[pc.SpoiledBy].Adjective
		adj = aOrAn(adj) + " " + adj
	}
	return adj + " unit was ordered there in " + pc.SpoiledIn.String()
}

// aOrAn returns the article for word: "an" before a vowel ("an English
// unit"), "a" otherwise.
func aOrAn(word string) string {
	if word != "" && strings.ContainsRune("AEIOUaeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

// Plural returns one when n is 1 and many otherwise: the one plural
// rule of the judge's English ("1 unit", "2 units", "0 units"), which the
// results, the acknowledgements and the commands' output all follow.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// wrapList writes head followed by the names joined by ", " and ended by
// ".", breaking after a comma as njudge's ownership table does: a
// continued line may end in column 79 with its comma, the last line (whose
// newline counts) in column 78; continued lines are indented to indent.
func wrapList(b *strings.Builder, head string, names []string, indent int) {
	line := head
	for i, n := range names {
		end := ","
		if i == len(names)-1 {
			end = "."
		}
		limit := lineWidth // the comma may sit in column 78
		if end == "." {
			limit = lineWidth - 1 // the newline must sit in column 78 at most
		}
		sep := ""
		if i > 0 {
			sep = " "
		}
		if i > 0 && len(line)+len(sep)+len(n)+len(end) > limit && len(line) > indent {
			b.WriteString(line)
			b.WriteByte('\n')
			line, sep = strings.Repeat(" ", indent), ""
		}
		line += sep + n + end
	}
	b.WriteString(line)
	b.WriteByte('\n')
}

// nextPhase writes the last line: the phase that comes next, or the end of
// the game.
func (wr *writer) nextPhase() {
	if len(wr.res.Winners) > 0 {
		wr.b.WriteString("\nThe game is over.  Thank you for playing.\n")
		return
	}
	if wr.res.Next == nil {
		return
	}
	p := wr.res.Next.Phase
	kind := "Movement"
	switch p.Type {
	case judge.Retreat:
		kind = "Retreats"
	case judge.Adjustment:
		kind = "Adjustments"
	}
	fmt.Fprintf(&wr.b, "\nThe next phase will be %s for %s.\n", kind, Season(p))
}

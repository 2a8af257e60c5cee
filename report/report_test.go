package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// The resolutions below are made by hand, not by the adjudicator, so that
// these tests pin the layout alone. They need not be legal Diplomacy.

type fixture struct {
	t *testing.T
	m *judge.Map
}

func newFixture(t *testing.T) *fixture { return &fixture{t, variants.Standard()} }

func (f *fixture) loc(name string) judge.Loc {
	l, ok := f.m.Lookup(name)
	if !ok {
		f.t.Fatalf("no place %q", name)
	}
	return l
}

func (f *fixture) power(name string) judge.Power {
	p, ok := f.m.PowerByName(name)
	if !ok {
		f.t.Fatalf("no power %q", name)
	}
	return p
}

func (f *fixture) unit(power string, t judge.UnitType, at string) judge.Unit {
	return judge.Unit{Type: t, Power: f.power(power), Loc: f.loc(at)}
}

// position places the units ("England A lon", ...) on an empty board.
func (f *fixture) position(phase string, units ...string) *judge.Position {
	ph, err := judge.ParsePhase(phase)
	if err != nil {
		f.t.Fatal(err)
	}
	pos := judge.NewPosition(f.m, ph)
	for _, s := range units {
		w := strings.Fields(s)
		t := judge.Army
		if w[1] == "F" {
			t = judge.Fleet
		}
		if err := pos.Place(f.unit(w[0], t, w[2])); err != nil {
			f.t.Fatalf("%s: %v", s, err)
		}
	}
	return pos
}

// own gives the centres to the power.
func (f *fixture) own(pos *judge.Position, power string, centers ...string) {
	for _, c := range centers {
		pos.Centers[f.loc(c)] = f.power(power)
	}
}

func (f *fixture) order(power string, kind judge.OrderKind, t judge.UnitType, at string) judge.Order {
	return judge.Order{Kind: kind, Power: f.power(power), Type: t, Unit: f.loc(at),
		Target: judge.NoLoc, Dest: judge.NoLoc}
}

func result(o judge.Order, out judge.Outcome) judge.OrderResult {
	return judge.OrderResult{Order: o, Outcome: out}
}

func golden(t *testing.T, name string, pos *judge.Position, res *judge.Resolution) string {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteResults(&buf, pos, res); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from %s:\n--- got ---\n%s--- want ---\n%s", name, path, got, want)
	}
	return got
}

// hasLines checks lines that judge-mail-format.md §3d/§3e gives verbatim,
// so that the golden files cannot drift from the documented layout.
func hasLines(t *testing.T, text string, lines ...string) {
	t.Helper()
	have := map[string]bool{}
	for _, l := range strings.Split(text, "\n") {
		have[l] = true
	}
	for _, l := range lines {
		if !have[l] {
			t.Errorf("missing line %q", l)
		}
	}
}

func TestMovement(t *testing.T) {
	f := newFixture(t)
	pos := f.position("S1901M",
		"Austria A bud", "Austria A vie", "Austria F tri", "Austria A ukr", "Austria A sev", "Austria A boh",
		"England A mos", "England A lon", "England F nth",
		"Germany F stp/nc", "Germany A tyr",
		"Italy A ven",
		"Russia F bot", "Russia A gal",
		"Turkey F aeg", "Turkey F con")
	var rs []judge.OrderResult
	add := func(r judge.OrderResult) { rs = append(rs, r) }

	// England first in the results: the report must group by power order.
	o := f.order("England", judge.SupportMove, judge.Army, "mos")
	o.Target, o.TargetType, o.Dest = f.loc("ukr"), judge.Army, f.loc("war")
	add(result(o, judge.Void))
	o = f.order("England", judge.Move, judge.Army, "lon")
	o.Target, o.Route, o.ViaConvoy = f.loc("nwy"), []judge.Loc{f.loc("nth")}, true
	add(result(o, judge.Succeeds))
	o = f.order("England", judge.Convoy, judge.Fleet, "nth")
	o.Target, o.TargetType, o.Dest = f.loc("lon"), judge.Army, f.loc("nwy")
	add(result(o, judge.Succeeds))

	o = f.order("Austria", judge.Move, judge.Army, "bud")
	o.Target = f.loc("ser")
	add(result(o, judge.Succeeds))
	o = f.order("Austria", judge.Move, judge.NoUnit, "vie") // type left out by the player
	o.Target = f.loc("gal")
	add(result(o, judge.Bounced))
	add(result(f.order("Austria", judge.Hold, judge.Fleet, "tri"), judge.Succeeds))
	o = f.order("Austria", judge.SupportMove, judge.Army, "ukr")
	o.Target, o.TargetType, o.Dest = f.loc("gal"), judge.Army, f.loc("war")
	add(result(o, judge.NoSupport))
	o = f.order("Austria", judge.SupportHold, judge.Army, "sev")
	o.Target, o.TargetType = f.loc("mos"), judge.Army
	add(result(o, judge.Succeeds))
	r := result(f.order("Austria", judge.Hold, judge.Army, "boh"), judge.Dislodged)
	r.Dislodged = true
	add(r)

	o = f.order("Germany", judge.Convoy, judge.Fleet, "stp") // coast left out
	o.Target, o.TargetType, o.Dest = f.loc("tyr"), judge.NoUnit, f.loc("spa/nc")
	add(result(o, judge.NoConvoy))
	o = f.order("Germany", judge.Move, judge.Army, "tyr")
	o.Target, o.ViaConvoy = f.loc("spa"), true
	add(result(o, judge.NoConvoy))

	r = result(f.order("Italy", judge.Hold, judge.Army, "ven"), judge.Dislodged)
	r.Default, r.Dislodged = true, true
	add(r)

	o = f.order("Russia", judge.Move, judge.Fleet, "bot")
	o.Target = f.loc("stp/sc")
	add(result(o, judge.Bounced))
	o = f.order("Russia", judge.SupportMove, judge.Army, "gal")
	o.Target, o.TargetType, o.Dest = f.loc("bot"), judge.Fleet, f.loc("stp/sc")
	add(result(o, judge.Cut))

	o = f.order("Turkey", judge.Move, judge.Fleet, "aeg")
	o.Target = f.loc("gre")
	r = result(o, judge.Dislodged)
	r.Dislodged, r.Failed = true, judge.Bounced
	add(r)
	o = f.order("Turkey", judge.Convoy, judge.Fleet, "con")
	o.Target, o.TargetType, o.Dest = f.loc("smy"), judge.Army, f.loc("gre")
	add(result(o, judge.Disrupted))

	next := pos.Clone()
	next.Phase = judge.Phase{Season: judge.Spring, Year: 1901, Type: judge.Retreat}
	res := &judge.Resolution{
		Phase:   pos.Phase,
		Results: rs,
		Retreats: []judge.RetreatOptions{
			{Unit: judge.DislodgedUnit{Unit: f.unit("Italy", judge.Army, "ven"), AttackerFrom: f.loc("tyr")},
				To: []judge.Loc{f.loc("apu"), f.loc("pie"), f.loc("rom"), f.loc("tus")}},
			{Unit: judge.DislodgedUnit{Unit: f.unit("Austria", judge.Army, "boh"), AttackerFrom: f.loc("mun")},
				To: []judge.Loc{f.loc("gal"), f.loc("vie")}},
		},
		Destroyed: []judge.Unit{f.unit("Turkey", judge.Fleet, "aeg")},
		Next:      next,
	}
	got := golden(t, "movement", pos, res)
	hasLines(t, got,
		"Movement results for Spring of 1901.",
		"Austria: Army Budapest -> Serbia.",
		"Austria: Army Vienna -> Galicia. (*bounce*)",
		"Austria: Fleet Trieste HOLD.",
		"Austria: Army Ukraine SUPPORT Russian Army Galicia -> Warsaw. (*no support*)",
		"Austria: Army Sevastopol SUPPORT English Army Moscow.",
		"England: Army Moscow SUPPORT Austrian Army Ukraine -> Warsaw. (*void*)",
		"England: Army London -> North Sea -> Norway.",
		"England: Fleet North Sea CONVOY Army London -> Norway.",
		"Germany: Fleet St Petersburg (north coast) CONVOY Army Tyrolia -> Spain. (*no convoy*)",
		"Italy: Army Venice, No Order Processed. (*dislodged*)",
		"Russia: Fleet Gulf of Bothnia -> St Petersburg (south coast). (*bounce*)",
		"Russia: Army Galicia SUPPORT Fleet Gulf of Bothnia -> St Petersburg (south coast). (*cut*)",
		"Turkey: Fleet Aegean Sea -> Greece. (*bounce, dislodged*)",
		"Turkey: Fleet Constantinople CONVOY Army Smyrna -> Greece. (*disrupted*)",
		"",
		"The following units were dislodged:",
		"The Austrian Army in Bohemia can retreat to Galicia or Vienna.",
		"The Turkish Fleet in the Aegean Sea with no valid retreats was destroyed.",
		"The next phase will be Retreats for Spring of 1901.",
	)
	// Powers are separated by one blank line, and the header by one.
	if !strings.HasPrefix(got, "Movement results for Spring of 1901.\n\nAustria: ") ||
		!strings.Contains(got, "Galicia. (*bounce*)\n\nEngland: Army London") ||
		!strings.Contains(got, "-> Norway.\n\nGermany: ") {
		t.Errorf("blank lines between powers are wrong:\n%s", got)
	}
	// The Italian army's retreat line is 80 characters long: it wraps.
	hasLines(t, got,
		"The Italian Army in Venice can retreat to Apulia or Piedmont or Rome or",
		"Tuscany.")
}

// TestRetreatsAndOwnership covers a Fall retreat phase that ends the year.
func TestRetreatsAndOwnership(t *testing.T) {
	f := newFixture(t)
	pos := f.position("F1901R", "Austria A vie", "Russia A gal", "Italy A apu")
	pos.Dislodged = []judge.DislodgedUnit{
		{Unit: f.unit("Austria", judge.Army, "boh"), AttackerFrom: f.loc("mun")},
		{Unit: f.unit("France", judge.Fleet, "adr"), AttackerFrom: f.loc("ion")},
		{Unit: f.unit("Germany", judge.Army, "war"), AttackerFrom: f.loc("mos")},
		{Unit: f.unit("Turkey", judge.Fleet, "aeg"), AttackerFrom: f.loc("gre")},
		{Unit: f.unit("Russia", judge.Fleet, "stp/nc"), AttackerFrom: f.loc("nwy")},
	}
	var rs []judge.OrderResult
	o := f.order("Austria", judge.Move, judge.Army, "boh")
	o.Target = f.loc("gal")
	rs = append(rs, result(o, judge.Succeeds))
	o = f.order("France", judge.Move, judge.Fleet, "adr")
	o.Target = f.loc("apu")
	rs = append(rs, result(o, judge.Bounced))
	rs = append(rs, result(f.order("Germany", judge.Disband, judge.Army, "war"), judge.Disbanded))
	r := result(f.order("Turkey", judge.Disband, judge.Fleet, "aeg"), judge.Disbanded)
	r.Default = true
	rs = append(rs, r)
	o = f.order("Russia", judge.Move, judge.Fleet, "stp")
	o.Target = f.loc("bar")
	rs = append(rs, result(o, judge.Succeeds))

	next := f.position("W1901A",
		"Austria A vie", "Austria A gal", "Austria F tri",
		"England F lon", "England F nth", "England A yor",
		"France F bre", "France A par", "France A mar",
		"Russia F bar", "Russia A mos", "Russia A sev", "Russia A ukr")
	f.own(next, "Austria", "bud", "ser", "tri", "vie")
	f.own(next, "England", "lon", "edi")
	f.own(next, "France", "bre", "par", "mar")
	f.own(next, "Russia", "mos", "sev", "stp", "war")
	res := &judge.Resolution{Phase: pos.Phase, Results: rs, Next: next, OwnershipChanged: true}
	got := golden(t, "retreat", pos, res)
	hasLines(t, got,
		"Retreat results for Fall of 1901.",
		"Austria:   Army  Bohemia -> Galicia.",
		"France:    Fleet Adriatic Sea -> Apulia (*bounce, destroyed*).",
		"Germany:   Army  Warsaw DISBAND.",
		"Russia:    Fleet St Petersburg (north coast) -> Barents Sea.",
		"Turkey:    Fleet Aegean Sea, No Order Processed (DISBAND).",
		"Ownership of supply centers:",
		"Austria:   Budapest, Serbia, Trieste, Vienna.",
		"Russia:    Moscow, Sevastopol, St Petersburg, Warsaw.",
		"Austria:   4 Supply centers,  3 Units:  Builds   1 unit.",
		"England:   2 Supply centers,  3 Units:  Removes  1 unit.",
		"France:    3 Supply centers,  3 Units:  Builds   0 units.",
		"Russia:    4 Supply centers,  4 Units:  Builds   0 units.",
		"The next phase will be Adjustments for Winter of 1901.",
	)
	// The unowned list is long: it wraps after a comma, indented to the
	// power column, with no line of the table past column 79.
	hasLines(t, got,
		"Unowned:   Ankara, Belgium, Berlin, Bulgaria, Constantinople, Denmark, Greece,",
		"           Holland, Kiel, Liverpool, Munich, Naples, Norway, Portugal, Rome,",
		"           Rumania, Smyrna, Spain, Sweden, Tunis, Venice.")
	for _, l := range strings.Split(got, "\n") {
		if len(l) > 79 {
			t.Errorf("line longer than 79: %q", l)
		}
	}
	// Germany has neither centres nor units after the phase: no count line.
	if strings.Contains(got, "Germany:   0") {
		t.Errorf("a power with nothing left got a count line:\n%s", got)
	}
}

func TestAdjustments(t *testing.T) {
	f := newFixture(t)
	pos := f.position("W1901A",
		"England F nth", "England A yor", "England F lon",
		"Germany A ukr", "Germany A ber", "Germany A kie",
		"Turkey F ank", "Turkey A con", "Turkey A smy", "Turkey A bul",
		"France A par")
	f.own(pos, "Austria", "vie", "tri", "bud")
	f.own(pos, "England", "lon", "edi")
	f.own(pos, "France", "par", "bre", "mar")
	f.own(pos, "Germany", "ber", "kie")
	f.own(pos, "Italy", "rom")
	f.own(pos, "Russia", "stp", "mos")
	f.own(pos, "Turkey", "ank", "con", "smy", "bul", "gre")
	var rs []judge.OrderResult
	rs = append(rs, result(f.order("Austria", judge.Build, judge.Army, "vie"), judge.Built))
	rs = append(rs, result(f.order("Austria", judge.Build, judge.Fleet, "tri"), judge.Built))
	rs = append(rs, result(f.order("England", judge.Remove, judge.Fleet, "nth"), judge.Removed))
	w := f.order("France", judge.Waive, judge.NoUnit, "par")
	w.Unit = judge.NoLoc
	rs = append(rs, result(w, judge.Waived))
	rs = append(rs, result(f.order("France", judge.Build, judge.Army, "par"), judge.Void))
	rs = append(rs, result(f.order("Russia", judge.Build, judge.Fleet, "stp/nc"), judge.Built))
	r := result(f.order("Germany", judge.Remove, judge.Army, "ukr"), judge.Removed)
	r.Default = true
	rs = append(rs, r)

	next := pos.Clone()
	next.Phase = judge.Phase{Season: judge.Spring, Year: 1902, Type: judge.Movement}
	for _, u := range []judge.Unit{f.unit("Austria", judge.Army, "vie"), f.unit("Austria", judge.Fleet, "tri"),
		f.unit("Russia", judge.Fleet, "stp/nc")} {
		if err := next.Place(u); err != nil {
			t.Fatal(err)
		}
	}
	next.Units[f.loc("nth")] = judge.Unit{Loc: judge.NoLoc}
	next.Units[f.loc("ukr")] = judge.Unit{Loc: judge.NoLoc}
	res := &judge.Resolution{Phase: pos.Phase, Results: rs, Next: next}
	got := golden(t, "adjustment", pos, res)
	hasLines(t, got,
		"Adjustment results for Winter of 1901.",
		"Austria:   Builds an army in Vienna.",
		"Austria:   Builds a fleet in Trieste.",
		"Austria:   Build waived.", // three builds, two made, Budapest still free
		"England:   Removes the fleet in the North Sea.",
		"France:    Build waived.",
		"France:    Builds an army in Paris. (*void*)",
		"Germany:   Defaults, removing the army in Ukraine.",
		"Italy:     Build waived.", // no order, but Rome is free
		"Russia:    Builds a fleet in St Petersburg (north coast).",
		"Turkey:    1 unusable build waived.", // its home centres are all occupied
		"The next phase will be Movement for Spring of 1902.",
	)
	if strings.Contains(got, "Ownership") {
		t.Error("adjustment results must not show the ownership table")
	}
}

func TestVictory(t *testing.T) {
	f := newFixture(t)
	pos := f.position("F1905M", "France A bur", "Germany A mun")
	o := f.order("France", judge.Move, judge.Army, "bur")
	o.Target = f.loc("mun")
	r := result(o, judge.Succeeds)
	r2 := result(f.order("Germany", judge.Hold, judge.Army, "mun"), judge.Dislodged)
	r2.Dislodged, r2.Default = true, true
	next := f.position("W1905A", "France A mun")
	var centers []string
	for _, c := range f.m.Centers() {
		if len(centers) < 18 {
			centers = append(centers, f.m.LocName(c))
		}
	}
	f.own(next, "France", centers...)
	res := &judge.Resolution{Phase: pos.Phase, Results: []judge.OrderResult{r, r2},
		Destroyed: []judge.Unit{f.unit("Germany", judge.Army, "mun")}, Next: next,
		OwnershipChanged: true, Winners: []judge.Power{f.power("France")}}
	got := golden(t, "victory", pos, res)
	hasLines(t, got,
		"France: Army Burgundy -> Munich.",
		"Germany: Army Munich, No Order Processed. (*dislodged*)",
		"The German Army in Munich with no valid retreats was destroyed.",
		"France:   18 Supply centers,  1 Unit:   Builds  17 units.  (* VICTORY!! *)",
		"The game is over.  Thank you for playing.",
	)
	if strings.Contains(got, "The next phase") {
		t.Error("a won game announced a next phase")
	}
}

// TestConstructions covers the "34, 35, 36" variant: constructions
// ordered in a Winter, listed after a Spring, and built or not as a Fall
// ends, with the built centres in the ownership table and the victory
// count under it.
func TestConstructions(t *testing.T) {
	m, err := variants.Load("34-35-36")
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t, m}
	pending := func(power, at string, year int) judge.PendingCenter {
		return judge.PendingCenter{Power: f.power(power), Loc: f.loc(at),
			Ordered: judge.Phase{Season: judge.Winter, Year: year, Type: judge.Adjustment}}
	}

	// The Winter: England builds an army and starts a centre, Italy's
	// construction is void, Turkey starts one in Jordan.
	pos := f.position("W1901A", "England F nth", "England F nwg", "England A nwy",
		"Italy A tun", "Italy F ion", "Turkey F bla", "Turkey A bul", "Turkey A arm")
	f.own(pos, "England", "lon", "edi", "lvp", "nwy", "den")
	f.own(pos, "Italy", "rom", "nap", "ven", "tun")
	f.own(pos, "Turkey", "ank", "con", "smy", "bul")
	var rs []judge.OrderResult
	rs = append(rs, result(f.order("England", judge.Build, judge.Army, "lvp"), judge.Built))
	rs = append(rs, result(f.order("England", judge.Construct, judge.NoUnit, "yor"), judge.Built))
	r := result(f.order("Italy", judge.Construct, judge.NoUnit, "alb"), judge.Void)
	r.Reason = "rule 4b: Albania is not in Italy's home country"
	rs = append(rs, r)
	rs = append(rs, result(f.order("Italy", judge.Build, judge.Fleet, "nap"), judge.Built))
	rs = append(rs, result(f.order("Turkey", judge.Construct, judge.NoUnit, "jor"), judge.Built))
	next := pos.Clone()
	next.Phase = judge.Phase{Season: judge.Spring, Year: 1902, Type: judge.Movement}
	next.PendingCenters = []judge.PendingCenter{pending("England", "yor", 1901), pending("Turkey", "jor", 1901)}
	got := golden(t, "construction-winter", pos, &judge.Resolution{Phase: pos.Phase, Results: rs, Next: next})
	hasLines(t, got,
		"England:   Builds an army in Liverpool.",
		"England:   Starts building a supply centre in Yorkshire.",
		"Italy:     Starts building a supply centre in Albania. (*void*)",
		"Italy:     Builds a fleet in Naples.",
		"Turkey:    Starts building a supply centre in Jordan.",
		"Supply centres under construction:",
		"England:   Yorkshire.",
		"Turkey:    Jordan.",
		"Italy:     Build waived.",
		"A supply centre under construction is built when the Fall of 1902 ends, unless",
		"a unit of another power is ordered into its province before then.",
	)
	// England and Turkey used all their builds, on constructions too:
	// none is reported waived.
	if strings.Contains(got, "England:   Build waived") || strings.Contains(got, "Turkey:    Build waived") {
		t.Errorf("a construction was not counted as a build used:\n%s", got)
	}

	// The Spring: a German fleet is ordered into Yorkshire and bounces.
	pos = f.position("S1902M", "England A yor", "Germany F nth")
	pos.PendingCenters = []judge.PendingCenter{pending("England", "yor", 1901), pending("Turkey", "jor", 1901)}
	o := f.order("Germany", judge.Move, judge.Fleet, "nth")
	o.Target = f.loc("yor")
	rs = []judge.OrderResult{result(o, judge.Bounced), result(f.order("England", judge.Hold, judge.Army, "yor"), judge.Succeeds)}
	next = pos.Clone()
	next.Phase = judge.Phase{Season: judge.Fall, Year: 1902, Type: judge.Movement}
	next.PendingCenters[0].Spoiled, next.PendingCenters[0].SpoiledBy = true, f.power("Germany")
	next.PendingCenters[0].SpoiledIn = pos.Phase
	got = golden(t, "construction-spring", pos, &judge.Resolution{Phase: pos.Phase, Results: rs, Next: next})
	hasLines(t, got,
		"Germany: Fleet North Sea -> Yorkshire. (*bounce*)",
		"England:   Yorkshire (will not be built: a German unit was ordered there in",
		"           S1902M).",
		"Turkey:    Jordan.",
		"The next phase will be Movement for Fall of 1902.",
	)

	// The Fall ends: Jordan is built but taken by the Russian army that
	// stands there, Wales (England's) is built, Yorkshire is not, and an
	// Austrian order spoiled Russia's Livonia. 36 centres: 19 to win.
	pos = f.position("F1902M", "Russia A jor", "England A yor")
	rs = []judge.OrderResult{result(f.order("Russia", judge.Hold, judge.Army, "jor"), judge.Succeeds),
		result(f.order("England", judge.Hold, judge.Army, "yor"), judge.Succeeds)}
	next = f.position("W1902A", "Russia A jor", "England A yor")
	next.BuiltCenters = []judge.Loc{f.loc("jor"), f.loc("wal")}
	slices.Sort(next.BuiltCenters)
	f.own(next, "England", "lon", "edi", "lvp", "wal")
	f.own(next, "Russia", "jor", "mos", "war", "sev", "stp")
	f.own(next, "Turkey", "ank", "con", "smy")
	yor := pending("England", "yor", 1901)
	yor.Spoiled, yor.SpoiledBy, yor.SpoiledIn = true, f.power("Germany"), judge.Phase{Season: judge.Spring, Year: 1902, Type: judge.Movement}
	lvn := pending("Russia", "lvn", 1901)
	lvn.Spoiled, lvn.SpoiledBy, lvn.SpoiledIn = true, f.power("Austria"), judge.Phase{Season: judge.Fall, Year: 1902, Type: judge.Retreat}
	res := &judge.Resolution{Phase: pos.Phase, Results: rs, Next: next, OwnershipChanged: true,
		Constructions: []judge.PendingCenter{yor, pending("Turkey", "jor", 1901), pending("England", "wal", 1901), lvn}}
	got = golden(t, "construction-fall", pos, res)
	hasLines(t, got,
		"Supply centre construction:",
		"England's supply centre in Yorkshire was not built: a German unit was ordered",
		"there in S1902M.",
		"Turkey builds a supply centre in Jordan; a Russian unit stands there, so",
		"Russia owns it.",
		"England builds a supply centre in Wales.",
		"Russia's supply centre in Livonia was not built: an Austrian unit was ordered",
		"there in F1902R.",
		"England:   Edinburgh, Liverpool, London, Wales.",
		"Russia:    Jordan, Moscow, Sevastopol, St Petersburg, Warsaw.",
		"Victory needs 19 of the 36 supply centres.",
	)
	if strings.Contains(got, "under construction") {
		t.Errorf("pending centres listed after the Fall that ended them:\n%s", got)
	}
	for _, l := range strings.Split(got, "\n") {
		if len(l) > 78 {
			t.Errorf("line longer than 78: %q", l)
		}
	}

	// The Winter that follows says again what became of each construction
	// started the Winter before, and why a failed one failed, beside the
	// builds: England builds a fleet in its new Wales and starts Yorkshire
	// again.
	pos = next.Clone()
	pos.EndedConstructions = res.Constructions
	rs = []judge.OrderResult{result(f.order("England", judge.Build, judge.Fleet, "wal"), judge.Built),
		result(f.order("England", judge.Construct, judge.NoUnit, "yor"), judge.Built)}
	next = pos.Clone()
	next.Phase = judge.Phase{Season: judge.Spring, Year: 1903, Type: judge.Movement}
	next.EndedConstructions = nil
	next.PendingCenters = []judge.PendingCenter{pending("England", "yor", 1902)}
	got = golden(t, "construction-winter-ended", pos, &judge.Resolution{Phase: pos.Phase, Results: rs, Next: next})
	hasLines(t, got,
		"Adjustment results for Winter of 1902.",
		"England:   Builds a fleet in Wales.",
		"England:   Starts building a supply centre in Yorkshire.",
		"Supply centres started in Winter of 1901:",
		"England's supply centre in Yorkshire was not built: a German unit was ordered",
		"there in S1902M.",
		"Turkey's supply centre in Jordan was built; a Russian unit stood there, so",
		"Russia owns it.",
		"England's supply centre in Wales was built.",
		"Russia's supply centre in Livonia was not built: an Austrian unit was ordered",
		"there in F1902R.",
		"Supply centres under construction:",
		"England:   Yorkshire.",
		"A supply centre under construction is built when the Fall of 1903 ends, unless",
		"The next phase will be Movement for Spring of 1903.",
	)
	for _, l := range strings.Split(got, "\n") {
		if len(l) > 78 {
			t.Errorf("line longer than 78: %q", l)
		}
	}
}

// TestWrapList pins the two limits of njudge's comma wrap: a continued
// line may reach column 79 with its comma, a last line only column 78.
func TestWrapList(t *testing.T) {
	var b strings.Builder
	// 11 + 66 + "," = 78 characters; " bb," would make 82: wraps.
	long := strings.Repeat("a", 66)
	wrapList(&b, "Unowned:   ", []string{long, "bb", "c"}, 11)
	want := "Unowned:   " + long + ",\n           bb, c.\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
	// A last item ending in column 78 stays; in column 79 it moves.
	for _, tc := range []struct {
		n    int
		wrap bool
	}{{66, false}, {67, true}} {
		b.Reset()
		wrapList(&b, "Unowned:   ", []string{"x", strings.Repeat("y", tc.n-3)}, 11)
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		if (len(lines) > 1) != tc.wrap {
			t.Errorf("last item of %d: got %q", tc.n, b.String())
		}
	}
	// A continued line may end with its comma in column 78 (79 long).
	b.Reset()
	wrapList(&b, "Unowned:   ", []string{strings.Repeat("z", 67), "w"}, 11)
	if first := strings.Split(b.String(), "\n")[0]; len(first) != 79 {
		t.Errorf("first line is %d long, want 79: %q", len(first), first)
	}
}

func TestWrapWords(t *testing.T) {
	var b strings.Builder
	line := strings.Repeat("a", 70) + " bbbbbbb" // 78: fits
	wrapWords(&b, line)
	if b.String() != line+"\n" {
		t.Errorf("78 characters wrapped: %q", b.String())
	}
	b.Reset()
	wrapWords(&b, line+"c") // 79: the last word moves
	if b.String() != strings.Repeat("a", 70)+"\nbbbbbbbc\n" {
		t.Errorf("79 characters: %q", b.String())
	}
}

// TestConvoyRoutePrinted: a convoyed army prints its whole route, the one
// its order wrote or else the one the judge found (judge-mail-format.md
// §3d: "England: Army London -> North Sea -> Norway.").
func TestConvoyRoutePrinted(t *testing.T) {
	f := newFixture(t)
	pos := f.position("S1901M", "England A lon", "England F nth", "France A bre", "France F eng", "France F mao")
	found := f.order("England", judge.Move, judge.Army, "lon")
	found.Target = f.loc("nwy")
	convoy := f.order("England", judge.Convoy, judge.Fleet, "nth")
	convoy.Target, convoy.Dest = f.loc("lon"), f.loc("nwy")
	written := f.order("France", judge.Move, judge.Army, "bre")
	written.Target, written.Route = f.loc("por"), []judge.Loc{f.loc("mao")}
	r := result(found, judge.Succeeds)
	r.Route = []judge.Loc{f.loc("nth")}
	res := &judge.Resolution{Phase: pos.Phase, Results: []judge.OrderResult{
		r, result(convoy, judge.Succeeds), result(written, judge.Bounced),
	}}
	var b strings.Builder
	if err := WriteResults(&b, pos, res); err != nil {
		t.Fatal(err)
	}
	hasLines(t, b.String(),
		"England: Army London -> North Sea -> Norway.",
		"France: Army Brest -> Mid-Atlantic Ocean -> Portugal. (*bounce*)")
}

package session

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gmdjudge/gmd/bot"
	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/picture"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

// The fog of war's proof by mail (issue 27): games under SET FOG on
// every board, every mail the judge queues collected and read for each
// power, its pictures drawn as SVG and read for the units drawn.

const (
	fogGame     = "fg"
	fogObserver = "watcher@example.org"  // waits for the master's approval
	fogApproved = "approved@example.org" // an observer the master approved
)

// fogCheck is what one power may read of one processed phase: the
// provinces it may find named (allowed: those in sight before and after
// the phase, and those its own orders name) and the units of others it
// must not find drawn, by their pictures' titles.
type fogCheck struct {
	power   string
	allowed []bool
	hidden  []judge.Loc // provinces of other powers' units out of sight, before or after
	// phrases are the words that name a unit out of sight both before
	// and after the phase ("German Army Munich"), which no mail to the
	// power may hold, even where its own orders name the province.
	phrases []string
	before  []string // unit titles out of sight in the picture of the phase
	after   []string // unit titles out of sight in the picture of the board it left
}

// newFogCheck is the fogCheck of power p for the phase played from pos
// and ruled on in res, its stored orders being lines.
func newFogCheck(pos *judge.Position, res *judge.Resolution, p judge.Power, lines []string) *fogCheck {
	m := pos.Map
	c := &fogCheck{power: m.Powers[p].Name, allowed: make([]bool, m.NumLocs())}
	seen, seenAfter := view.Sight(pos, p), view.Sight(res.Next, p)
	for i := range c.allowed {
		c.allowed[i] = seen[i] || seenAfter[i]
	}
	for _, o := range engine.StoredOrders(pos, p, lines) {
		for _, l := range append([]judge.Loc{o.Unit, o.Target, o.Dest}, o.Route...) {
			if q := m.Province(l); int(q) < len(c.allowed) {
				c.allowed[q] = true
			}
		}
	}
	title := func(u judge.Unit) string {
		return m.PowerName(u.Power) + " " + strings.ToLower(u.Type.Word()) + " in " + m.FullName(u.Loc)
	}
	units := func(ps *judge.Position, sight []bool) (titles []string) {
		all := slices.Clone(ps.Units)
		for _, d := range ps.Dislodged {
			all = append(all, d.Unit)
		}
		for _, u := range all {
			if u.Type == judge.NoUnit || u.Power == p || sight[m.Province(u.Loc)] {
				continue
			}
			titles = append(titles, title(u))
			if q := m.Province(u.Loc); !c.allowed[q] && !slices.Contains(c.hidden, q) {
				c.hidden = append(c.hidden, q)
			}
			if q := m.Province(u.Loc); !seen[q] && !seenAfter[q] && int(u.Power) < len(m.Powers) {
				c.phrases = append(c.phrases, m.Powers[u.Power].Adjective+" "+u.Type.Word()+" "+m.FullName(u.Loc))
			}
		}
		return titles
	}
	c.before, c.after = units(pos, seen), units(res.Next, seenAfter)
	return c
}

// leaks returns the provinces of hidden units that text names: the
// names of the provinces allowed, and of the powers, are taken out
// first, longest first, so that a hidden province's name inside an
// allowed one's ("Spain" in "Spain (north coast)") is not counted.
func (c *fogCheck) leaks(m *judge.Map, text string) []string {
	var out []string
	for _, ph := range c.phrases {
		if strings.Contains(text, ph) {
			out = append(out, ph)
		}
	}
	var names []string
	for l := range m.Locs {
		if c.allowed[m.Province(judge.Loc(l))] {
			names = append(names, m.FullName(judge.Loc(l)))
		}
	}
	for _, pw := range m.Powers {
		names = append(names, pw.Name, pw.Adjective)
	}
	names = append(names, m.Title) // "Variant: Fleet Rome" in the header
	slices.SortFunc(names, func(a, b string) int { return len(b) - len(a) })
	for _, n := range names {
		text = strings.ReplaceAll(text, n, "#")
	}
	for _, q := range c.hidden {
		if strings.Contains(text, m.FullName(q)) {
			out = append(out, m.FullName(q))
		}
	}
	return out
}

// drawn returns the titles of titles that the SVG picture holds.
func drawn(svg string, titles []string) []string {
	var out []string
	for _, t := range titles {
		if strings.Contains(svg, "<title>"+t+"</title>") || strings.Contains(svg, "<title>"+t+",") {
			out = append(out, t)
		}
	}
	return out
}

// TestFogByMailEveryBoard plays a game under SET FOG on every board, by
// mail, with an observer, for up to ten phases (four on Chaos; retreats and builds
// among them, over the boards), every power ordering what the judge's
// heuristic or random bot would. After each phase it reads every mail
// queued: each power's results are exactly its view (view.Fog) and its
// pictures are drawn for it (MapRef.Viewer); no mail to a power names
// the province of a unit it cannot see, save those it may name itself;
// neither picture draws such a unit; the master and the observer
// it approved get the whole results and pictures, and the observer that
// waits for approval no mail at all. Then the game ends, and everyone
// gets everything again.
func TestFogByMailEveryBoard(t *testing.T) {
	var mu fogTally
	// Every board, or a sixth of them and the standard board under the race detector, which
	// finds no more on the others and makes each five to ten times slower.
	boards := racetest.Spread(variants.Names(), 6, "standard")
	for _, variant := range boards {
		t.Run(variant, func(t *testing.T) {
			t.Parallel()
			playFogged(t, variant, &mu)
		})
	}
	t.Cleanup(func() {
		t.Logf("%d boards of %d: %d phases, %d retreat phases, %d adjustment phases, %d power mails with units hidden", mu.boards, len(variants.Names()),
			mu.phases, mu.retreats, mu.adjustments, mu.hiding)
		if len(boards) == len(variants.Names()) && mu.boards == len(boards) && (mu.retreats == 0 || mu.adjustments == 0 || mu.hiding == 0) {
			t.Errorf("the games had %d retreat and %d adjustment phases and hid units in %d mails: the test proves nothing",
				mu.retreats, mu.adjustments, mu.hiding)
		}
	})
}

// playFogged is TestFogByMailEveryBoard for one board.
func playFogged(t *testing.T, variant string, tally *fogTally) {
	h := newHarness(t)
	mp, err := variants.Load(variant)
	if err != nil {
		t.Fatal(err)
	}
	tally.board()
	seats := h.startAnyVariant(fogGame, variant, "SET FOG")
	if !h.game(fogGame).Settings.Fog {
		t.Fatal("SET FOG at CREATE did not set the fog")
	}
	h.observe(fogObserver, fogGame, "pw-o", "")
	h.observe(fogApproved, fogGame, "pw-a", "")
	mustContain(t, replyTo(t, h.mail(testMaster, "approve", "SIGNON M"+fogGame+" "+testMasterPass+"\nAPPROVE "+fogApproved), testMaster).Body,
		fogApproved+" now observes game '"+fogGame+"', and sees the whole board")
	svg := engine.NewMapRenderer(h.m.DB(), picture.SVG, 64<<20)
	byAddr := map[string]string{}
	for name, s := range seats {
		byAddr[s.Addr] = name
	}
	// The mails of the start, the units of the first phase among them.
	start, _, err := h.m.Position(h.game(fogGame))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range h.outbox() {
		for _, to := range m.To {
			if power, ok := byAddr[to]; ok {
				p, _ := mp.PowerByName(power)
				c := newFogCheck(start, &judge.Resolution{Next: start}, p, nil)
				if leaked := c.leaks(mp, m.Subject+"\n"+m.Body); len(leaked) > 0 {
					t.Errorf("the mail %q to %s names %v, where %s cannot see:\n%s", m.Subject, power, leaked, power, m.Body)
				}
			}
		}
	}
	// Ten phases, fewer on a board of many powers, whose every phase
	// costs a mail and two pictures a power (Chaos, 34: four).
	steps := min(10, max(4, 70/len(mp.Powers)))
	for step := range steps {
		g := h.game(fogGame)
		pos, rules, err := h.m.Position(g)
		if err != nil {
			t.Fatal(err)
		}
		orders := map[judge.Power]string{}
		for k := range mp.Powers {
			kind := "random"
			if k%2 == 0 {
				kind = "heuristic"
			}
			pl, _ := bot.New(kind, bot.Config{Rules: rules, Seed: uint64(step*100 + k)})
			orders[judge.Power(k)] = strings.Join(engine.CanonicalLines(mp, pl.Orders(pos, judge.Power(k))), "\n")
		}
		from := h.lastID()
		h.sendAll(fogGame, mp, pos, seats, orders)
		h.processNow(fogGame)
		mails := h.since(from)
		g = h.game(fogGame)
		var rec *state.PhaseRecord
		if err := h.m.DB().View(func(tx *state.Tx) error {
			rec, err = tx.Phase(fogGame, g.Turn)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if rec.Phase != pos.Phase.String() {
			t.Fatalf("%s was not processed: the last record is %s", pos.Phase, rec.Phase)
		}
		rpos, res, err := engine.Replay(g, rec)
		if err != nil {
			t.Fatal(err)
		}
		tally.add(pos.Phase.Type)
		checks := map[string]*fogCheck{}
		for name := range seats {
			p, _ := mp.PowerByName(name)
			checks[name] = newFogCheck(rpos, res, p, rec.Orders[name])
		}
		over := g.Status == state.Finished
		approvedGot := false
		for _, m := range mails {
			for _, to := range m.To {
				power, player := byAddr[to]
				if to == fogObserver && !over {
					// An observer may be a player's second address:
					// until approved, it gets no mail at all.
					t.Errorf("%s: the observer waiting for approval got %q, maps %v:\n%s", rec.Phase, m.Subject, m.Maps, m.Body)
					continue
				}
				if to == fogApproved && strings.HasSuffix(m.Subject, " Results") {
					approvedGot = true
				}
				if !player || over {
					checkWhole(t, m, rec, to)
					continue
				}
				c := checks[power]
				if leaked := c.leaks(mp, m.Subject+"\n"+m.Body); len(leaked) > 0 {
					t.Errorf("%s: the mail %q to %s names %v, where %s cannot see:\n%s", rec.Phase, m.Subject, power, leaked, power, m.Body)
				}
				if !strings.HasSuffix(m.Subject, " Results") {
					continue
				}
				p, _ := mp.PowerByName(power)
				want, err := engine.FogResultsText(fogGame, rec.Turn, rpos, res, p)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(m.Body, want) {
					t.Errorf("%s: %s's results are not its view:\n%s\nwant:\n%s", rec.Phase, power, m.Body, want)
				}
				if len(c.before)+len(c.after) > 0 {
					tally.hid()
				}
				if len(m.Maps) != 2 {
					t.Errorf("%s: %s's results carry %d maps", rec.Phase, power, len(m.Maps))
				}
				for _, ref := range m.Maps {
					if ref.Viewer != power {
						t.Errorf("%s: %s's map %s is drawn for %q", rec.Phase, power, ref.Name(), ref.Viewer)
					}
					pic, err := svg.PNG(ref)
					if err != nil {
						t.Fatal(err)
					}
					hidden := c.before
					if ref.After {
						hidden = c.after
					}
					if bad := drawn(string(pic), hidden); len(bad) > 0 {
						t.Errorf("%s: %s's map %s draws %v", rec.Phase, power, ref.Name(), bad)
					}
				}
			}
		}
		if !approvedGot {
			t.Errorf("%s: the approved observer got no results", rec.Phase)
		}
		if over {
			break
		}
	}
	// The end reveals everything: the master ends the game, and anyone's
	// HISTORY is the whole results again.
	h.mail(testMaster, "end", "SIGNON M"+fogGame+" "+testMasterPass+"\nTERMINATE")
	recs := h.phases(fogGame)
	last := recs[len(recs)-1]
	r := replyTo(t, h.mail("stranger@example.org", "history", fmt.Sprintf("HISTORY %s %s", fogGame, last.Phase)), "stranger@example.org")
	mustContain(t, r.Body, strings.TrimRight(last.Results, "\n"))
}

// checkWhole checks a mail to the master or the observer, or to anyone
// once the game is over: its results are the whole results, and its
// pictures everyone's.
func checkWhole(t *testing.T, m *state.OutMail, rec *state.PhaseRecord, to string) {
	t.Helper()
	if !strings.HasSuffix(m.Subject, " Results") {
		return
	}
	if !strings.Contains(m.Body, strings.TrimRight(rec.Results, "\n")) {
		t.Errorf("%s: the results to %s are not whole:\n%s", rec.Phase, to, m.Body)
	}
	for _, ref := range m.Maps {
		if ref.Viewer != "" {
			t.Errorf("%s: the map %s to %s is %s's view", rec.Phase, ref.Name(), to, ref.Viewer)
		}
	}
}

// fogTally counts what the games of TestFogByMailEveryBoard did, across
// their parallel runs.
type fogTally struct {
	mu                                            sync.Mutex
	boards, phases, retreats, adjustments, hiding int
}

func (f *fogTally) add(t judge.PhaseType) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.phases++
	switch t {
	case judge.Retreat:
		f.retreats++
	case judge.Adjustment:
		f.adjustments++
	}
}

func (f *fogTally) board() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.boards++
}

func (f *fogTally) hid() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.hiding++
}

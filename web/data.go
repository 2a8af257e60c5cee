package web

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/players"
	"github.com/gmdjudge/gmd/report"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

// What the pages show is gathered here from the database, inside a read
// transaction, into plain values that the templates render after it.
// The one rule: read only what a game's observer is mailed. Nothing
// here reads Game.Orders, Game.Written, the passwords, ConfirmKey,
// FailedSignons, CodesUsed, Barred, PressSent, or shows any address: a
// seat's address is read only to find its registered player
// (seatPlayer), whose public name is shown.

// errNoGame is a page of a game or phase that is not there: a 404.
var errNoGame = errors.New("web: no such game or phase")

// moved is a page asked for by another spelling than its own: a game's
// name in capitals, a phase in small letters ("/games/DT/s1901m"). It is
// answered with a permanent redirect to the one address of the page, so
// that each page has one address, one ETag history and one cached copy.
type moved struct {
	path string // the page's own path below the root: "games/dt/S1901M"
}

func (m moved) Error() string { return "web: the page is at " + m.path }

// canonical returns moved to path when the request's game or phase was
// spelt otherwise than as stored, nil when it was spelt so.
func canonical(name, phase string, g *state.Game, storedPhase, path string) error {
	if name != g.Name || phase != storedPhase {
		return moved{path}
	}
	return nil
}

// page is what every page's layout needs.
type page struct {
	Judge string
	Title string
	// Root is the way back to the top of the site from this page, as a
	// relative link ("../../"), so that the site works under any path a
	// reverse proxy puts it.
	Root string
	Game string // the game the page is about, for the navigation; "" for none
	Feed string // the game's Atom feed, relative to the page; "" for none
}

// base returns the page data of a page titled title; path is the page's
// path below the root ("games/dt/S1901M"), which sets Root.
func (s *Server) base(title, path string) page {
	return page{Judge: s.cfg.JudgeName, Title: title, Root: strings.Repeat("../", strings.Count(path, "/"))}
}

// when is a time as a page shows it: in words in the game's zone, and
// as a machine-readable datetime.
type when struct {
	ISO  string
	Text string
}

func whenIn(t time.Time, loc *time.Location) when {
	if t.IsZero() {
		return when{}
	}
	return when{ISO: t.UTC().Format(time.RFC3339), Text: t.In(loc).Format("Mon 2 Jan 2006 15:04 MST")}
}

// zoneOf returns the zone a game shows its times in.
func zoneOf(g *state.Game) *time.Location {
	if loc, err := time.LoadLocation(g.Settings.Zone); err == nil && g.Settings.Zone != "" {
		return loc
	}
	return time.UTC
}

// gameLine is one game in the list of games, and the head of its page.
type gameLine struct {
	Name     string
	Variant  string // the variant's title
	Status   state.GameStatus
	Phase    string // "F1901M", or "S1901M" while forming, "W1905AX" once over
	Deadline when
	Players  int // seats held, or players joined while forming
	Seats    int // the variant's powers
	Free     int // seats still free while forming
	Result   string
	Gunboat  bool
	Press    string   // "white", "grey", "none"
	Gates    []string // who may join, in words (players.Gates); none for anyone
}

func (s *Server) line(g *state.Game, o view.GameOverview) gameLine {
	return gameLine{
		Name: g.Name, Variant: o.Variant, Status: g.Status, Phase: o.Phase,
		Deadline: whenIn(o.Deadline, zoneOf(g)),
		Players:  o.Players, Seats: o.Seats, Free: max(o.Seats-o.Players, 0),
		Result: g.Result, Gunboat: g.Settings.Gunboat, Press: view.PressWord(g.Settings.Press),
		Gates: players.Gates(g.Entry),
	}
}

// indexData is the data of the judge's page.
type indexData struct {
	page
	JudgeAddr                  string
	Forming, Running, Finished []gameLine
	None                       bool
}

func (s *Server) loadIndex(tx *state.Tx, now time.Time) (*indexData, error) {
	d := &indexData{page: s.base(s.cfg.JudgeName+" games", ""), JudgeAddr: s.cfg.JudgeAddr}
	err := tx.ForEachGame(func(g *state.Game) error {
		if g.Entry.Private {
			return nil // not listed to anyone: the pages know no members
		}
		l := s.line(g, s.cfg.Overview(g, now))
		switch g.Status {
		case state.Forming:
			d.Forming = append(d.Forming, l)
		case state.Finished:
			d.Finished = append(d.Finished, l)
		default:
			d.Running = append(d.Running, l)
		}
		return nil
	})
	d.None = len(d.Forming)+len(d.Running)+len(d.Finished) == 0
	return d, err
}

// seat is one power of a game and how it is held, without its player.
type seat struct {
	Power   string
	Player  string // the registered player's public name, "" for none or hidden
	Href    string // their page, relative to the root
	State   string // in words, as the mails say it: "playing", "late", "in civil disorder"
	Class   string // for the style sheet: "playing", "late", "abandoned", "cd", "eliminated"
	Centres int
	Units   int
}

// phaseLink is a phase of a game, linked from the page it is on.
type phaseLink struct {
	Phase     string // "S1901M"
	Title     string // "Spring 1901, movement"
	Href      string // relative to the page
	Processed when
}

// mapImage is a map on a page: its address relative to the page and its
// text alternative. Src is "" when the judge draws no maps.
type mapImage struct {
	Src string
	Alt string
}

// powerUnits are one power's units in a position, in words.
type powerUnits struct {
	Power string
	Units []string
}

// gameData is the data of a game's page.
type gameData struct {
	page
	G         gameLine
	Rules     string
	Settings  []view.Setting
	Seats     []seat
	Chart     chart
	Phases    []phaseLink // processed, oldest first
	Current   *phaseLink  // the phase being played; nil while forming or once over
	Map       mapImage
	Units     []powerUnits
	Dislodged []string
	Observers int
	Press     int // public press messages
	// Replay is the finished game's replay (Src "" when the judge draws
	// none), Export its export's address; both "" while it runs.
	Replay mapImage
	Export string
	// Fog is set while the game is played under fog of war (SET FOG):
	// the page then shows nothing of the board (view.Fogged).
	Fog bool
}

// board is a game's variant map and current position, nil while forming.
func board(g *state.Game) (*judge.Map, *judge.Position, error) {
	mp, err := variants.Load(g.Variant)
	if err != nil {
		return nil, nil, fmt.Errorf("game %s: %w", g.Name, err)
	}
	if len(g.Position) == 0 {
		return mp, nil, nil
	}
	pos, _, err := view.Position(g)
	if err != nil {
		return nil, nil, err
	}
	return mp, pos, nil
}

func (s *Server) loadGame(tx *state.Tx, name string, now time.Time) (*gameData, error) {
	g, err := s.findGame(tx, name)
	if err != nil {
		return nil, err
	}
	path := "games/" + g.Name
	if err := canonical(name, "", g, "", path); err != nil {
		return nil, err
	}
	mp, pos, err := board(g)
	if err != nil {
		return nil, err
	}
	o := s.cfg.Overview(g, now)
	d := &gameData{page: s.base("Game "+g.Name, path), G: s.line(g, o), Rules: g.Rules, Observers: len(g.Observers)}
	d.Game, d.Feed = g.Name, g.Name+"/atom.xml"
	d.Settings = settingsOf(g, mp, o.Settings)
	recs, err := tx.Phases(g.Name)
	if err != nil {
		return nil, err
	}
	loc := zoneOf(g)
	if d.Fog = view.Fogged(g) && pos != nil; d.Fog {
		// Under fog of war nobody reads the board here while the game
		// runs: a visitor may be any of its players.
		recs, pos = nil, nil
	}
	for _, r := range recs {
		d.Phases = append(d.Phases, phaseLink{Phase: r.Phase, Title: view.PhaseTitleOf(r.Phase), Href: g.Name + "/" + r.Phase, Processed: whenIn(r.Processed, loc)})
	}
	d.Seats = seatsOf(g, mp, pos)
	if d.Fog {
		d.Seats = seatsOf(g, mp, judge.NewPosition(mp, judge.Phase{}))
	}
	for i := range d.Seats {
		if k := slices.IndexFunc(g.Players, func(p state.Player) bool { return p.Power == d.Seats[i].Power }); k >= 0 {
			d.Seats[i].Player, d.Seats[i].Href = seatPlayer(tx, g, &g.Players[k])
		}
	}
	if pos != nil {
		ph := pos.Phase.String()
		if g.Status != state.Finished {
			d.Current = &phaseLink{Phase: ph, Title: view.PhaseTitleOf(ph), Href: g.Name + "/" + ph}
		}
		d.Map = s.mapOf(g.Name+"/"+ph+".png", g.Name, pos.Phase, true)
		d.Units, d.Dislodged = unitsOf(pos)
		d.Chart, err = centreChart(mp, recs, g.Position)
		if err != nil {
			return nil, err
		}
	}
	if g.Status == state.Finished && pos != nil {
		d.Export = g.Name + "/export.json"
		if s.cfg.Animate != nil {
			d.Replay = mapImage{Src: g.Name + "/replay.gif", Alt: fmt.Sprintf("Replay of game %s: each phase with its orders and their results, then the result; the phases are listed below.", g.Name)}
		}
	}
	d.Press, err = countPress(tx, g)
	return d, err
}

// findGame reads the game named name, errNoGame if there is none. A
// game's name is 1 to 12 letters and digits (SIGNON, CREATE); anything
// else is not looked for, so that no other spelling (a Kelvin sign for
// a k, which strings.ToLower folds) reaches a game.
func (s *Server) findGame(tx *state.Tx, name string) (*state.Game, error) {
	if name == "" || len(name) > 12 || strings.IndexFunc(name, func(c rune) bool {
		return !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9')
	}) >= 0 {
		return nil, errNoGame
	}
	g, err := tx.Game(name)
	if errors.Is(err, state.ErrNotFound) || err == nil && g.Entry.Private {
		return nil, errNoGame // a private game is on no page
	}
	return g, err
}

// mapOf is the map image of a game's phase at src (relative to the
// page), described for those who cannot see it.
func (s *Server) mapOf(src, game string, ph judge.Phase, unordered bool) mapImage {
	if s.cfg.Draw == nil {
		return mapImage{}
	}
	alt := fmt.Sprintf("Map of game %s in %s", game, report.PhaseTitle(ph))
	if unordered {
		alt += ": the units listed below."
	} else {
		alt += ", with the orders given and their results, written out below."
	}
	return mapImage{Src: src, Alt: alt}
}

// seatsOf returns the powers of g and how each is held. A seat is shown
// late as the judge's last late notice to the whole game named it:
// before the notice, who still owes orders is not public, and after it,
// who of those named has sent orders since is not either.
func seatsOf(g *state.Game, mp *judge.Map, pos *judge.Position) []seat {
	if pos == nil {
		return nil
	}
	centres, units := pos.CenterCount(), pos.UnitCount()
	var out []seat
	for k, p := range mp.Powers {
		i := slices.IndexFunc(g.Players, func(pl state.Player) bool { return pl.Power == p.Name })
		if i < 0 {
			continue
		}
		st, class := view.StatusWord(g.Players[i].Status), string(g.Players[i].Status)
		if g.Players[i].Status == state.Playing && !g.LateNoticed.IsZero() && slices.Contains(g.LateNamed, p.Name) {
			st, class = "late", "late"
		}
		if g.Players[i].Bot {
			st += ", " + view.BotWords
		}
		out = append(out, seat{Power: p.Name, State: st, Class: class, Centres: centres[k], Units: units[k]})
	}
	return out
}

// unitsOf lists the units of pos power by power, in words.
func unitsOf(pos *judge.Position) ([]powerUnits, []string) {
	mp := pos.Map
	// One row per power, and a last one for the neutral units.
	byPower := make([][]string, len(mp.Powers)+1)
	for _, u := range pos.Units {
		if u.Type == judge.NoUnit {
			continue
		}
		k := min(int(u.Power), len(mp.Powers))
		byPower[k] = append(byPower[k], u.Type.Word()+" "+mp.FullName(u.Loc))
	}
	var out []powerUnits
	for k, us := range byPower {
		if len(us) > 0 {
			out = append(out, powerUnits{Power: mp.UnitOwner(judge.Power(k)), Units: us})
		}
	}
	var dis []string
	for _, d := range pos.Dislodged {
		dis = append(dis, mp.PowerName(d.Power)+": "+d.Type.Word()+" "+mp.FullName(d.Loc))
	}
	return out, dis
}

// settingsOf lists g's settings: the variant and rules, then the
// settings in LIST's words (view.Settings), and the seats while the game
// forms.
func settingsOf(g *state.Game, mp *judge.Map, st view.Settings) []view.Setting {
	out := []view.Setting{{Name: "Variant", Value: mp.Title}, {Name: "Rules", Value: cmp.Or(g.Rules, "standard")}}
	out = append(out, st.Items()...)
	if g.Status == state.Forming {
		out = append(out, view.Setting{Name: "Seats", Value: fmt.Sprint(len(mp.Powers))})
	}
	return out
}

package web

import (
	"fmt"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/report"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

// phaseData is the data of a phase's page: a processed phase with its
// results and orders, or the phase being played, with its position and
// deadline and no orders at all.
type phaseData struct {
	page
	Phase     string // "S1901M"
	Heading   string // "Spring 1901, movement"
	Processed bool
	When      when // processed at, or the deadline of the phase being played
	Results   string
	Orders    []powerOrders // as written, once processed
	Map       mapImage
	After     mapImage     // a processed phase: the board it left
	Units     []powerUnits // the phase being played: its position
	Dislodged []string
	Prev      *phaseLink
	Next      *phaseLink
	Up        string // the game's page, relative to this one
}

// powerOrders are one power's orders as its player wrote them.
type powerOrders struct {
	Power string
	Lines []string
}

// loadPhase returns the page of game name's phase, as everyone sees it,
// or, for a private link (lv non-nil), as its viewer does.
func (s *Server) loadPhase(tx *state.Tx, name, phase string, now time.Time, lv *view.LinkViewer) (*phaseData, error) {
	g, err := s.findGame(tx, name)
	if err != nil {
		return nil, err
	}
	if lv, err = s.linkView(g, lv); err != nil {
		return nil, err // fog of war: no phase is shown until the end
	}
	if lv != nil {
		phase = strings.ToUpper(phase) // a private link has one spelling
	}
	asked := phase
	phase = strings.ToUpper(phase)
	recs, err := tx.Phases(g.Name)
	if err != nil {
		return nil, err
	}
	mp, pos, err := board(g)
	if err != nil {
		return nil, err
	}
	d := &phaseData{page: s.base("", "games/"+g.Name+"/"+phase), Phase: phase, Heading: view.PhaseTitleOf(phase), Up: "../" + g.Name}
	d.Game, d.Feed = g.Name, "atom.xml"
	if lv != nil {
		// Below games/NAME/as/TOKEN/: the root two levels further up,
		// the public game page and feed.
		d.Root = strings.Repeat("../", 4)
		d.Up, d.Feed = "../../../"+g.Name, "../../atom.xml"
	}
	d.Title = fmt.Sprintf("%s, game %s", d.Heading, g.Name)
	loc := zoneOf(g)
	link := func(r *state.PhaseRecord) *phaseLink {
		return &phaseLink{Phase: r.Phase, Title: view.PhaseTitleOf(r.Phase), Href: r.Phase}
	}
	for i, r := range recs {
		if r.Phase != phase {
			continue
		}
		if err := canonical(name, asked, g, r.Phase, "games/"+g.Name+"/"+r.Phase); err != nil && lv == nil {
			return nil, err
		}
		d.Processed, d.When, d.Results = true, whenIn(r.Processed, loc), r.Results
		if lv != nil && lv.Power != "" {
			if d.Results, err = s.fogResults(g, r, lv.Power); err != nil {
				return nil, err
			}
		}
		if i > 0 {
			d.Prev = link(recs[i-1])
		}
		if i+1 < len(recs) {
			d.Next = link(recs[i+1])
		} else if pos != nil && g.Status != state.Finished {
			ph := pos.Phase.String()
			d.Next = &phaseLink{Phase: ph, Title: view.PhaseTitleOf(ph), Href: ph}
		}
		if p, err := parsePhase(r.Phase); err == nil {
			d.Map = s.mapOf(r.Phase+".png", g.Name, p, false)
			if d.After = s.mapOf(r.Phase+"-after.png", g.Name, p, false); d.After.Src != "" {
				d.After.Alt = fmt.Sprintf("Map of game %s after %s: the units where they now stand and the centres as now owned.",
					g.Name, report.PhaseTitle(p))
			}
		}
		for _, p := range mp.Powers {
			lines := r.Orders[p.Name]
			if len(lines) == 0 || lv != nil && lv.Power != "" && lv.Power != p.Name {
				// A power's link shows its own orders, and the others
				// as its results do.
				continue
			}
			po := powerOrders{Power: p.Name}
			texts := r.Written[p.Name]
			for i, l := range lines {
				// The player's words where they were kept, as HISTORY
				// shows them; the order as the judge read it otherwise.
				if i < len(texts) && texts[i] != "" {
					l = texts[i]
				}
				po.Lines = append(po.Lines, l)
			}
			d.Orders = append(d.Orders, po)
		}
		return d, nil
	}
	// Not processed: only the phase being played has a page, which shows
	// its position and never its orders.
	if pos == nil || g.Status == state.Finished || pos.Phase.String() != phase {
		return nil, errNoGame
	}
	if err := canonical(name, asked, g, phase, "games/"+g.Name+"/"+phase); err != nil && lv == nil {
		return nil, err
	}
	if len(recs) > 0 {
		d.Prev = link(recs[len(recs)-1])
	}
	if g.Status == state.Active || g.Status == state.Paused {
		d.When = whenIn(g.Deadline, loc)
	}
	d.Map = s.mapOf(phase+".png", g.Name, pos.Phase, true)
	if lv != nil && lv.Power != "" {
		p, ok := mp.PowerByName(lv.Power)
		if !ok {
			p = judge.NoPower
		}
		pos = view.FogPosition(pos, p)
	}
	d.Units, d.Dislodged = unitsOf(pos)
	return d, nil
}

// pressData is the data of a game's press page.
type pressData struct {
	page
	Up     string
	Policy string
	Press  []pressItem
}

// pressItem is one public press message as its readers got it.
type pressItem struct {
	Phase string
	From  string // the sender as the press named them: "someone" for grey press
	Sent  when
	Text  string
}

// publicPress returns the press of g that every observer was mailed:
// the broadcasts. Press to some powers, or to the master, never is; a
// grey broadcast shows "someone", and a fake one the power it claims,
// as its readers saw them, whoever the record says sent it.
func publicPress(tx *state.Tx, g *state.Game) ([]pressItem, error) {
	var out []pressItem
	loc := zoneOf(g)
	for turn := 0; turn <= g.Turn; turn++ {
		msgs, err := tx.Press(g.Name, turn)
		if err != nil {
			return nil, err
		}
		for _, p := range msgs {
			if len(p.To) > 0 {
				continue
			}
			from := p.From
			switch {
			case p.Grey:
				from = "someone"
			case p.Claimed != "":
				// Fake press (SET FAKE): its readers saw the power it
				// claims; who really sent it is the master's to know.
				from = p.Claimed
			case from == "Master":
				from = "the Master"
			case from == "Observer" || from == "":
				// Observers may only write to the master; a broadcast
				// from one would be damage. It is not shown.
				continue
			}
			out = append(out, pressItem{Phase: p.Phase, From: from, Sent: whenIn(p.Sent, loc), Text: p.Text})
		}
	}
	return out, nil
}

// countPress returns how many public press messages g has.
func countPress(tx *state.Tx, g *state.Game) (int, error) {
	p, err := publicPress(tx, g)
	return len(p), err
}

func (s *Server) loadPress(tx *state.Tx, name string) (*pressData, error) {
	g, err := s.findGame(tx, name)
	if err != nil {
		return nil, err
	}
	if err := canonical(name, "", g, "", "games/"+g.Name+"/press"); err != nil {
		return nil, err
	}
	d := &pressData{page: s.base("Press of game "+g.Name, "games/"+g.Name+"/press"), Up: "../" + g.Name}
	d.Game, d.Feed = g.Name, "atom.xml"
	switch {
	case g.Settings.Press == "none":
		d.Policy = "This game has no press between powers. Broadcasts from the master are shown here."
	case g.Settings.Press == "grey":
		d.Policy = "This game has grey press: a broadcast does not say who sent it. Only broadcasts are shown here; press to some powers stays theirs."
	default:
		d.Policy = "Only broadcasts are shown here; press to some powers stays theirs."
	}
	d.Press, err = publicPress(tx, g)
	return d, err
}

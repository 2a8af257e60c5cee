package engine

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/report"
	"github.com/gmdjudge/gmd/state"
)

// ProcessPhase adjudicates the game's current phase with the pending
// orders, records it in the history, moves the game on and queues the
// results to everyone; the game ends here on a victory. It changes g;
// the caller stores it.
func (m *Engine) ProcessPhase(tx *state.Tx, g *state.Game, now time.Time) error {
	pos, rules, err := m.Position(g)
	if err != nil {
		return err
	}
	return m.Process(tx, g, pos, rules, now)
}

// Process is ProcessPhase for a position already decoded from g.
func (m *Engine) Process(tx *state.Tx, g *state.Game, pos *judge.Position, rules judge.Rules, now time.Time) error {
	pending := m.PendingOrders(g, pos)
	res := judge.Adjudicate(pos, pending, rules)
	if res.Next == nil {
		return fmt.Errorf("game %s: %s: the judge gave no next position", g.Name, pos.Phase)
	}
	turn := g.Turn + 1
	text, err := ResultsText(g.Name, turn, pos, res)
	if err != nil {
		return err
	}
	orders, written := adjudicated(pos, res, pending, g.Written)
	rec := &state.PhaseRecord{
		Phase:     pos.Phase.String(),
		Turn:      turn,
		Processed: now.UTC(),
		Position:  g.Position, // replaced below, never changed in place
		Orders:    orders,
		Written:   written,
		Results:   text,
	}
	if err = tx.PutPhase(g.Name, rec); err != nil {
		return err
	}
	ref := MapRef(g, rec)
	g.PressSent = nil // the limit on press is per phase

	g.Position = jsonpos.EncodePosition(res.Next, rules)
	g.Turn = turn
	m.Event(tx, g, pos.Phase.String(), eventProcessed, "next", res.Next.Phase.String(), "turn", turn)
	// Without a late notice, every seat that gave orders was on time
	// (with one, noteLate counted the phase then).
	if err := m.logPhase(tx, g, pos.Phase.String(), turn, nil, now); err != nil {
		return err
	}
	bots := botPowers(g)
	g.Orders, g.Written, g.Proxies = nil, nil, nil
	for i := range g.Players {
		// Votes and WAIT are for one phase only.
		ClearVotes(&g.Players[i])
	}
	markEliminated(g, res.Next)

	data := ResultsData{Results: text, Bots: bots}
	tag := m.cfg.JudgeName + ":" + g.Name + " - " + pos.Phase.String()
	if len(res.Winners) > 0 {
		names := make([]string, len(res.Winners))
		for i, w := range res.Winners {
			names[i] = pos.Map.PowerName(w)
		}
		if err := m.EndGame(tx, g, "victory "+strings.Join(names, " "), now); err != nil {
			return err
		}
		data.HeadLines, data.Over = m.HeadFor(g, res.Next.Phase), true
		data.Tag = tag
		if err := m.sendResults(tx, now, g, data, m.Recipients(g), ref); err != nil {
			return err
		}
		return m.SendGameOver(tx, g, res.Next, now)
	}
	if LastYearOver(g, res.Next) {
		if err := m.endLastYear(tx, g, res.Next, now); err != nil {
			return err
		}
		data.HeadLines, data.Over = m.HeadFor(g, res.Next.Phase), true
		data.Tag = tag
		return m.sendResults(tx, now, g, data, m.Recipients(g), ref)
	}
	// The orders written ahead for the new phase are entered before the
	// clock looks at whose orders are complete.
	future := m.enterFuture(g, res.Next, rules)
	// The bot plays the seats nobody plays (SET BOT) once a player's
	// orders written ahead are in, and before the clock looks.
	m.EnterBots(g, res.Next, rules)
	m.StartClockFor(g, res.Next.Phase.Type, now)
	// The new phase may have nothing to wait for (a retreat only a power
	// in civil disorder must make): then Tick takes it at once.
	m.Refresh(g, res.Next, now)
	data.HeadLines = m.HeadFor(g, res.Next.Phase)
	data.Tag = tag
	if err := m.sendPhaseResults(tx, now, g, data, ref, pos, res); err != nil {
		return err
	}
	return m.sendFuture(tx, g, future, now)
}

// ResultsText returns the results of the phase played from pos as mailed
// and kept in the history: report.WriteResults's text, with the game name
// and turn number after its title ("Movement results for Spring of 1901.
// (dt.001)") and the game name in its last line ("The next phase of 'dt'
// will be ..."), as njudge writes them (judge-mail-format.md §3d). gmd
// writes one space before the "(" for every phase type, as njudge 1.7
// does for movement.
func ResultsText(game string, turn int, pos *judge.Position, res *judge.Resolution) (string, error) {
	return resultsText(game, turn, pos, res, nil)
}

// resultsText is ResultsText for viewer v under fog of war (nil:
// everything), pos and res being what v sees.
func resultsText(game string, turn int, pos *judge.Position, res *judge.Resolution, v *report.Viewer) (string, error) {
	var b strings.Builder
	if err := report.WriteResultsAs(&b, pos, res, v); err != nil {
		return "", err
	}
	text := b.String()
	title, rest, _ := strings.Cut(text, "\n")
	text = fmt.Sprintf("%s (%s.%03d)\n%s", title, game, turn, rest)
	text = strings.Replace(text, "\nThe next phase will be ", "\nThe next phase of '"+game+"' will be ", 1)
	return text, nil
}

// adjudicated returns the orders the judge ruled on, per power, as
// canonical lines, and the same orders as written (PhaseRecord.Written),
// found in written (Game.Written) for the pending orders given, pending.
// The orders the judge supplied itself (holds for units without orders,
// disbands, civil-disorder removals) are left out of both: the results
// text shows them, they were never written, and adjudicating the recorded
// position with these orders gives the same results again.
func adjudicated(pos *judge.Position, res *judge.Resolution, pending []judge.Order,
	written map[string]map[string]string) (orders, asWritten map[string][]string) {
	m := pos.Map
	out := make(map[string][]string)
	texts := make(map[string][]string)
	for i := range res.Results {
		r := &res.Results[i]
		if r.Default {
			continue
		}
		p := r.Order.Power
		if int(p) >= len(m.Powers) {
			p = ownerOf(pos, r.Order.Unit)
		}
		if int(p) >= len(m.Powers) {
			continue
		}
		name := m.Powers[p].Name
		line := r.Order.Canonical(m)
		out[name] = append(out[name], line)
		texts[name] = append(texts[name], writtenText(m, p, line, r.Order, pending, written[name]))
	}
	for name, t := range texts {
		if !slices.ContainsFunc(t, func(s string) bool { return s != "" }) {
			delete(texts, name)
		}
	}
	if len(texts) == 0 {
		// No text at all (orders stored by an older gmd, or none): the
		// field stays out of the record.
		texts = nil
	}
	return out, texts
}

// writtenText returns how the order o of power p, ruled on as line, was
// written, from the power's texts (Game.Written), or "" if no text was
// kept. The ruling may name the order differently from the stored line
// (with the unit's type or coast, which the stored line has too, unless
// it was stored by an older gmd): then the text is the one of p's
// pending order for the same unit.
func writtenText(m *judge.Map, p judge.Power, line string, o judge.Order, pending []judge.Order, texts map[string]string) string {
	if t, ok := texts[line]; ok || len(texts) == 0 {
		return t
	}
	if o.Kind == judge.Waive {
		return ""
	}
	for i := range pending {
		x := &pending[i]
		if x.Power == p && x.Kind != judge.Waive && SameUnit(m, x.Unit, o.Unit) {
			return texts[x.Canonical(m)]
		}
	}
	return ""
}

// ownerOf returns the power of the unit (dislodged, in a retreat phase)
// at l, or NoPower.
func ownerOf(pos *judge.Position, l judge.Loc) judge.Power {
	if pos.Phase.Type == judge.Retreat {
		prov := pos.Map.Province(l)
		for _, d := range pos.Dislodged {
			if pos.Map.Province(d.Loc) == prov {
				return d.Power
			}
		}
	}
	if u, ok := pos.UnitAt(l); ok {
		return u.Power
	}
	return judge.NoPower
}

// markEliminated marks the seats whose power has nothing left in pos: no
// unit, no dislodged unit waiting to retreat, no supply centre.
func markEliminated(g *state.Game, pos *judge.Position) {
	left := pos.CenterCount()
	for p, n := range pos.UnitCount() {
		left[p] += n
	}
	for _, d := range pos.Dislodged {
		if int(d.Power) < len(left) {
			left[d.Power]++
		}
	}
	for i := range g.Players {
		pl := &g.Players[i]
		if pl.Power == "" || pl.Status == state.Eliminated {
			continue
		}
		if p, ok := pos.Map.PowerByName(pl.Power); ok && left[p] == 0 {
			pl.Status = state.Eliminated
		}
	}
}

// endGame marks g finished with result; its deadline becomes the time it
// ended, which the headers of the last mails show. The seat log records
// the end for every seat still held.
func (m *Engine) EndGame(tx *state.Tx, g *state.Game, result string, now time.Time) error {
	m.Event(tx, g, m.PhaseOf(g), eventEnded, "result", result)
	if err := m.logFinished(tx, g, now); err != nil {
		return err
	}
	g.Status = state.Finished
	g.Result = result
	g.Deadline = now.UTC()
	g.Wake = time.Time{}
	g.Reminded, g.LateNoticed, g.LateNamed = false, time.Time{}, nil
	return nil
}

// SendGameOver queues the final summary of a finished game to everyone:
// how it ended, and each power's player, centres and units in pos, the
// last position; with the game's replay (mailGameOver).
func (m *Engine) SendGameOver(tx *state.Tx, g *state.Game, pos *judge.Position, now time.Time) error {
	return m.mailGameOver(tx, now, g, m.EndData(g, pos, now))
}

// EndData describes how g ended, for draw.tmpl and gameover.tmpl.
func (m *Engine) EndData(g *state.Game, pos *judge.Position, now time.Time) EndData {
	mp := pos.Map
	d := EndData{
		HeadLines:  m.HeadFor(g, pos.Phase),
		Master:     ShownAddr(g, g.MasterAddr),
		Turns:      g.Turn,
		PowerWidth: NameColumn(mp, 0, 11),
		Started:    g.Created,
		Ended:      now.UTC(),
	}
	how, rest, _ := strings.Cut(g.Result, " ")
	d.How = how
	if rest != "" {
		d.Winners = strings.Fields(rest)
	}
	centers, units := pos.CenterCount(), pos.UnitCount()
	for _, i := range seatsByPower(mp, g) {
		p := &g.Players[i]
		s := SeatSummary{Power: p.Power, Addr: ShownAddr(g, p.Addr), Status: string(p.Status), Late: p.Late}
		if pw, ok := mp.PowerByName(p.Power); ok {
			s.Centers, s.Units = centers[pw], units[pw]
			if (how == "victory" || how == "concession") && slices.Contains(d.Winners, p.Power) {
				d.Text = fmt.Sprintf("%s has won the game with %d supply centres.", p.Power, s.Centers)
			}
		}
		d.Seats = append(d.Seats, s)
	}
	_, d.Letters = PowerRefs(mp, g, drawSeats(g, d.Winners))
	switch how {
	case "draw":
		d.Text = "The game was declared a draw between " + ListNames(d.Winners) + "."
	case "concession":
		d.Text = fmt.Sprintf("%s has won the game by concession: every other surviving power conceded.", ListNames(d.Winners))
	case "ranked":
		d.Text = "The game ended ranked by supply centres:"
		d.Ranking = RankLines(rankSurvivors(g, pos), d.PowerWidth)
	case "terminated":
		d.Text = "The game was terminated by the master."
	case "victory":
		if d.Text == "" {
			d.Text = ListNames(d.Winners) + " won the game."
		}
	}
	return d
}

// drawSeats returns the seats of the named powers.
func drawSeats(g *state.Game, names []string) []int {
	var out []int
	for i := range g.Players {
		if slices.Contains(names, g.Players[i].Power) {
			out = append(out, i)
		}
	}
	return out
}

// seatsByPower returns the indexes of g's seats in the map's power order.
func seatsByPower(mp *judge.Map, g *state.Game) []int {
	var out []int
	for i := range g.Players {
		if g.Players[i].Power != "" {
			out = append(out, i)
		}
	}
	return inPowerOrder(mp, g, out)
}

// CheckDraw ends the game when the votes agree: a concession (SET
// CONCEDE) or a draw (DrawPasses). Votes change when a player votes and
// when a seat loses its player, so every such place calls it. It changes
// g; the caller stores it.
func (m *Engine) CheckDraw(tx *state.Tx, g *state.Game, now time.Time) error {
	if g.Status != state.Active && g.Status != state.Paused {
		return nil
	}
	if done, err := m.checkConcession(tx, g, now); err != nil || done {
		return err
	}
	drawn := DrawPasses(g)
	if drawn == nil {
		return nil
	}
	pos, _, err := m.Position(g)
	if err != nil {
		return err
	}
	// Name the powers in the map's order, whatever the seats' order.
	var names []string
	for _, i := range seatsByPower(pos.Map, g) {
		if slices.Contains(drawn, g.Players[i].Power) {
			names = append(names, g.Players[i].Power)
		}
	}
	if err := m.EndGame(tx, g, "draw "+strings.Join(names, " "), now); err != nil {
		return err
	}
	data := m.EndData(g, pos, now)
	if err := m.SendGame(tx, now, g, "draw", data, m.Recipients(g)); err != nil {
		return err
	}
	return m.SendGameOver(tx, g, pos, now)
}

package engine

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/state"
)

// The ways a game ends besides a victory on the board and TERMINATE:
// a draw the survivors agree (CheckDraw), a concession (SET CONCEDE),
// and the end of the last year the master set (SET END YEAR).

// ClearVotes clears what a seat asked for the current phase only: WAIT,
// its draw vote, its concession and its request for a pause. Processing
// a phase clears them for every seat, and a seat that loses its player
// loses them.
func ClearVotes(p *state.Player) {
	p.Wait, p.Draw, p.DrawWith, p.Concede, p.Pause = false, false, nil, "", false
}

// DrawPasses returns the powers of the draw g's votes agree on, in seat
// order, or nil when there is none. Every survivor someone plays must
// vote for a draw; a seat in civil disorder or abandoned has nobody to
// vote, so it does not block the draw, but it shares a DIAS draw; a seat
// the judge's bot plays (SET BOT) never votes for one, and blocks it,
// unless the master let the bot agree (SET BOT ... AGREE): then it
// accepts the draw the others agree on, as a seat nobody plays does.
//
// With DIAS (the default) the draw is among all survivors. Without
// (SET NODIAS), njudge's rule: a vote naming powers accepts any draw
// among them that includes the voter, if the voter named itself (a voter
// who left itself out accepts any draw among them, with or without it).
// The largest draw every vote accepts is the powers every vote names;
// it passes if it holds each voter who named itself, and has two powers
// at least (one alone would be a concession).
func DrawPasses(g *state.Game) []string {
	var survivors []string
	var voters []*state.Player
	for i := range g.Players {
		p := &g.Players[i]
		if p.Power == "" || p.Status == state.Eliminated {
			continue
		}
		survivors = append(survivors, p.Power)
		if p.Bot {
			if !g.Settings.BotAgrees {
				return nil // the judge's bot never votes for a draw (SET BOT)
			}
			continue // it accepts the draw the others agree on, as a seat nobody plays does
		}
		if p.Status == state.Playing {
			if !p.Draw {
				return nil
			}
			voters = append(voters, p)
		}
	}
	if len(voters) == 0 {
		return nil
	}
	if !g.Settings.NoDIAS {
		return survivors
	}
	in := slices.Clone(survivors)
	for _, v := range voters {
		if len(v.DrawWith) > 0 {
			in = slices.DeleteFunc(in, func(p string) bool { return !slices.Contains(v.DrawWith, p) })
		}
	}
	for _, v := range voters {
		named := len(v.DrawWith) == 0 || slices.Contains(v.DrawWith, v.Power)
		if named && !slices.Contains(in, v.Power) {
			return nil
		}
	}
	if len(in) < 2 {
		return nil
	}
	return in
}

// ConcessionPasses returns the power every other survivor someone plays
// conceded to (SET CONCEDE), or "" when there is none. Like a draw vote,
// a seat in civil disorder or abandoned has nobody to concede, and at
// least one seat must have conceded; but a seat the judge's bot plays
// never concedes, and so holds a concession back, unless the master
// let the bot agree (SET BOT ... AGREE).
func ConcessionPasses(g *state.Game) string {
	to := ""
	for i := range g.Players {
		if p := &g.Players[i]; p.Concede != "" && p.Status == state.Playing {
			to = p.Concede
			break
		}
	}
	if to == "" {
		return ""
	}
	if i := PlayerByPower(g, to); i < 0 || g.Players[i].Status == state.Eliminated {
		return ""
	}
	for i := range g.Players {
		p := &g.Players[i]
		agrees := p.Bot && g.Settings.BotAgrees // SET BOT ... AGREE
		if p.Power == "" || p.Power == to || agrees || p.Status != state.Playing && !p.Bot {
			continue
		}
		if p.Concede != to {
			return ""
		}
	}
	return to
}

// checkConcession ends g with a concession to the power every other
// survivor conceded to, and reports whether it did.
func (m *Engine) checkConcession(tx *state.Tx, g *state.Game, now time.Time) (bool, error) {
	to := ConcessionPasses(g)
	if to == "" {
		return false, nil
	}
	pos, _, err := m.Position(g)
	if err != nil {
		return false, err
	}
	if err := m.EndGame(tx, g, "concession "+to, now); err != nil {
		return false, err
	}
	return true, m.SendGameOver(tx, g, pos, now)
}

// LastYearOver reports whether g has played its last year (SET END YEAR)
// when next is the position it goes on to.
func LastYearOver(g *state.Game, next *judge.Position) bool {
	return g.Settings.EndYear > 0 && next.Phase.Year > g.Settings.EndYear
}

// endLastYear ends g after its last year's adjustments, with the result
// the master chose: a draw of the survivors, or the survivors ranked by
// their supply centres in pos, the position after that year. The
// final summary says which.
func (m *Engine) endLastYear(tx *state.Tx, g *state.Game, pos *judge.Position, now time.Time) error {
	ranked := rankSurvivors(g, pos)
	names := make([]string, len(ranked))
	for i, r := range ranked {
		names[i] = r.Power
	}
	result := "draw "
	if g.Settings.EndRank {
		result = "ranked "
	} else {
		// A draw names its powers in the map's order, as a voted one.
		slices.SortFunc(names, func(a, b string) int { return PowerIndex(pos.Map, a) - PowerIndex(pos.Map, b) })
	}
	if err := m.EndGame(tx, g, result+strings.Join(names, " "), now); err != nil {
		return err
	}
	data := m.EndData(g, pos, now)
	if g.Settings.EndRank {
		data.Text = fmt.Sprintf("The game reached the end of %d, its last year, and is ranked by supply centres:", g.Settings.EndYear)
	} else {
		data.Text = fmt.Sprintf("The game reached the end of %d, its last year: it is drawn between %s.", g.Settings.EndYear, ListNames(names))
	}
	return m.mailGameOver(tx, now, g, data)
}

// Ranked is one survivor's place when a game ends ranked by centres.
type Ranked struct {
	Place   int // 1 for the most centres; powers with as many share a place
	Power   string
	Centers int
}

// rankSurvivors ranks g's surviving powers by their supply centres in
// pos, most first, the map's order between equals; equals share a place
// and the next place skips as many (1, 2, 2, 4).
func rankSurvivors(g *state.Game, pos *judge.Position) []Ranked {
	centers := pos.CenterCount()
	var out []Ranked
	for _, i := range seatsByPower(pos.Map, g) {
		p := &g.Players[i]
		if p.Status == state.Eliminated {
			continue
		}
		n := 0
		if pw, ok := pos.Map.PowerByName(p.Power); ok {
			n = centers[pw]
		}
		out = append(out, Ranked{Power: p.Power, Centers: n})
	}
	slices.SortStableFunc(out, func(a, b Ranked) int { return b.Centers - a.Centers })
	for i := range out {
		out[i].Place = i + 1
		if i > 0 && out[i].Centers == out[i-1].Centers {
			out[i].Place = out[i-1].Place
		}
	}
	return out
}

// RankLines writes a ranking as the final summary shows it, a line a
// power, the names in a column width wide: " 1. Russia       4",
// " 2. Austria      3", " 2. England      3".
func RankLines(ranked []Ranked, width int) []string {
	out := make([]string, len(ranked))
	for i, r := range ranked {
		out[i] = fmt.Sprintf("%2d. %-*s %3d", r.Place, width, r.Power, r.Centers)
	}
	return out
}

// LargestPower returns the power with the most supply centres in pos, or
// "" when two or more share the most: njudge lets a game be conceded
// only to the single largest power.
func LargestPower(pos *judge.Position) string {
	best, name, tied := -1, "", false
	for p, n := range pos.CenterCount() {
		switch {
		case n > best:
			best, name, tied = n, pos.Map.Powers[p].Name, false
		case n == best:
			tied = true
		}
	}
	if tied {
		return ""
	}
	return name
}

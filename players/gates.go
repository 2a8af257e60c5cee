package players

import (
	"fmt"
	"strconv"

	"github.com/gmdjudge/gmd/state"
)

// Refusal is why a gate keeps a player out of a game: which gate, what
// it asks, and the player's own figure, so that the reply can say all
// three ("SET DEDICATION" of the master's is 10; yours is -47).
type Refusal struct {
	Gate string // the master's command that set the gate: "DEDICATION"
	Need string // what the gate asks: "at least 10"
	Have string // the player's own figure: "-47"
}

// Error says the refusal in a line.
func (r *Refusal) Error() string {
	return fmt.Sprintf("the game's master set %s: %s; yours is %s", r.Gate, r.Need, r.Have)
}

// Ratio writes a ratio as the replies and pages show it: two places.
func Ratio(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }

// Admit checks a joiner against a game's gates, in the order the
// master's commands are listed, and returns the first that refuses, or
// nil. registered says whether the joiner is a registered player; f are
// their figures (those of every address of a registration, or of the
// one address of a player who is not registered).
func Admit(e state.Entry, registered bool, f Figures) *Refusal {
	switch {
	case e.Registered && !registered:
		return &Refusal{"REGISTERED", "only registered players join", "not registered (REGISTER)"}
	case e.HasDedication && f.Dedication < e.Dedication:
		return &Refusal{"DEDICATION", fmt.Sprintf("at least %d", e.Dedication), strconv.Itoa(f.Dedication)}
	case e.OnTime > 0 && f.OnTimeRatio < e.OnTime:
		return &Refusal{"ONTIMERAT", "at least " + Ratio(e.OnTime), Ratio(f.OnTimeRatio)}
	case e.HasResign && f.ResignRatio > e.Resign:
		return &Refusal{"RESRAT", "at most " + Ratio(e.Resign), Ratio(f.ResignRatio)}
	case f.Finished < e.MinGames:
		return &Refusal{"MIN GAMES", fmt.Sprintf("at least %d finished", e.MinGames), strconv.Itoa(f.Finished)}
	}
	return nil
}

// Gates lists a game's gates in words, for LIST, the forming games'
// page and INFO: none for a game anyone may join.
func Gates(e state.Entry) []string {
	var out []string
	if e.Registered {
		out = append(out, "registered players only")
	}
	if e.HasDedication {
		out = append(out, fmt.Sprintf("dedication at least %d", e.Dedication))
	}
	if e.OnTime > 0 {
		out = append(out, "on-time ratio at least "+Ratio(e.OnTime))
	}
	if e.HasResign {
		out = append(out, "resignation ratio at most "+Ratio(e.Resign))
	}
	if e.MinGames > 0 {
		out = append(out, fmt.Sprintf("at least %d games finished", e.MinGames))
	}
	switch {
	case len(e.JoinHash) > 0 && len(e.Invited) > 0:
		out = append(out, "by invitation or join password")
	case len(e.JoinHash) > 0:
		out = append(out, "join password")
	case len(e.Invited) > 0:
		out = append(out, "by invitation")
	}
	if e.Approval {
		out = append(out, "the master approves each join")
	}
	return out
}

// Shown reports whether a seat of g may be linked to its player, on a
// page or in a reply to anyone but the game's master: not in a private
// game (which is on no list), nor in a gunboat game until it has ended
// and its master revealed who played it.
func Shown(g *state.Game) bool {
	if g.Entry.Private {
		return false
	}
	return !g.Settings.Gunboat || g.Status == state.Finished && g.Revealed
}

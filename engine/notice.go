package engine

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/state"
)

// HeadLines is what every mail of the clock side starts with: the common
// header of judge-mail-format.md §3a ({{.Header}} in a template) and the
// beginning of its subject line ({{.Tag}}: "GMD:dt - S1901M"). Every
// template of the clock side gets it embedded in its data, so the fields
// below are available by name.
type HeadLines struct {
	Header   Header    // the common header, starting with its blank line
	Tag      string    // "GMD:dt - S1901M": the judge, game and phase the mail is about
	Game     string    // the game's name: "dt"
	Deadline time.Time // the deadline of the game's current phase
	Zone     string    // the game's time zone, for the date function
}

// Head returns the start of a mail about g in its current phase.
func (m *Engine) Head(g *state.Game) HeadLines {
	return m.headAt(g, m.Header(g))
}

// HeadFor is head for a game whose current phase is p, known to the
// caller (which spares decoding the position again).
func (m *Engine) HeadFor(g *state.Game, p judge.Phase) HeadLines {
	h := Header{Judge: m.cfg.JudgeName, Game: g.Name, Variant: g.Variant, Phase: p.String(),
		Deadline: FormatDate(g, g.Deadline)}
	if mp, err := GameMap(g); err == nil {
		h.Variant = mp.Title
	}
	if g.Status == state.Finished {
		// njudge marks a finished game's phase with a seventh letter X.
		h.Phase += "X"
	}
	return m.headAt(g, h)
}

// headAt completes the head of a mail with header h.
func (m *Engine) headAt(g *state.Game, h Header) HeadLines {
	return HeadLines{
		Header:   h,
		Tag:      m.cfg.JudgeName + ":" + g.Name + " - " + h.Phase,
		Game:     g.Name,
		Deadline: g.Deadline,
		Zone:     zoneName(g),
	}
}

// zoneName is the game's zone for the templates' date function.
func zoneName(g *state.Game) string {
	if g.Settings.Zone == "" {
		return "UTC"
	}
	return g.Settings.Zone
}

// PowerRef names one power in a notice.
type PowerRef struct {
	Name      string // "France"
	Letter    string // "F"
	Late      int    // times the seat's player was late, this time included
	Abandoned bool   // the seat is free for takeover
}

// PowerRefs returns the powers of the seats at the given indexes, and
// their letters run together as subjects show them ("FR"; see
// SubjectLetters).
func PowerRefs(mp *judge.Map, g *state.Game, seats []int) ([]PowerRef, string) {
	out := make([]PowerRef, 0, len(seats))
	var letters strings.Builder
	for _, i := range inPowerOrder(mp, g, seats) {
		p := &g.Players[i]
		r := PowerRef{Name: p.Power, Late: p.Late, Abandoned: p.Status == state.Abandoned}
		if pw, ok := mp.PowerByName(p.Power); ok {
			r.Letter = string(mp.Powers[pw].Letter)
		} else if p.Power != "" {
			r.Letter = p.Power[:1]
		}
		letters.WriteString(r.Letter)
		out = append(out, r)
	}
	return out, SubjectLetters(letters.String())
}

// maxSubjectLetters is the most power letters a subject runs together
// ("Late Notice: FR"). The longest subject that holds them, a late
// player's notice of a game with a name of twelve letters, then fits in
// a header line of 78 characters; Chaos has 34 powers.
const maxSubjectLetters = 12

// SubjectLetters returns letters as a subject shows them: as they are,
// or, when there are more than maxSubjectLetters, how many ("15
// powers"), which the body then names.
func SubjectLetters(letters string) string {
	if len(letters) <= maxSubjectLetters {
		return letters
	}
	return strconv.Itoa(len(letters)) + " powers"
}

// inPowerOrder returns a copy of seats sorted in the map's power order.
func inPowerOrder(mp *judge.Map, g *state.Game, seats []int) []int {
	out := slices.Clone(seats)
	rank := func(i int) int {
		if p, ok := mp.PowerByName(g.Players[i].Power); ok {
			return int(p)
		}
		return len(mp.Powers)
	}
	slices.SortStableFunc(out, func(a, b int) int { return cmp.Compare(rank(a), rank(b)) })
	return out
}

// ListNames writes names as a sentence does: "Austria", "Austria and
// England", "Austria, England and France".
func ListNames(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// The data of the clock side's templates. Each embeds HeadLines.
type (
	// ResultsData is for results.tmpl: one processed phase. Its Tag
	// names the phase processed, its Header the phase that follows.
	ResultsData struct {
		HeadLines
		Results string // the results text (package report), titled and ending with the next phase
		Over    bool   // the game ended with this phase
		// Bots are the powers whose orders the judge's bot wrote for
		// the phase processed (SET BOT), in seat order.
		Bots []string
		// Link is the power's private link to the phase on the web,
		// under fog of war (PrivateLink); "" for none.
		Link string
	}

	// ReminderData is for reminder.tmpl, to one player missing orders.
	ReminderData struct {
		HeadLines
		Power  string   // "France"
		Left   string   // the time left to the deadline: "1 day", "5 minutes"
		Hours  int      // whole hours left, rounded up (for templates older than Left)
		Orders []string // the power's orders so far, canonical lines
	}

	// LateData is for late.tmpl: the powers a game waits for during its
	// grace.
	LateData struct {
		HeadLines
		Powers  []PowerRef
		Letters string    // "FR", or "15 powers" for many (SubjectLetters)
		Grace   time.Time // when the grace runs out
		NMR     bool      // late powers fall into civil disorder (else they are abandoned)
		// YouAreLate is set in the copy to the late players, whose
		// subject starts with "[You are late!]" as njudge's does.
		YouAreLate bool
	}

	// AbandonedData is for abandoned.tmpl: seats free for takeover.
	AbandonedData struct {
		HeadLines
		Powers  []PowerRef
		Letters string // as in LateData
		Ejected bool   // the master ejected the player (else the grace ran out)
		Waiting bool   // the game waits for the seats to be taken over
		Bot     bool   // the judge's bot plays the seats until then (SET BOT)
	}

	// TakeoverData is for takeover.tmpl.
	TakeoverData struct {
		HeadLines
		Power     string // "France"
		Addr      string // the new player's address
		Returned  bool   // the seat's own player came back to it
		Restarted bool   // the deadline was computed afresh
		Waiting   []string
		// Bot is set when the judge's bot held the seat until now (SET
		// BOT): its orders for the phase stand until the new player's.
		Bot bool
	}

	// EndData is for draw.tmpl and gameover.tmpl.
	EndData struct {
		HeadLines
		How     string   // "victory", "concession", "draw", "ranked" or "terminated"
		Winners []string // the winner, the powers in the draw, or the survivors in their rank's order
		Letters string   // the powers in the draw, as letters: "AEF", or "15 powers" for many
		Text    string   // one sentence: how the game ended
		// Ranking is a ranked end's table, a line a survivor, most
		// centres first: " 1. Russia      4" (RankLines).
		Ranking []string
		Seats   []SeatSummary
		// PowerWidth is the width of the Power column of Seats: at
		// least 11, more for a variant with longer names.
		PowerWidth int
		Master     string
		Turns      int       // phases processed
		Started    time.Time // when the game was created
		Ended      time.Time
	}

	// SeatSummary is one power's line in the final summary.
	SeatSummary struct {
		Power   string
		Addr    string
		Status  string // "playing", "abandoned", "cd", "eliminated"
		Centers int
		Units   int
		Late    int
	}

	// ControlData is for the master's notices: paused, resumed,
	// terminated, rollback, deadline.
	ControlData struct {
		HeadLines
		What  string    // "Deadline", "Grace", "Movement", ... (deadline.tmpl)
		When  time.Time // the new deadline or end of grace (deadline.tmpl)
		Len   string    // the new grace, in words: "2 days" (deadline.tmpl)
		Back  string    // the phase rolled back to (rollback.tmpl)
		Title string    // "Spring of 1901" (rollback.tmpl)
		// By is who did it when not the master: "its players" (a
		// pause the players asked for), or a power that extended the
		// deadline (EXTEND); "" for the master.
		By string
	}

	// PredictData is for predict.tmpl, to the master only.
	PredictData struct {
		HeadLines
		Results string
		Missing []string // powers still missing orders
	}
)

// MapOrNil returns the game's map, or an empty map when its variant is
// unknown, so that notices still go out.
func MapOrNil(g *state.Game) *judge.Map {
	if mp, err := GameMap(g); err == nil {
		return mp
	}
	return &judge.Map{}
}

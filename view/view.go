// Package view is what a reader of a game sees, for the mails and the web
// pages alike: the overview of a game, the words for a seat's status, the
// settings in words, the centre history and the phase titles. It imports
// state, judge and jsonpos but never the game engine or the mail session,
// so that the web pages can show a game without them; the engine builds
// the overview and the settings.
package view

import (
	"time"

	"github.com/gmdjudge/gmd/state"
)

// GameOverview is one game as the judge's operator sees it (gmd games):
// where it stands and which seats hold it up.
type GameOverview struct {
	Name    string
	Variant string // the variant's title: "Standard"
	Status  state.GameStatus
	// Phase is the current phase ("S1901M"): the variant's first while
	// the game forms, with an "X" once it is over, as LIST shows it.
	Phase string
	// Deadline is the current phase's, for a game being played or
	// paused; zero otherwise.
	Deadline time.Time
	// Players is how many seats a player holds (how many have joined,
	// while the game forms), of Seats, the variant's powers.
	Players, Seats int
	// Late lists the powers whose players owe orders past the deadline;
	// Abandoned the seats free for takeover, which hold the phase back
	// in a NoNMR game; Disorder the seats in civil disorder. Powers are
	// in seat order.
	Late, Abandoned, Disorder []string

	// Result says how a finished game ended.
	Result string

	// Settings are the game's settings in words, as LIST says them.
	Settings Settings
}

// BotWords says that the judge's bot plays a seat (SET BOT), after its
// status: LIST, the mails and the web pages word it alike.
const BotWords = "played by the judge's bot"

// StatusWord says a seat's status in a sentence ("in civil disorder"):
// the mails and the web pages word it alike.
func StatusWord(st state.PlayerStatus) string {
	switch st {
	case state.Disorder:
		return "in civil disorder"
	case state.Abandoned:
		return "abandoned"
	case state.Eliminated:
		return "eliminated"
	}
	return string(st)
}

package view

import (
	"fmt"
	"strings"

	"github.com/gmdjudge/gmd/judge"
)

// Season names a phase's season and year as the mails do: "Spring of
// 1901".
func Season(p judge.Phase) string { return fmt.Sprintf("%s of %d", p.Season, p.Year) }

// PhaseTitle is a phase's title, as the web pages head it: "Spring 1901,
// movement".
func PhaseTitle(p judge.Phase) string {
	return fmt.Sprintf("%s %d, %s", p.Season, p.Year, strings.ToLower(p.Type.String()))
}

// PhaseTitleOf is PhaseTitle of a phase as stored ("S1901M", or
// "W1905AX" once the game is over); a string that is no phase is its own
// title.
func PhaseTitleOf(ph string) string {
	p, err := judge.ParsePhase(strings.TrimSuffix(ph, "X"))
	if err != nil {
		return ph
	}
	return PhaseTitle(p)
}

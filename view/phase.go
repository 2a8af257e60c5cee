package view

import (
	"strings"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/report"
)

// PhaseTitleOf is report.PhaseTitle of a phase as stored ("S1901M", or
// "W1905AX" once the game is over); a string that is no phase is its own
// title.
func PhaseTitleOf(ph string) string {
	p, err := judge.ParsePhase(strings.TrimSuffix(ph, "X"))
	if err != nil {
		return ph
	}
	return report.PhaseTitle(p)
}

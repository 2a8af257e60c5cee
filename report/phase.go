package report

import (
	"fmt"
	"strings"

	"github.com/gmdjudge/gmd/judge"
)

// The words for a phase, each written here once: the results, the
// acknowledgements and notices, the pictures and the web pages all name
// phases through these.

// Season names a phase's season and year as njudge's mails do: "Spring
// of 1901".
func Season(p judge.Phase) string { return fmt.Sprintf("%s of %d", p.Season, p.Year) }

// PhaseTitle is a phase's title, as the pictures and the web pages head
// it: "Spring 1901, movement".
func PhaseTitle(p judge.Phase) string {
	return fmt.Sprintf("%s %d, %s", p.Season, p.Year, strings.ToLower(p.Type.String()))
}

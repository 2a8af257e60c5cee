package report

import (
	"slices"
	"strings"

	"github.com/gmdjudge/gmd/judge"
)

// A Viewer is the one power a results text is written for under fog of
// war (SET FOG). The position and rulings handed to WriteResultsAs are
// already the viewer's (view.Fog); what the report itself must hold back
// is what it would count or list from them as if they were the whole
// board: the centres out of sight, which the fogged position shows
// unowned, and the centre and unit counts of the other powers, which it
// would count from the few it sees.
type Viewer struct {
	Power judge.Power
	// Seen is, by Loc, the provinces the viewer sees on the board after
	// the phase (view.Sight of res.Next).
	Seen []bool
}

// sees reports whether the province of l is in v's sight; everything is
// for a nil v.
func (v *Viewer) sees(l judge.Loc) bool {
	return v == nil || int(l) < len(v.Seen) && v.Seen[l]
}

// counts reports whether the report gives p's counts (centres, units,
// builds due) to v: its own only, or everyone's for a nil v.
func (v *Viewer) counts(p judge.Power) bool { return v == nil || v.Power == p }

// nothingSeen ends a retreat or adjustment section that shows v nothing
// (its heading then ends in a blank line) with a line saying so, rather
// than a second blank line.
func (v *Viewer) nothingSeen(b *strings.Builder, m *judge.Map) {
	if v != nil && strings.HasSuffix(b.String(), ".\n\n") {
		b.WriteString("Nothing that " + m.PowerName(v.Power) + " can see.\n")
	}
}

// ownershipSeen ends the ownership table for v when it lists no centre
// (a power with nothing left sees nothing) with a line saying so, and
// reports whether the counts follow: always for a nil v; for v, when it
// has a centre or a unit to count.
func (v *Viewer) ownershipSeen(b *strings.Builder, m *judge.Map, owners [][]string, centers, units []int) bool {
	if v == nil {
		return true
	}
	if !slices.ContainsFunc(owners, func(names []string) bool { return len(names) > 0 }) {
		b.WriteString("None that " + m.PowerName(v.Power) + " can see.\n")
	}
	p := int(v.Power)
	return p < len(centers) && (centers[p] > 0 || units[p] > 0)
}

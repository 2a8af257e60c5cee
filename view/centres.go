package view

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/state"
)

// CentreYear is the supply centres each power owned after one Fall, in
// the map's order of powers; the start of the game is a year of its own,
// the one before the map's first (Start).
type CentreYear struct {
	Year   int
	Start  bool
	Counts []int
}

// BuiltCentre is a supply centre built during a game, with the year
// whose Fall it was built at the end of. The builder is the power whose
// home country holds it.
type BuiltCentre struct {
	Loc  judge.Loc
	Year int
}

// CentreHistory is a game's supply centres year by year: SUMMARY's table
// and the web page's chart are drawn from it.
type CentreHistory struct {
	Years []CentreYear  // the start, if recorded, then every Fall played, in order
	Built []BuiltCentre // in the order they were built
}

// CentresByYear returns the centres each power owned at the start and
// after every Fall played, from the positions of the history recs and the
// current one, and the centres built during the game. Ownership changes
// (and new centres are built) only at the end of a year's Fall, so a
// Winter position of year Y, and any Spring or Fall position of year
// Y+1, show the counts after the Fall of Y: only the first of each year
// is decoded, unless the map lets powers build centres (Construction),
// whose positions are all read for when each centre was built.
func CentresByYear(mp *judge.Map, recs []*state.PhaseRecord, current []byte) (CentreHistory, error) {
	var h CentreHistory
	seen := map[int]bool{}
	var dec jsonpos.Decoder
	look := func(phase string, data []byte) error {
		if len(data) == 0 {
			return nil
		}
		y, known := 0, false
		if ph, err := judge.ParsePhase(strings.TrimSuffix(phase, "X")); err == nil {
			y, known = yearOf(mp, ph), true
		}
		if known && seen[y] && !mp.Construction {
			return nil
		}
		pos, _, err := dec.Position(data)
		if err != nil {
			return err
		}
		y = yearOf(mp, pos.Phase)
		if !seen[y] {
			seen[y] = true
			h.Years = append(h.Years, CentreYear{Year: y, Start: y < mp.StartYear, Counts: pos.CenterCount()})
		}
		if y < mp.StartYear {
			return nil
		}
		for _, l := range pos.BuiltCenters {
			if !slices.ContainsFunc(h.Built, func(c BuiltCentre) bool { return c.Loc == l }) {
				h.Built = append(h.Built, BuiltCentre{l, y})
			}
		}
		return nil
	}
	for _, r := range recs {
		if err := look(r.Phase, r.Position); err != nil {
			return CentreHistory{}, fmt.Errorf("phase %s: %w", r.Phase, err)
		}
	}
	if err := look("", current); err != nil {
		return CentreHistory{}, err
	}
	slices.SortStableFunc(h.Years, func(a, b CentreYear) int { return a.Year - b.Year })
	slices.SortStableFunc(h.Built, func(a, b BuiltCentre) int { return a.Year - b.Year })
	return h, nil
}

// yearOf is the year whose Fall the centres of a position at ph follow,
// the one before the map's first for the start.
func yearOf(mp *judge.Map, ph judge.Phase) int {
	y := ph.Year - 1
	if ph.Season == judge.Winter {
		y = ph.Year
	}
	return max(y, mp.StartYear-1)
}

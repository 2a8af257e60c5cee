package players

import (
	"github.com/gmdjudge/gmd/state"
)

// The reliability formula. Dedication is njudge's one figure of points:
// each phase whose orders were in by the deadline earns PointsOnTime,
// each phase the seat was named late costs PointsLate (once a phase,
// however many late notices went out, so that the judge's own notices
// cannot run a figure down), a seat abandoned or resigned costs
// PointsAbandoned and one left to civil disorder PointsDisorder. A seat
// the master ejected costs nothing: it is counted and shown, but a
// master's decision in one game is not a figure for every other game.
const (
	PointsOnTime    = 3
	PointsLate      = -1
	PointsAbandoned = -50
	PointsDisorder  = -100
)

// The ratios start from a prior, as though every player had already
// played PriorPhases phases on time and held PriorGames seats to the
// end: a new player's first late phase or resignation does not make a
// ratio that no gate would let through, and the prior weighs less with
// every game played.
const (
	PriorPhases = 4
	PriorGames  = 2
)

// Figures are a player's reliability: the counts of the seat log and
// the figures made of them.
type Figures struct {
	state.Tally
	// Dedication is the points (see PointsOnTime); it starts at 0 and
	// may go below.
	Dedication int
	// OnTimeRatio is the on-time ratio, (on time + PriorPhases) / (on time +
	// late + PriorPhases): 1 for a new player.
	OnTimeRatio float64
	// ResignRatio is the resignation ratio, (resigned + abandoned) / (seats
	// held + PriorGames): 0 for a new player.
	ResignRatio float64
}

// Compute returns the figures of a tally.
func Compute(t state.Tally) Figures {
	return Figures{
		Tally: t,
		Dedication: PointsOnTime*t.OnTime + PointsLate*t.Late +
			PointsAbandoned*(t.Abandoned+t.Resigned) + PointsDisorder*t.Disorder,
		OnTimeRatio: float64(t.OnTime+PriorPhases) / float64(t.OnTime+t.Late+PriorPhases),
		ResignRatio: float64(t.Resigned+t.Abandoned) / float64(t.Games+PriorGames),
	}
}

// Replay returns the figures of seat logs, replayed from nothing: what
// the running tallies must always give (a test plays games and checks).
func Replay(logs ...[]*state.SeatEvent) Figures {
	var t state.Tally
	for _, evs := range logs {
		t = t.Plus(state.CountEvents(evs))
	}
	return Compute(t)
}

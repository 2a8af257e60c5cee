package picture

import (
	"testing"

	"github.com/gmdjudge/gmd/bot"
	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// gameYears is how many years the played corpus's games last: long
// enough that every power has built its units and each of them moves
// every turn, as in the middle of a real game, which is where a
// picture is busiest.
const gameYears = 6

// playedBusiest plays one game of heuristic bots on every board (a
// spread of them under the race detector) for gameYears years, and
// returns, for each board, the movement phase with the most orders,
// with its adjudication: the picture of a game as bots play it, each
// unit ordered to move or support every turn. The random corpus
// (corpus) has every kind of order, but in three years of it a board's
// busiest phase has fewer units, and fewer of them moving, than a
// played game's: a World game by gmd's bots weighed 154 KB on a
// movement picture that the random corpus had never drawn.
func playedBusiest(t testing.TB) []shot {
	t.Helper()
	return played(t).busiest
}

// playedRetreats returns every retreat phase of the games playedBusiest
// plays, with its adjudication: dislodged units where real play puts
// them, beside the units that took their provinces.
func playedRetreats(t testing.TB) []shot {
	t.Helper()
	return played(t).retreats
}

// playedGames is what the played games keep of their phases.
type playedGames struct {
	busiest, retreats []shot
}

// played plays the games of playedBusiest, once per test binary.
func played(t testing.TB) playedGames {
	t.Helper()
	return playedShots.get(t, "the played games", func() playedGames {
		var out playedGames
		for _, name := range racetest.Spread(variants.Names(), 6) {
			m, err := variants.Load(name)
			if err != nil {
				t.Fatal(err)
			}
			players := make([]bot.Player, len(m.Powers))
			for i := range players {
				if players[i], err = bot.New("heuristic", bot.Config{Rules: judge.DefaultRules, Seed: uint64(i + 1)}); err != nil {
					t.Fatal(err)
				}
			}
			var best shot
			pos := judge.StartPosition(m)
			for pos.Phase.Year < m.StartYear+gameYears {
				var orders []judge.Order
				for q, p := range players {
					orders = append(orders, p.Orders(pos, judge.Power(q))...)
				}
				res := judge.Adjudicate(pos, orders, judge.DefaultRules)
				if pos.Phase.Type == judge.Movement && (best.res == nil || len(res.Results) > len(best.res.Results)) {
					best = shot{name + "-played-" + pos.Phase.String(), pos, res}
				}
				if pos.Phase.Type == judge.Retreat {
					out.retreats = append(out.retreats, shot{name + "-played-" + pos.Phase.String(), pos, res})
				}
				if len(res.Winners) > 0 {
					break
				}
				pos = res.Next
			}
			out.busiest = append(out.busiest, best)
		}
		return out
	})
}

var playedShots shared[playedGames]

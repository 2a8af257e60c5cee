package engine

import (
	"fmt"

	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/state"
)

// CheckGames reads what the game master needs of every stored game and
// that state.DB.Check cannot read, as it knows nothing of Diplomacy: the
// variant, the current position and the position before each processed
// phase. It returns one line per problem, naming the game; a game whose
// record does not decode at all is left to DB.Check, which says so.
//
// A position that does not decode holds up every mail for its game (see
// ErrDamaged), so gmd check must not call such a database sound.
func CheckGames(tx *state.Tx) ([]string, error) {
	names, err := tx.GameNames()
	if err != nil {
		return nil, err
	}
	var problems []string
	for _, name := range names {
		g, err := tx.Game(name)
		if err != nil {
			continue // DB.Check reports the record
		}
		if _, err := GameMap(g); err != nil {
			problems = append(problems, err.Error())
			continue
		}
		if len(g.Position) > 0 {
			if _, _, err := jsonpos.DecodePosition(g.Position); err != nil {
				problems = append(problems, fmt.Sprintf("game %s: stored position: %v", name, err))
			}
		}
		phases, err := tx.Phases(name)
		if err != nil {
			continue // DB.Check reports the record
		}
		for _, rec := range phases {
			if _, _, err := jsonpos.DecodePosition(rec.Position); err != nil {
				problems = append(problems, fmt.Sprintf("game %s: history of %s: position: %v", name, rec.Phase, err))
			}
		}
	}
	return problems, nil
}

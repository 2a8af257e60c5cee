package state

// HasGame reports whether a game named name (in any case) is stored,
// without reading it: for telling a game's name from other words, where
// reading the game would cost its whole record.
func (tx *Tx) HasGame(name string) (bool, error) {
	games, err := tx.bucket(bucketGames)
	if err != nil {
		return false, err
	}
	key := nameKey(name)
	return len(key) > 0 && games.Get(key) != nil, nil
}

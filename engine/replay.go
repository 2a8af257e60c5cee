package engine

import (
	"errors"
	"fmt"
	"time"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/internal/length"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/templates"
	"github.com/gmdjudge/gmd/view"
)

// A finished game's replay (issue 26): the whole game as an animated
// picture, which the game-over mail carries to every address that takes
// maps, and HISTORY game REPLAY to whoever asks among those. Like the
// maps, the outbox keeps a reference only (ReplayRef); the sender draws
// it when it sends the mail, once for all the mails of one game.

// ReplayCacheSize is how many games' replays a MapRenderer keeps: the
// game-over mails of a gunboat game go one per address, and those of two
// games ending in one tick may take turns in the outbox.
const ReplayCacheSize = 2

// ReplayRef returns the reference to the replay of g, a finished game:
// as it stands at its end, which a later change of the game (a ROLLBACK
// that starts it again) makes void.
func ReplayRef(g *state.Game) state.MapRef {
	return state.MapRef{Game: g.Name, Turn: g.Turn, Processed: g.Deadline, Replay: true}
}

// ReplayFile is one file of a replay as a mail carries it.
type ReplayFile struct {
	Name        string // "dt.gif", or "dt-1.gif", "dt-2.gif", ... in parts; "dt-replay.txt" for the note
	ContentType string // "image/gif", or "text/plain" (ASCII: a game's name is) for the note
	Data        []byte
}

// replayEntry is a replay a MapRenderer keeps, or why it could not be
// drawn.
type replayEntry struct {
	key   string
	files []ReplayFile
	err   error
}

// SetReplay has r draw the replays that mails refer to with draw, in
// files of at most maxBytes (config's MaxReplayBytes), at most
// config.MaxReplayParts of them (0: config.DefaultMaxReplayBytes).
// Without it, a replay is an error, and the mail goes without it.
func (r *MapRenderer) SetReplay(draw view.ReplayDrawer, maxBytes int) {
	if maxBytes <= 0 {
		maxBytes = config.DefaultMaxReplayBytes
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.drawReplay, r.maxReplay = draw, maxBytes
}

// Replay returns the files of the replay ref names (ref.Replay): the GIF,
// or its parts in order. A replay too large for the bound is not an
// error: its one file is then a short note that says so and where to see
// the game instead. It fails when the game is no longer as it ended
// (ErrMapGone), or cannot be read or drawn. It keeps the last
// ReplayCacheSize replays, so that a game's replay is drawn once for all
// its mails, and draws one picture at a time, as PNG does.
func (r *MapRenderer) Replay(ref state.MapRef) ([]ReplayFile, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	key := refKey(ref)
	for i, e := range r.replays {
		if e.key == key {
			// The most recent first.
			copy(r.replays[1:i+1], r.replays[:i])
			r.replays[0] = e
			return e.files, e.err
		}
	}
	files, err := r.renderReplay(ref)
	if err != nil {
		err = fmt.Errorf("replay of %s: %w", ref.Game, err)
	}
	r.replays = append([]replayEntry{{key, files, err}}, r.replays...)
	if len(r.replays) > ReplayCacheSize {
		r.replays = r.replays[:ReplayCacheSize]
	}
	return files, err
}

// renderReplay reads the game ref names and draws its replay.
func (r *MapRenderer) renderReplay(ref state.MapRef) ([]ReplayFile, error) {
	if r.drawReplay == nil {
		return nil, errors.New("this judge draws no replays")
	}
	var (
		g    *state.Game
		recs []*state.PhaseRecord
	)
	err := r.db.View(func(tx *state.Tx) error {
		var err error
		if g, err = tx.Game(ref.Game); err == nil {
			recs, err = tx.Phases(g.Name)
		}
		return err
	})
	if errors.Is(err, state.ErrNotFound) {
		return nil, ErrMapGone
	} else if err != nil {
		return nil, err
	}
	if g.Status != state.Finished || g.Turn != ref.Turn || !g.Deadline.Equal(ref.Processed) {
		// Rolled back and played on since the mail was queued.
		return nil, ErrMapGone
	}
	r.replayDraws++
	parts, err := r.drawReplay(g, recs, r.maxReplay, config.MaxReplayParts)
	if errors.Is(err, view.ErrReplayTooBig) {
		return []ReplayFile{replayNote(g, len(recs), r.maxReplay)}, nil
	}
	if err != nil {
		return nil, err
	}
	return ReplayFiles(g.Name, parts), nil
}

// ReplayFiles names the parts of game's replay: game.gif when it is
// whole, game-1.gif, game-2.gif, ... when it is cut.
func ReplayFiles(game string, parts [][]byte) []ReplayFile {
	out := make([]ReplayFile, len(parts))
	for i, p := range parts {
		name := game + ".gif"
		if len(parts) > 1 {
			name = fmt.Sprintf("%s-%d.gif", game, i+1)
		}
		out[i] = ReplayFile{Name: name, ContentType: "image/gif", Data: p}
	}
	return out
}

// replayNote is the file a mail carries in place of a replay too large
// to mail: where to see the game instead.
func replayNote(g *state.Game, phases, maxBytes int) ReplayFile {
	text := fmt.Sprintf("The replay of game '%s', its %s as an animated picture, is larger than this judge mails "+
		"(%d files of %d KB at most). The game's web page shows it, where this judge has one; "+
		"the judge's operator can draw it with\n\n    gmd replay -game %s -o %s.gif\n",
		g.Name, length.Count(phases, "phase"), config.MaxReplayParts, maxBytes>>10, g.Name, g.Name)
	return ReplayFile{Name: g.Name + "-replay.txt", ContentType: "text/plain", Data: []byte(templates.Wrap(text))}
}

// mailGameOver queues the game-over mail of g, data, to all its
// recipients; to the addresses that take maps (WantsMap) it carries the
// game's replay after its text, when a phase was played. The text is
// the same with or without it.
func (m *Engine) mailGameOver(tx *state.Tx, now time.Time, g *state.Game, data EndData) error {
	var maps []state.MapRef
	if g.Turn > 0 && g.Status == state.Finished {
		maps = []state.MapRef{ReplayRef(g)}
	}
	return m.sendWithMaps(tx, now, g, "gameover", data, m.Recipients(g), maps)
}

// ReplayDraws returns how many replays r has drawn: a test's check that
// a game's replay is drawn once for all its mails.
func (r *MapRenderer) ReplayDraws() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.replayDraws
}

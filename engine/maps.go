package engine

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

// A MapRenderer's maxBytes is the largest picture a mail carries: the
// Drawer's own limit (picture.MaxPNGBytes for picture.PNG), which it
// promises to keep; a bigger one means something went wrong, so the
// mail goes without it rather than fill mailboxes. It is handed in with
// the Drawer so that the engine need not import package picture.

// MapCacheSize is how many pictures a MapRenderer keeps: a results mail
// goes once per player in gunboat games, and several games may be
// processed together, but each phase's picture is needed only while its
// mails go out.
const MapCacheSize = 4

// A MapRenderer draws the pictures that outbox mails refer to
// (state.OutMail.Maps), from the games' history, when they are sent: the
// outbox keeps references only, so that it stays as small as the text of
// its mails. The picture of the phase played from a history record is
// the record's position with its orders, adjudicated again (the judge is
// deterministic, so the outcomes are those that were mailed).
//
// It keeps the last few pictures, so that a phase mailed to seven
// players is drawn once; its methods may be called from several
// goroutines, and draw one picture at a time.
type MapRenderer struct {
	db       *state.DB
	draw     view.Drawer
	maxBytes int // the largest picture kept; a bigger one is an error

	mu    sync.Mutex
	Cache *view.PictureCache // a picture that failed once fails again, and is not tried once per recipient
	draws int                // pictures drawn, for tests

	// The replays of finished games (replay.go): how to draw them, the
	// bound on each file, the last few drawn, most recent first, and
	// how many were drawn, for tests.
	drawReplay  view.ReplayDrawer
	maxReplay   int
	replays     []replayEntry
	replayDraws int
}

// NewMapRenderer returns a MapRenderer drawing with draw from the
// history in db.
func NewMapRenderer(db *state.DB, draw view.Drawer, maxBytes int) *MapRenderer {
	return &MapRenderer{db: db, draw: draw, maxBytes: maxBytes, Cache: view.NewPictureCache(MapCacheSize)}
}

// ErrMapGone says that a mail's picture can no longer be drawn: the
// phase was rolled back, or the game is gone.
var ErrMapGone = errors.New("no longer in the game's history")

// PNG returns the picture of the processed phase ref names. It fails
// when the phase is no longer in the game's history (a ROLLBACK removed
// it, or a later processing replaced it), when the history cannot be
// read, or when the drawing fails or is larger than the renderer's maxBytes.
func (r *MapRenderer) PNG(ref state.MapRef) ([]byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	key := refKey(ref)
	if png, ok, err := r.Cache.Get(key); ok {
		return png, err
	}
	png, err := r.render(ref)
	if err != nil {
		err = fmt.Errorf("map of %s %s: %w", ref.Game, ref.Phase, err)
	}
	r.Cache.Put(key, png, err)
	return png, err
}

// refKey is the cache key of ref: equal for refs that name the same
// processed phase (SameRef).
func refKey(ref state.MapRef) string {
	return fmt.Sprintf("%s/%d/%s/%s/%s/%v/%s", strings.ToLower(ref.Game), ref.Turn, ref.Phase,
		ref.Processed.UTC().Format(time.RFC3339Nano), ref.Digest, ref.After, ref.Viewer)
}

// SameRef reports whether a and b name the same processed phase.
func SameRef(a, b state.MapRef) bool {
	return strings.EqualFold(a.Game, b.Game) && a.Turn == b.Turn && a.Phase == b.Phase &&
		a.Processed.Equal(b.Processed) && a.Digest == b.Digest && a.After == b.After && a.Viewer == b.Viewer
}

// render draws ref's phase.
func (r *MapRenderer) render(ref state.MapRef) ([]byte, error) {
	if ref.Preview != nil {
		return r.renderPreview(ref)
	}
	var (
		rec *state.PhaseRecord
		g   *state.Game
	)
	err := r.db.View(func(tx *state.Tx) error {
		var err error
		if rec, err = tx.Phase(ref.Game, ref.Turn); err != nil {
			return err
		}
		g, err = tx.Game(ref.Game)
		return err
	})
	switch {
	case errors.Is(err, state.ErrNotFound):
		return nil, ErrMapGone
	case err != nil:
		return nil, err
	case rec.Phase != ref.Phase || !rec.Processed.Equal(ref.Processed),
		ref.Digest != "" && rec.Digest() != ref.Digest:
		// The turn was rolled back and played again: another phase,
		// or the same one with other orders, perhaps at the same instant.
		return nil, ErrMapGone
	}
	pos, res, err := Replay(g, rec)
	if err != nil {
		return nil, err
	}
	if ref.After {
		// The board the phase left: the next phase's position, without
		// orders.
		pos, res = res.Next, nil
	}
	pos, res = fogDrawing(ref, pos, res)
	r.draws++
	var b bytes.Buffer
	if err := r.draw(&limitWriter{w: &b, n: r.maxBytes}, pos, res); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Replay adjudicates again the phase of game g that rec records, with
// the rules it was played by: the judge is deterministic, so the outcomes
// are those that were mailed. The mails' pictures and the web pages draw
// past phases from it.
func Replay(g *state.Game, rec *state.PhaseRecord) (*judge.Position, *judge.Resolution, error) {
	pos, rules, err := jsonpos.DecodePosition(rec.Position)
	if err != nil {
		return nil, nil, fmt.Errorf("recorded position: %w; %w", err, state.ErrDamaged)
	}
	rules.Builds = buildRuleOf(g) // fixed since the game started
	var orders []judge.Order
	for k, p := range pos.Map.Powers {
		orders = append(orders, StoredOrders(pos, judge.Power(k), rec.Orders[p.Name])...)
	}
	return pos, judge.Adjudicate(pos, orders, rules), nil
}

// ErrMapTooBig stops a drawing past a MapRenderer's maxBytes.
var ErrMapTooBig = errors.New("the picture is larger than this judge mails")

// limitWriter fails a write that would take w past n bytes.
type limitWriter struct {
	w io.Writer
	n int
}

func (l *limitWriter) Write(p []byte) (int, error) {
	if len(p) > l.n {
		return 0, ErrMapTooBig
	}
	l.n -= len(p)
	return l.w.Write(p)
}

// MapRef returns the reference to the picture of the phase that record
// rec of game g holds (with After, to the board it left).
func MapRef(g *state.Game, rec *state.PhaseRecord) state.MapRef {
	return state.MapRef{Game: g.Name, Turn: rec.Turn, Phase: rec.Phase, Processed: rec.Processed, Digest: rec.Digest()}
}

// WantsMap reports whether the mails of game g to addr carry the
// picture of the board: unless the master turned maps off for the game
// (SET MAP OFF) or the address did for itself (SET NOMAP).
func WantsMap(g *state.Game, addr string) bool {
	return !g.Settings.NoMap && !slices.ContainsFunc(g.NoMap, func(a string) bool { return SameAddr(a, addr) })
}

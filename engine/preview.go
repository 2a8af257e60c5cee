package engine

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"

	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/state"
)

// PreviewRef returns the reference to the picture of a player's PREVIEW
// of g's current phase with orders (canonical lines by power): the
// outbox keeps the orders, not the picture, and the renderer draws it
// when the reply is sent, as long as the game is still at the position
// previewed.
func PreviewRef(g *state.Game, phase string, orders map[string][]string) state.MapRef {
	if orders == nil {
		orders = map[string][]string{}
	}
	return state.MapRef{Game: g.Name, Turn: g.Turn, Phase: phase, Digest: previewDigest(g.Position, orders), Preview: orders}
}

// previewDigest identifies a preview: the position and the orders.
func previewDigest(position json.RawMessage, orders map[string][]string) string {
	b, err := json.Marshal(struct {
		Position json.RawMessage     `json:"position"`
		Orders   map[string][]string `json:"orders"`
	}{position, orders})
	if err != nil {
		b = append([]byte(position), 0)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// renderPreview draws a PREVIEW's picture: the game's current position,
// if it is still the one previewed, adjudicated with the preview's orders.
func (r *MapRenderer) renderPreview(ref state.MapRef) ([]byte, error) {
	var g *state.Game
	err := r.db.View(func(tx *state.Tx) error {
		var err error
		g, err = tx.Game(ref.Game)
		return err
	})
	switch {
	case errors.Is(err, state.ErrNotFound):
		return nil, ErrMapGone
	case err != nil:
		return nil, err
	case g.Turn != ref.Turn || previewDigest(g.Position, ref.Preview) != ref.Digest:
		return nil, ErrMapGone // processed or rolled back since
	}
	pos, rules, err := jsonpos.DecodePosition(g.Position)
	if err != nil {
		return nil, err
	}
	rules.Builds = buildRuleOf(g)
	if ref.Viewer != "" {
		// A preview under fog is played on the board its power sees.
		pos, _ = fogDrawing(ref, pos, nil)
	}
	res := judge.Adjudicate(pos, PreviewOrders(pos, ref.Preview), rules)
	pos, res = fogDrawing(ref, pos, res)
	r.draws++
	var b bytes.Buffer
	if err := r.draw(&limitWriter{w: &b, n: r.maxBytes}, pos, res); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// PreviewOrders reads a preview's orders, canonical lines by power name,
// in the map's order of powers, as PendingOrders reads the pending ones.
func PreviewOrders(pos *judge.Position, orders map[string][]string) []judge.Order {
	var out []judge.Order
	for k, info := range pos.Map.Powers {
		out = append(out, StoredOrders(pos, judge.Power(k), orders[info.Name])...)
	}
	return out
}

// Package export writes a whole game as one JSON document in gmd's own
// versioned format (docs/export.md) and reads it back, re-adjudicating
// every phase. Load reads a game's export in the caller's transaction;
// the rest is pure, and the caller writes the database.
//
// An export holds only what the game's observers can see: no addresses,
// no passwords or their hashes, no private press, and no player's
// identity at all (so a gunboat game stays anonymous whether or not the
// master revealed it). The master's export (Options.Master) adds the
// orders entered so far for the phase being played and the registered
// players' public names (a gunboat game's only once revealed); it has
// no address, password or private press either.
package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

// Format and Version name the document's schema; a reader refuses any
// other. Version changes only when a field changes meaning or goes away.
const (
	Format  = "gmd-game"
	Version = 1
)

// Game is the whole-game document.
type Game struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	Name    string `json:"name"`
	Variant string `json:"variant"`
	Rules   string `json:"rules"`
	Status  string `json:"status"`
	// Result is how the game ended, as stored ("victory France",
	// "draw England France", "terminated"); "" while it runs.
	Result string `json:"result,omitempty"`
	// Settings are the stored values; SettingsWords the same in words,
	// as LIST and the web page give them.
	Settings      state.GameSettings `json:"settings"`
	SettingsWords []Setting          `json:"settings_words,omitempty"`
	// Seats are the powers and how their seats ended; who played them
	// is not exported.
	Seats  []Seat  `json:"seats"`
	Phases []Phase `json:"phases"`
	// Final is the position after the last phase.
	Final json.RawMessage `json:"final"`
	// Press is the press every observer could read: the broadcasts.
	Press []Press `json:"press,omitempty"`
	// View is "master" in the master's export (Options.Master), absent
	// in the observers'.
	View string `json:"view,omitempty"`
	// Pending are the orders entered so far for the phase being played,
	// canonical lines per power: in the master's export of a running
	// game only.
	Pending map[string][]string `json:"pending,omitempty"`
}

// Setting is one setting in words.
type Setting struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Seat is one power's seat.
type Seat struct {
	Power  string `json:"power"`
	Status string `json:"status"`
	// Player is the public name of the seat's registered player: in the
	// master's export only, and in a gunboat game only once the master
	// revealed who played it. Never an address.
	Player string `json:"player,omitempty"`
}

// Phase is one processed phase: the position before it, the orders it
// was adjudicated with, and its results.
type Phase struct {
	Phase     string          `json:"phase"`
	Turn      int             `json:"turn"`
	Processed time.Time       `json:"processed"`
	Position  json.RawMessage `json:"position"`
	// Orders are canonical lines per power; Written how each was
	// written (Written[p][i] for Orders[p][i], "" when not kept).
	Orders  map[string][]string `json:"orders"`
	Written map[string][]string `json:"written,omitempty"`
	Results string              `json:"results"`
}

// Press is one broadcast as its readers saw it: From is the sender
// they read ("" for grey press, the claimed sender for fake press).
type Press struct {
	Phase string    `json:"phase"`
	From  string    `json:"from"`
	Grey  bool      `json:"grey,omitempty"`
	Text  string    `json:"text"`
	Sent  time.Time `json:"sent"`
}

// Options choose whose export Build writes: the zero value is the
// observers' (docs/export.md), Master the master's.
type Options struct {
	// Master asks for the master's export: the orders entered so far for
	// the phase being played (Game.Pending), the names in Players, and
	// View "master". Press sent to some powers only stays out all the
	// same: its players never agreed to show it to anyone else.
	Master bool
	// Players are the public names of the seats' registered players, by
	// power (the caller reads the registry). Build keeps them only in
	// the master's export, and in a gunboat game only once revealed.
	Players map[string]string
}

// Build makes the observers' document of g from its phase records (in
// turn order), its press (every message, private ones included: Build
// drops them) and its settings in words (engine.SettingsOf(g), which the
// caller has).
func Build(g *state.Game, phases []*state.PhaseRecord, press []*state.Press, words view.Settings) (*Game, error) {
	return BuildWith(g, phases, press, words, Options{})
}

// BuildWith is Build for the export opt chooses.
func BuildWith(g *state.Game, phases []*state.PhaseRecord, press []*state.Press, words view.Settings, opt Options) (*Game, error) {
	named := opt.Master && (!g.Settings.Gunboat || g.Revealed)
	doc := &Game{
		Format: Format, Version: Version,
		Name: g.Name, Variant: g.Variant, Rules: g.Rules, Status: string(g.Status), Result: g.Result,
		Settings: g.Settings,
		Seats:    []Seat{},
		Phases:   make([]Phase, 0, len(phases)),
		Final:    compact(g.Position),
	}
	for _, s := range words.Items() {
		doc.SettingsWords = append(doc.SettingsWords, Setting{Name: s.Name, Value: s.Value})
	}
	for _, p := range g.Players {
		if p.Power == "" || p.Former {
			continue
		}
		seat := Seat{Power: p.Power, Status: string(p.Status)}
		if named {
			seat.Player = opt.Players[p.Power]
		}
		doc.Seats = append(doc.Seats, seat)
	}
	if opt.Master {
		doc.View = "master"
		if g.Status != state.Finished && len(g.Orders) > 0 {
			doc.Pending = maps.Clone(g.Orders)
		}
	}
	for i, r := range phases {
		if r.Turn != i+1 {
			return nil, fmt.Errorf("game %s: phase record %d has turn %d", g.Name, i+1, r.Turn)
		}
		doc.Phases = append(doc.Phases, Phase{
			Phase: r.Phase, Turn: r.Turn, Processed: r.Processed.UTC(),
			Position: compact(r.Position), Orders: r.Orders, Written: r.Written, Results: r.Results,
		})
	}
	for _, p := range press {
		if len(p.To) > 0 {
			continue // partial press: private to its readers
		}
		from := p.From
		switch {
		case p.Grey:
			from = ""
		case p.Claimed != "":
			from = p.Claimed
		}
		doc.Press = append(doc.Press, Press{Phase: p.Phase, From: from, Grey: p.Grey, Text: p.Text, Sent: p.Sent.UTC()})
	}
	return doc, nil
}

// Marshal writes doc as indented JSON, the form `gmd export` writes,
// with "->" and "<" left as they are: the results read as mailed.
func Marshal(doc *Game) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Unmarshal reads a document, refusing another format or version.
func Unmarshal(data []byte) (*Game, error) {
	var doc Game
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("not a gmd game export: %w", err)
	}
	if doc.Format != Format {
		return nil, fmt.Errorf("not a gmd game export: format is %q, want %q", doc.Format, Format)
	}
	if doc.Version != Version {
		return nil, fmt.Errorf("gmd game export version %d: this gmd reads version %d", doc.Version, Version)
	}
	for i := range doc.Phases {
		doc.Phases[i].Position = compact(doc.Phases[i].Position)
	}
	doc.Final = compact(doc.Final)
	return &doc, nil
}

// compact returns raw JSON without insignificant space, as stored, so a
// position reads the same whether it came from the database or from an
// indented document.
func compact(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return slices.Clone(raw) // Check reports it when it decodes the position
	}
	return b.Bytes()
}

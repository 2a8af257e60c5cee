package view

import (
	"testing"

	"github.com/gmdjudge/gmd/state"
)

// linkGame is a fogged game of three seats, a master and two observers,
// one approved.
func linkGame() *state.Game {
	return &state.Game{
		Name: "fg", Status: state.Active, Settings: state.GameSettings{Fog: true},
		ConfirmKey: []byte("0123456789abcdef0123456789abcdef"),
		MasterAddr: "gm@example.org", MasterHash: []byte("m-hash"),
		Players: []state.Player{
			{Addr: "f@example.org", Power: "France", PassHash: []byte("f-hash"), Status: state.Playing},
			{Addr: "g@example.org", Power: "Germany", PassHash: []byte("g-hash"), Status: state.Playing},
			{Addr: "e@example.org", Power: "England", PassHash: []byte("e-hash"), Status: state.Abandoned},
		},
		Observers: []state.Observer{
			{Addr: "seen@example.org", PassHash: []byte("o-hash"), Approved: true},
			{Addr: "waits@example.org", PassHash: []byte("w-hash")},
		},
	}
}

// TestLinkOfEverySeat: each holder's token shows its own view, every
// token is different, and a seat nobody holds, an observer waiting for
// approval and a game without a secret have none.
func TestLinkOfEverySeat(t *testing.T) {
	g := linkGame()
	want := map[string]LinkViewer{
		PowerLink(g, "France"):              {Power: "France"},
		PowerLink(g, "Germany"):             {Power: "Germany"},
		MasterLink(g):                       {All: true},
		ObserverLink(g, "Seen@example.org"): {All: true},
	}
	if len(want) != 4 {
		t.Fatalf("the tokens are not all different: %v", want)
	}
	for tok, v := range want {
		if tok == "" {
			t.Fatalf("a holder has no token: %v", want)
		}
		got, ok := LinkOf(g, tok)
		if !ok || got != v {
			t.Errorf("token %s shows %+v, %v; want %+v", tok, got, ok, v)
		}
	}
	for name, tok := range map[string]string{
		"an abandoned seat":     PowerLink(g, "England"),
		"a power not played":    PowerLink(g, "Italy"),
		"a waiting observer":    ObserverLink(g, "waits@example.org"),
		"a stranger (observer)": ObserverLink(g, "nobody@example.org"),
	} {
		if tok != "" {
			t.Errorf("%s has the token %s", name, tok)
		}
	}
	if _, ok := LinkOf(g, "AAAAAAAAAAAAAAAAAAAAAA"); ok {
		t.Error("a made-up token shows the game")
	}
	g.ConfirmKey = nil
	if PowerLink(g, "France") != "" || MasterLink(g) != "" {
		t.Error("a game without a secret has tokens")
	}
}

// TestLinkStale: a takeover (a new address and password), a new
// password, an ejected observer and another game of the same seats each
// make the old token show nothing.
func TestLinkStale(t *testing.T) {
	for name, change := range map[string]func(g *state.Game){
		"takeover": func(g *state.Game) {
			g.Players[0].Addr, g.Players[0].PassHash = "new@example.org", []byte("new-hash")
		},
		"password":  func(g *state.Game) { g.Players[0].PassHash = []byte("f-hash-2") },
		"abandoned": func(g *state.Game) { g.Players[0].Status = state.Abandoned },
		"renamed":   func(g *state.Game) { g.Name = "fh" },
	} {
		g := linkGame()
		old := PowerLink(g, "France")
		change(g)
		if _, ok := LinkOf(g, old); ok {
			t.Errorf("%s: the old token of France still shows the game", name)
		}
	}
	g := linkGame()
	old := ObserverLink(g, "seen@example.org")
	g.Observers = g.Observers[1:] // EJECT
	if _, ok := LinkOf(g, old); ok {
		t.Error("an ejected observer's token still shows the game")
	}
}

// BenchmarkLinkOf is the cost of looking up a token in a game of 34
// seats (Chaos), the worst: the last seat's.
func BenchmarkLinkOf(b *testing.B) {
	g := linkGame()
	g.Players = nil
	for i := range 34 {
		g.Players = append(g.Players, state.Player{Addr: "p" + string(rune('a'+i%26)) + "@example.org", Power: "P" + string(rune('A'+i%26)) + string(rune('a'+i/26)), PassHash: []byte("h"), Status: state.Playing})
	}
	tok := PowerLink(g, g.Players[33].Power)
	for b.Loop() {
		if _, ok := LinkOf(g, tok); !ok {
			b.Fatal("not found")
		}
	}
}

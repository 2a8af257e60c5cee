package players

import (
	"math"
	"strings"
	"testing"
	"unicode"

	"github.com/gmdjudge/gmd/state"
)

func TestCheckName(t *testing.T) {
	for _, name := range []string{"Ann", "Jean-Luc O'Neil", "Zoë", "李小龍", "R2", "Mr. X", "a_b", "Ωmega"} {
		if err := CheckName(name); err != nil {
			t.Errorf("CheckName(%q) = %v, want nil", name, err)
		}
	}
	for name, want := range map[string]string{
		"A":                     "2 to 30",
		strings.Repeat("a", 31): "2 to 30",
		" Ann":                  "either end",
		"Ann ":                  "either end",
		"An  n":                 "two running",
		"1234":                  "a letter",
		"Ann\x00":               "control",
		"Ann\n":                 "either end",
		"A\u202enn":             "invisible",
		"A\u200bnn":             "invisible",
		"Ann\u00a0B":            "space other",
		"Ann<b>":                "symbol",
		"Ann@x":                 "symbol",
		"\xffAnn":               "UTF-8",
		"--":                    "a letter",
	} {
		if err := CheckName(name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckName(%q) = %v, want an error saying %q", name, err, want)
		}
	}
}

// Names a reader could take for one fold to one; names that differ do
// not.
func TestFoldConfusables(t *testing.T) {
	same := [][]string{
		{"Bob", "BOB", "B0b", "Воb", "ВОВ", "Ｂｏｂ", "B.o.b", "b o b"},
		{"Zoe", "Zoë", "Zoe\u0308", "ZOÉ", "Z0e"},
		{"Will", "VVill", "Wi11", "WiII", "W|ll", "Wіll"},
		{"Emma", "Ernma", "Ernrna"},
		{"Alpha", "Аlphа", "αlpha"},
		{"Jose", "José", "Jośe", "J0SE", "Jo5e"},
		{"Stefan", "Ştefan", "Stefаn"},
		{"ffi", "ﬃ"},
	}
	for _, group := range same {
		for _, n := range group[1:] {
			if Fold(n) != Fold(group[0]) {
				t.Errorf("Fold(%q) = %q, Fold(%q) = %q: they should be one", n, Fold(n), group[0], Fold(group[0]))
			}
		}
	}
	differ := []string{"Bob", "Rob", "Bobby", "Ann", "Anne", "Tom", "Tim", "Emma", "Emily", "Zoe", "Zed", "Jose", "Josh"}
	seen := map[string]string{}
	for _, n := range differ {
		f := Fold(n)
		if o, ok := seen[f]; ok {
			t.Errorf("%q and %q fold alike (%q)", n, o, f)
		}
		seen[f] = n
	}
}

// No accepted name holds a character that could hide or reorder text,
// and every accepted name folds to something.
func FuzzCheckName(f *testing.F) {
	for _, s := range []string{"Ann", "Zoë", "A\u202enn", "Ｂｏｂ", "x\u0301y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if CheckName(name) != nil {
			return
		}
		for _, r := range name {
			if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || (unicode.IsSpace(r) && r != ' ') {
				t.Fatalf("CheckName accepted %q, holding %U", name, r)
			}
		}
		if Fold(name) == "" {
			t.Fatalf("CheckName accepted %q, which folds to nothing", name)
		}
	})
}

func TestCompute(t *testing.T) {
	f := Compute(state.Tally{})
	if f.Dedication != 0 || f.OnTimeRatio != 1 || f.ResignRatio != 0 {
		t.Errorf("a new player's figures %+v, want dedication 0, on time 1, resign 0", f)
	}
	// One late phase and one resignation in a first game do not shut a
	// new player out of gates a regular would pass.
	f = Compute(state.Tally{Games: 1, OnTime: 0, Late: 1, Resigned: 1})
	if f.OnTimeRatio != 0.8 || math.Abs(f.ResignRatio-1.0/3) > 1e-9 || f.Dedication != -51 {
		t.Errorf("one late phase and one resignation: %+v", f)
	}
	f = Compute(state.Tally{Games: 10, Finished: 8, OnTime: 200, Late: 10, Abandoned: 1, Disorder: 1, Resigned: 0, Ejected: 3})
	if want := 3*200 - 10 - 50 - 100; f.Dedication != want {
		t.Errorf("dedication %d, want %d (ejections cost nothing)", f.Dedication, want)
	}
	if want := 204.0 / 214; f.OnTimeRatio != want {
		t.Errorf("on-time ratio %v, want %v", f.OnTimeRatio, want)
	}
	if want := 1.0 / 12; f.ResignRatio != want {
		t.Errorf("resignation ratio %v, want %v", f.ResignRatio, want)
	}
	// Replay sums the logs of every address of a registration.
	a := []*state.SeatEvent{{Kind: state.SeatJoined}, {Kind: state.SeatOnTime}, {Kind: state.SeatLate}}
	b := []*state.SeatEvent{{Kind: state.SeatTakeover}, {Kind: state.SeatDisorder}}
	if got := Replay(a, b); got.Games != 2 || got.Dedication != 3-1-100 {
		t.Errorf("Replay of two logs = %+v", got)
	}
}

// Every gate refuses a player below it, names itself and the player's
// own figure, and lets through a player who meets it.
func TestAdmitEveryGate(t *testing.T) {
	weak := Compute(state.Tally{Games: 4, Finished: 1, OnTime: 10, Late: 10, Resigned: 2})
	strong := Compute(state.Tally{Games: 10, Finished: 9, OnTime: 300, Late: 2})
	cases := []struct {
		entry      state.Entry
		gate, have string
	}{
		{state.Entry{Registered: true}, "REGISTERED", "not registered"},
		{state.Entry{HasDedication: true, Dedication: 0}, "DEDICATION", "-80"},
		{state.Entry{OnTime: 0.9}, "ONTIMERAT", "0.58"},
		{state.Entry{HasResign: true, Resign: 0.1}, "RESRAT", "0.33"},
		{state.Entry{MinGames: 5}, "MIN GAMES", "1"},
	}
	for _, c := range cases {
		r := Admit(c.entry, false, weak)
		if r == nil || r.Gate != c.gate || !strings.Contains(r.Have, c.have) {
			t.Errorf("Admit(%+v) = %+v, want gate %s with the player's %q", c.entry, r, c.gate, c.have)
			continue
		}
		if msg := r.Error(); !strings.Contains(msg, c.gate) || !strings.Contains(msg, c.have) {
			t.Errorf("refusal %q names neither the gate nor the figure", msg)
		}
		if r := Admit(c.entry, true, strong); r != nil {
			t.Errorf("Admit(%+v) refused a player who meets it: %v", c.entry, r)
		}
		if len(Gates(c.entry)) != 1 {
			t.Errorf("Gates(%+v) = %q, want one line", c.entry, Gates(c.entry))
		}
	}
	if r := Admit(state.Entry{}, false, weak); r != nil {
		t.Errorf("a game without gates refused: %v", r)
	}
	if g := Gates(state.Entry{}); len(g) != 0 {
		t.Errorf("Gates of an open game = %q", g)
	}
	// The private conditions are named, never the addresses invited.
	g := Gates(state.Entry{Invited: []string{"friend@example.org"}, JoinHash: []byte("h"), Approval: true})
	if strings.Join(g, "; ") != "by invitation or join password; the master approves each join" {
		t.Errorf("Gates of a closed game = %q", g)
	}
}

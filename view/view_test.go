package view

import (
	"testing"

	"github.com/gmdjudge/gmd/state"
)

// TestStatusWord checks the words of every seat status: the mails and the
// pages say them alike from here, and "cd" (the stored word) must never
// reach a reader.
func TestStatusWord(t *testing.T) {
	for st, want := range map[state.PlayerStatus]string{
		state.Playing:    "playing",
		state.Abandoned:  "abandoned",
		state.Disorder:   "in civil disorder",
		state.Eliminated: "eliminated",
	} {
		if got := StatusWord(st); got != want {
			t.Errorf("StatusWord(%q) = %q, want %q", st, got, want)
		}
	}
}

package players

import (
	"testing"

	"github.com/gmdjudge/gmd/state"
)

// BenchmarkFold folds a name of mixed scripts, as REGISTER and WHOIS
// do once a mail.
func BenchmarkFold(b *testing.B) {
	for b.Loop() {
		Fold("Jéan-Luc Рicard the 2nd")
	}
}

// BenchmarkReplay replays a seat log of a busy player: 50 games of 40
// phases.
func BenchmarkReplay(b *testing.B) {
	var evs []*state.SeatEvent
	for range 50 {
		evs = append(evs, &state.SeatEvent{Kind: state.SeatJoined})
		for range 40 {
			evs = append(evs, &state.SeatEvent{Kind: state.SeatOnTime})
		}
		evs = append(evs, &state.SeatEvent{Kind: state.SeatFinished})
	}
	b.ResetTimer()
	for b.Loop() {
		Replay(evs)
	}
}

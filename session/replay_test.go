package session

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

// gameOverMails returns the game-over mails among mails.
func gameOverMails(mails []*state.OutMail) []*state.OutMail {
	return slices.DeleteFunc(slices.Clone(mails), func(m *state.OutMail) bool { return !strings.HasSuffix(m.Subject, " Game Over") })
}

// endedStandard starts game dt, processes its first phase, and has the
// master terminate it; England's player turned the maps off (SET
// NOMAP). It returns the game-over mails.
func endedStandard(h *harness) []*state.OutMail {
	h.t.Helper()
	h.startStandard("dt")
	h.orders("dt", "E", "SET NOMAP")
	h.processNow("dt")
	return gameOverMails(h.mail(testMaster, "end", "SIGNON Mdt "+testMasterPass+"\nTERMINATE"))
}

// TestGameOverCarriesReplay: the game-over mail carries the game's
// replay to every address that takes maps, the text the same as the
// mail without it, which goes to the address that turned its maps off.
func TestGameOverCarriesReplay(t *testing.T) {
	h := newHarness(t)
	over := endedStandard(h)
	if len(over) != 2 {
		t.Fatalf("%d game-over mails, want one with the replay and one without", len(over))
	}
	g := h.game("dt")
	want := engine.ReplayRef(g)
	with, without := onlyTo(t, over, "france@example.org"), onlyTo(t, over, "england@example.org")
	if len(with.Maps) != 1 || !engine.SameRef(with.Maps[0], want) || !with.Maps[0].Replay || len(with.To) != 7 {
		t.Errorf("the game-over mail to %v carries %+v, want the six players with maps and the master, with the replay %+v", with.To, with.Maps, want)
	}
	if g.Status != state.Finished || want.Turn != 1 || !want.Processed.Equal(g.Deadline) || want.Name() != "dt.gif" {
		t.Errorf("game %s, replay %+v named %s: want the finished game's, turn 1, dt.gif", g.Status, want, want.Name())
	}
	if len(without.Maps) != 0 || len(without.To) != 1 {
		t.Errorf("England's game-over mail: to %v with %+v, want England alone without the replay", without.To, without.Maps)
	}
	if with.Body != without.Body || with.Subject != without.Subject {
		t.Errorf("the game-over mail with the replay differs from the mail without:\n%s\n---\n%s", with.Body, without.Body)
	}
}

// fakeReplay is a view.ReplayDrawer that remembers what it was asked for
// and returns parts, or err.
type fakeReplay struct {
	parts [][]byte
	err   error
	calls []string // "game turn phases maxBytes maxParts"
}

func (f *fakeReplay) draw(g *state.Game, recs []*state.PhaseRecord, maxBytes, maxParts int) ([][]byte, error) {
	f.calls = append(f.calls, fmt.Sprintf("%s %s %d %d %d %d", g.Name, g.Status, g.Turn, len(recs), maxBytes, maxParts))
	return f.parts, f.err
}

// TestReplayRenderer: the sender draws a game's replay once for all its
// mails, fitted to max-replay-size; names its parts dt-1.gif, dt-2.gif;
// sends a note in its place when it does not fit; and draws nothing for
// a game played on since the mail was queued.
func TestReplayRenderer(t *testing.T) {
	h := newHarness(t)
	over := endedStandard(h)
	ref := onlyTo(t, over, "france@example.org").Maps[0]

	f := &fakeReplay{parts: [][]byte{[]byte("GIF89a one"), []byte("GIF89a two")}}
	r := engine.NewMapRenderer(h.m.DB(), new(testDrawer).draw, 1<<10)
	r.SetReplay(f.draw, 300<<10)
	for range 8 {
		files, err := r.Replay(ref)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range files {
			got = append(got, f.Name+" "+f.ContentType+" "+string(f.Data))
		}
		if want := []string{"dt-1.gif image/gif GIF89a one", "dt-2.gif image/gif GIF89a two"}; !slices.Equal(got, want) {
			t.Fatalf("files %q, want %q", got, want)
		}
	}
	if want := fmt.Sprintf("dt finished 1 1 %d %d", 300<<10, config.MaxReplayParts); len(f.calls) != 1 || f.calls[0] != want {
		t.Errorf("drawer called %q for eight mails, want once, %q", f.calls, want)
	}

	// Too big: a note in its place, which says where to see it.
	big := &fakeReplay{err: fmt.Errorf("%w: 9 frames", view.ErrReplayTooBig)}
	r = engine.NewMapRenderer(h.m.DB(), new(testDrawer).draw, 1<<10)
	r.SetReplay(big.draw, 64<<10)
	files, err := r.Replay(ref)
	if err != nil || len(files) != 1 || files[0].Name != "dt-replay.txt" || files[0].ContentType != "text/plain" {
		t.Fatalf("a replay too big: %+v, %v; want the note dt-replay.txt", files, err)
	}
	mustContain(t, string(files[0].Data), "The replay of game 'dt', its 1 phase as an animated picture, is larger than this judge mails",
		fmt.Sprintf("%d files of 64 KB", config.MaxReplayParts), "gmd replay -game dt -o dt.gif")
	t.Logf("the note:\n%s", files[0].Data)

	// Any other failure is the mail's error, and is not tried again.
	broken := &fakeReplay{err: errors.New("no ink")}
	r = engine.NewMapRenderer(h.m.DB(), new(testDrawer).draw, 1<<10)
	r.SetReplay(broken.draw, 64<<10)
	for range 3 {
		if _, err := r.Replay(ref); err == nil || !strings.Contains(err.Error(), "no ink") {
			t.Fatalf("a failed drawing: %v", err)
		}
	}
	if len(broken.calls) != 1 {
		t.Errorf("a failed replay was tried %d times for three mails, want once", len(broken.calls))
	}

	// A game rolled back to play on is no longer the game that ended.
	stale := ref
	stale.Turn++
	if _, err := r.Replay(stale); !errors.Is(err, engine.ErrMapGone) {
		t.Errorf("the replay of a game no longer as it ended: %v, want ErrMapGone", err)
	}
	gone := ref
	gone.Game = "nosuch"
	if _, err := r.Replay(gone); !errors.Is(err, engine.ErrMapGone) {
		t.Errorf("the replay of a game that is gone: %v, want ErrMapGone", err)
	}
	// A renderer without a drawer fails, and the mail goes without.
	if _, err := engine.NewMapRenderer(h.m.DB(), new(testDrawer).draw, 1<<10).Replay(ref); err == nil {
		t.Error("a renderer without a replay drawer drew one")
	}
}

// TestHistoryReplay: HISTORY game REPLAY attaches a finished game's
// replay for the addresses that get its mail; a running game, an unknown
// one and a stranger get a clear answer and no replay.
func TestHistoryReplay(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.processNow("dt")

	// Running: refused, with what to send instead.
	r := replyTo(t, h.mail("france@example.org", "replay", "HISTORY dt REPLAY"), "france@example.org")
	mustContain(t, r.Body, "Error (line 1): 'dt' is not over: its replay comes with its game-over mail", "HISTORY dt <phase>")
	if len(r.Maps) != 0 {
		t.Errorf("the reply for a running game carries %+v", r.Maps)
	}
	t.Logf("running:\n%s", judgeWritten(r))

	r = replyTo(t, h.mail("france@example.org", "replay", "HISTORY nosuch REPLAY"), "france@example.org")
	mustContain(t, r.Body, "There is no game named 'nosuch'")
	if len(r.Maps) != 0 {
		t.Errorf("the reply for no game carries %+v", r.Maps)
	}

	h.mail(testMaster, "end", "SIGNON Mdt "+testMasterPass+"\nTERMINATE")
	g := h.game("dt")
	for _, who := range []string{"france@example.org", testMaster} {
		r = replyTo(t, h.mail(who, "replay", "history DT replay"), who)
		mustContain(t, r.Body, "The replay of 'dt', its 1 phase as an animated picture, is attached: dt.gif")
		if len(r.Maps) != 1 || !engine.SameRef(r.Maps[0], engine.ReplayRef(g)) {
			t.Errorf("%s's reply carries %+v, want the replay", who, r.Maps)
		}
	}
	t.Logf("finished:\n%s", judgeWritten(r))

	// After a sign-on the game may go unnamed.
	addr, signon := seatOf("F")
	r = replyTo(t, h.mail(addr, "replay", fmt.Sprintf(signon, "dt")+"\nHISTORY REPLAY"), addr)
	if len(r.Maps) != 1 || !r.Maps[0].Replay {
		t.Errorf("HISTORY REPLAY after a sign-on carries %+v, want the replay:\n%s", r.Maps, r.Body)
	}

	// A stranger's From line gets the answer, not megabytes.
	r = replyTo(t, h.mail("victim@example.net", "replay", "HISTORY dt REPLAY"), "victim@example.net")
	mustContain(t, r.Body, "No replay of 'dt': the replay, like the maps, goes only to the addresses that get the game's mail")
	if len(r.Maps) != 0 {
		t.Errorf("a stranger's reply carries %+v", r.Maps)
	}
	// Nor to whoever turned the maps off.
	h.orders("dt", "E", "SET NOMAP")
	r = replyTo(t, h.mail("england@example.org", "replay", "HISTORY dt REPLAY"), "england@example.org")
	mustContain(t, r.Body, "No replay of 'dt': its maps are off for you")
	if len(r.Maps) != 0 {
		t.Errorf("the reply to SET NOMAP carries %+v", r.Maps)
	}
	r = replyTo(t, h.mail("france@example.org", "replay", "HISTORY dt REPLAY please"), "france@example.org")
	mustContain(t, r.Body, "Use: HISTORY dt REPLAY, with nothing after it.")
}

// TestHistoryReplayCost: a mail of HISTORY REPLAY commands costs what
// the bounds allow: one replay a reply, and no more commands with output
// than max-output-commands.
func TestHistoryReplayCost(t *testing.T) {
	h := withDefaultLimits(newHarness(t))
	endedStandard(h)
	h.startStandard("two")
	h.processNow("two")
	h.mail(testMaster, "end", "SIGNON Mtwo "+testMasterPass+"\nTERMINATE")

	lines := []string{"HISTORY dt REPLAY", "HISTORY dt REPLAY", "HISTORY two REPLAY"}
	for range 5 {
		lines = append(lines, "HISTORY two REPLAY")
	}
	r := replyTo(t, h.mail("france@example.org", "replays", strings.Join(lines, "\n")), "france@example.org")
	if len(r.Maps) != 1 || r.Maps[0].Game != "dt" || !r.Maps[0].Replay {
		t.Errorf("the reply carries %+v, want dt's replay alone", r.Maps)
	}
	mustContain(t, r.Body, "The replay of 'dt' is attached once.",
		"No replay of 'two': a reply carries one replay; send HISTORY two REPLAY in a mail of its own.",
		fmt.Sprintf("Not run (lines 5, 6, 7, 8): this judge answers at most %d of", config.DefaultMaxOutputCommands))
	t.Logf("the reply:\n%s", judgeWritten(r))
}

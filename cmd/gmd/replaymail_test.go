package main

import (
	"bytes"
	"fmt"
	"image/gif"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/daemon"
	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/internal/cputime"
	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/mail"
	"github.com/gmdjudge/gmd/state"
)

// replayJudge opens a judge on a new database, drawing as gmd run does
// (mapPictures), with replays of at most maxReplay bytes a file.
func replayJudge(t testing.TB, maxReplay int) *daemon.Judge {
	t.Helper()
	cfg := config.Defaults()
	cfg.DB = filepath.Join(t.TempDir(), "gmd.db")
	cfg.MaxReplayBytes = maxReplay
	j, err := daemon.Open(cfg, state.Open, mapPictures(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.DB.Close() })
	return j
}

// endGame stores game name of variant, played by the random bot up to the
// end of its first year, or of lastYear if given (seed picks the moves), a seat for each power
// held by addr(power index), as a finished draw; it has the judge queue
// its game-over mail, and returns the mails queued and the number of
// phases played.
func endGame(t testing.TB, j *daemon.Judge, name, variant string, seed uint64, gunboat bool, addr func(int) string, lastYear ...int) ([]*state.OutMail, int) {
	t.Helper()
	m, err := variants.Load(variant)
	if err != nil {
		t.Fatal(err)
	}
	recs, rg := botHistory(t, m, append(lastYear, judge.StartPosition(m).Phase.Year)[0], seed)
	ended := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	g := &state.Game{Name: name, Variant: variant, Rules: "datc-3.0", Status: state.Active, MasterAddr: "master@example.org",
		Position: jsonpos.EncodePosition(rg.Final, judge.DATC30), Turn: len(recs), Created: ended.Add(-24 * time.Hour)}
	g.Settings.Gunboat = gunboat
	var survivors []string
	for i, p := range m.Powers {
		g.Players = append(g.Players, state.Player{Power: p.Name, Addr: addr(i), Status: state.Playing})
		survivors = append(survivors, p.Name)
	}
	var before uint64
	err = j.DB.Update(func(tx *state.Tx) error {
		for _, rec := range recs {
			if err := tx.PutPhase(name, rec); err != nil {
				return err
			}
		}
		if out, err := tx.Outbox(0); err == nil && len(out) > 0 {
			before = out[len(out)-1].ID
		}
		if err := j.Master.EndGame(tx, g, "draw "+strings.Join(survivors, " "), ended); err != nil {
			return err
		}
		if err := j.Master.SendGameOver(tx, g, rg.Final, ended); err != nil {
			return err
		}
		return tx.PutGame(g)
	})
	if err != nil {
		t.Fatal(err)
	}
	var mails []*state.OutMail
	err = j.DB.View(func(tx *state.Tx) error {
		out, err := tx.Outbox(0)
		for _, m := range out {
			if m.ID > before {
				mails = append(mails, m)
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return mails, len(recs)
}

// replayOfMail returns the GIFs the sender attaches to m, composed as
// mail.Compose sends them, read back as a mail client reads them.
func replayOfMail(t testing.TB, j *daemon.Judge, m *state.OutMail) []mail.Attachment {
	t.Helper()
	atts, err := j.Maps.Attach(m)
	if err != nil {
		t.Fatalf("%s: %v", m.Subject, err)
	}
	var raw bytes.Buffer
	if err := mail.Compose(&raw, m, "judge@example.org", time.Now(), atts...); err != nil {
		t.Fatalf("%s: the mail does not compose: %v", m.Subject, err)
	}
	return atts
}

// TestGameOverReplayEveryBoard: on every board (about one in six under the
// race detector: racetest), the game-over mail of a
// finished game carries its replay, a GIF that decodes, with a frame for
// the title, each phase played, the board after the last and the
// result, within judge.conf's max-replay-size; the mail's text is the
// same as without it.
func TestGameOverReplayEveryBoard(t *testing.T) {
	j := replayJudge(t, config.DefaultMaxReplayBytes)
	for i, variant := range racetest.Spread(variants.Names(), 6) {
		name := fmt.Sprintf("end%d", i)
		mails, phases := endGame(t, j, name, variant, uint64(i), false, func(k int) string { return fmt.Sprintf("p%d@example.org", k) })
		var over []*state.OutMail
		for _, m := range mails {
			if strings.Contains(m.Subject, "Game Over") || strings.Contains(m.Body, "game is over") || len(m.Maps) > 0 {
				over = append(over, m)
			}
		}
		if len(over) != 1 || len(over[0].Maps) != 1 || !over[0].Maps[0].Replay {
			t.Fatalf("%s: %d mails, %d game-over mails with a replay; want one", variant, len(mails), len(over))
		}
		atts := replayOfMail(t, j, over[0])
		if len(atts) != 1 || atts[0].Name != name+".gif" || atts[0].ContentType != "image/gif" {
			t.Fatalf("%s: attachments %v, want %s.gif", variant, names(atts), name)
		}
		if len(atts[0].Data) > config.DefaultMaxReplayBytes {
			t.Errorf("%s: the replay weighs %d bytes, more than %d", variant, len(atts[0].Data), config.DefaultMaxReplayBytes)
		}
		a, err := gif.DecodeAll(bytes.NewReader(atts[0].Data))
		if err != nil {
			t.Fatalf("%s: the replay does not decode: %v", variant, err)
		}
		if len(a.Image) != phases+3 {
			t.Errorf("%s: %d frames, want %d (title, %d phases, the board after, result)", variant, len(a.Image), phases+3, phases)
		}
	}
}

// names lists the file names of atts.
func names(atts []mail.Attachment) []string {
	var out []string
	for _, a := range atts {
		out = append(out, a.Name+" "+a.ContentType)
	}
	return out
}

// TestGameOverReplayFits: a replay larger than max-replay-size goes in
// parts, each within it, that together show every frame; one that does
// not fit even in parts is left out, and a short note says where to see
// it. Either way it is drawn once for all the game's mails (a gunboat
// game mails each player apart).
func TestGameOverReplayFits(t *testing.T) {
	racetest.Sequential(t) // one game drawn and mailed on one goroutine: the plain pass runs it
	for _, c := range []struct {
		limit int
		parts bool // else the note
	}{{64 << 10, true}, {16 << 10, false}} {
		j := replayJudge(t, c.limit)
		mails, phases := endGame(t, j, "fit", "standard", 3, true, func(k int) string { return fmt.Sprintf("p%d@example.org", k) })
		var over []*state.OutMail
		for _, m := range mails {
			if len(m.Maps) == 1 && m.Maps[0].Replay {
				over = append(over, m)
			}
		}
		if len(over) != 8 {
			t.Fatalf("%d game-over mails with the replay, want 8: a gunboat game's seven players and its master apart", len(over))
		}
		var first []mail.Attachment
		for _, m := range over {
			atts := replayOfMail(t, j, m)
			if first == nil {
				first = atts
			}
			if len(atts) != len(first) {
				t.Fatalf("mails carry %d and %d files of one replay", len(first), len(atts))
			}
		}
		if n := j.Maps.Renderer.ReplayDraws(); n != 1 {
			t.Errorf("the replay was drawn %d times for %d mails, want once", n, len(over))
		}
		if !c.parts {
			if len(first) != 1 || first[0].Name != "fit-replay.txt" || !strings.HasPrefix(first[0].ContentType, "text/plain") {
				t.Fatalf("limit %d: attachments %v, want the note fit-replay.txt", c.limit, names(first))
			}
			mustSay(t, string(first[0].Data), "The replay of game 'fit'", "larger than", "gmd replay -game fit -o fit.gif")
			t.Logf("the note:\n%s", first[0].Data)
			continue
		}
		if len(first) < 2 || len(first) > config.MaxReplayParts {
			t.Fatalf("limit %d: attachments %v, want 2 to %d parts", c.limit, names(first), config.MaxReplayParts)
		}
		frames := 0
		for k, att := range first {
			if want := fmt.Sprintf("fit-%d.gif", k+1); att.Name != want || att.ContentType != "image/gif" || len(att.Data) > c.limit {
				t.Errorf("part %d: %s %s of %d bytes, want %s image/gif of at most %d", k+1, att.Name, att.ContentType, len(att.Data), want, c.limit)
			}
			a, err := gif.DecodeAll(bytes.NewReader(att.Data))
			if err != nil {
				t.Fatalf("%s does not decode: %v", att.Name, err)
			}
			frames += len(a.Image)
		}
		if frames != phases+3 {
			t.Errorf("the parts have %d frames, want %d", frames, phases+3)
		}
	}
}

// mustSay fails unless text holds each of wants.
func mustSay(t *testing.T, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("%q not in:\n%s", w, text)
		}
	}
}

// TestReplayNamesNoPlayer: the replay of a gunboat game whose master did
// not reveal its players shows nothing of them: the same game played by
// other addresses has the same replay, byte for byte.
func TestReplayNamesNoPlayer(t *testing.T) {
	racetest.Sequential(t) // one game drawn and mailed on one goroutine: the plain pass runs it
	var gifs [][]byte
	for _, who := range []string{"alice", "bob"} {
		j := replayJudge(t, config.DefaultMaxReplayBytes)
		mails, _ := endGame(t, j, "secret", "standard", 5, true, func(k int) string { return fmt.Sprintf("%s.%d@example.org", who, k) })
		for _, m := range mails {
			if len(m.Maps) == 1 && m.Maps[0].Replay {
				atts := replayOfMail(t, j, m)
				if len(atts) != 1 || atts[0].ContentType != "image/gif" {
					t.Fatalf("attachments %v, want the replay", names(atts))
				}
				if bytes.Contains(bytes.ToLower(atts[0].Data), []byte(who)) {
					t.Errorf("the replay holds %q", who)
				}
				gifs = append(gifs, atts[0].Data)
				break
			}
		}
	}
	if len(gifs) != 2 || !bytes.Equal(gifs[0], gifs[1]) {
		t.Fatalf("the replays of one gunboat game played by other players differ (%d replays)", len(gifs))
	}
}

// BenchmarkGameOverReplay is the sender's work for the game-over mail of
// a 20-year standard game played by the random bot: reading the game,
// re-adjudicating its phases, drawing its replay and composing the mail,
// as for its first recipient (a new renderer each time: nothing cached),
// and as for the others (cached). It reports the replay's bytes and the
// CPU time. Run with -cpu 1.
func BenchmarkGameOverReplay(b *testing.B) {
	j := replayJudge(b, config.DefaultMaxReplayBytes)
	mails, _ := endGame(b, j, "long", "standard", 1, false, func(k int) string { return fmt.Sprintf("p%d@example.org", k) }, 1920)
	var over *state.OutMail
	for _, m := range mails {
		if len(m.Maps) == 1 && m.Maps[0].Replay {
			over = m
		}
	}
	if over == nil {
		b.Fatal("no game-over mail with the replay")
	}
	for _, cached := range []bool{false, true} {
		b.Run(map[bool]string{false: "first", true: "cached"}[cached], func(b *testing.B) {
			var atts []mail.Attachment
			start := cputime.Used()
			for b.Loop() {
				if !cached {
					j.Maps.Renderer = engine.NewMapRenderer(j.DB, mapPictures().Draw, 1)
					j.Maps.Renderer.SetReplay(mapPictures().Replay, config.DefaultMaxReplayBytes)
				}
				atts = replayOfMail(b, j, over)
			}
			if len(atts) != 1 {
				b.Fatalf("%d attachments, want the replay whole", len(atts))
			}
			b.ReportMetric(float64(len(atts[0].Data)), "bytes")
			b.ReportMetric(float64(cputime.Used()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
		})
	}
}

package integration

import (
	"bytes"
	"fmt"
	"image/gif"
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/state"
)

// TestGameOverReplayMail (issue 26): a game ends, and the game-over mail
// that the real Postfix delivers to a player's Dovecot mailbox carries
// the game's replay after its text, read by go-message as a mail client
// reads it: a GIF that decodes, with a frame for the title, the phase
// played, the board after it and the result, within max-replay-size.
// Its text is byte for byte the text of the same mail to a player who
// turned the maps off (SET NOMAP), which comes without the replay.
func TestGameOverReplayMail(t *testing.T) {
	j, game, withMap, without := processedNoMap(t, "over")
	end := newLetter(masterUser, "end", fmt.Sprintf("SIGNON M%s %s\nTERMINATE", game, masterPass))
	sendAll(t, end)

	isOver := func(m *received) bool {
		return strings.HasPrefix(m.Subject, "GMD:"+game+" - ") && strings.HasSuffix(m.Subject, " Game Over")
	}
	gameOver := func(user string) mailParts {
		msgs := waitFor(t, user, roundTrip, "the game-over mail", func(msgs []*received) bool {
			return slices.ContainsFunc(msgs, isOver)
		})
		var got []*received
		for _, m := range msgs {
			if isOver(m) {
				got = append(got, m)
			}
		}
		if len(got) != 1 {
			t.Fatalf("%s got %d game-over mails, want 1", user, len(got))
		}
		return partsOf(t, got[0].Raw)
	}
	mapped, plain := gameOver(withMap.User), gameOver(without.User)

	name := game + ".gif"
	if mapped.contentType != "multipart/mixed" || len(mapped.attachments) != 1 || mapped.types[name] != "image/gif" {
		t.Fatalf("%s's game-over mail: %s with attachments %v, want multipart/mixed with %s as image/gif", withMap.User, mapped.contentType, mapped.types, name)
	}
	data := mapped.attachments[name]
	if len(data) > 2<<20 {
		t.Errorf("the replay weighs %d bytes, more than max-replay-size's default 2M", len(data))
	}
	a, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the replay does not decode: %v", err)
	}
	if len(a.Image) != 1+3 || a.Config.Width != 1000 {
		t.Errorf("the replay has %d frames %d pixels wide, want 4 (title, S1901M, the board after, the result) 1000 wide", len(a.Image), a.Config.Width)
	}
	t.Logf("the replay: %d bytes, %d frames, %dx%d", len(data), len(a.Image), a.Config.Width, a.Config.Height)

	if plain.contentType != "text/plain" || len(plain.attachments) != 0 {
		t.Errorf("%s's game-over mail (SET NOMAP): %s with %d attachments, want the text alone", without.User, plain.contentType, len(plain.attachments))
	}
	if mapped.text != plain.text {
		t.Errorf("the text of the game-over mail with the replay differs from the mail without:\n%q\nwant\n%q", mapped.text, plain.text)
	}
	mustContain(t, mapped.text, "terminated")

	j.stop()
	j.view(func(tx *state.Tx) error {
		g, err := tx.Game(game)
		if err != nil {
			return err
		}
		if g.Status != state.Finished || g.Turn != 1 {
			t.Errorf("game %s is %s at turn %d, want finished after one phase", game, g.Status, g.Turn)
		}
		return nil
	})
}

package integration

import (
	"bytes"
	"fmt"
	"image/png"
	"io"
	"strings"
	"testing"

	gomail "github.com/emersion/go-message/mail"

	"github.com/gmdjudge/gmd/state"
)

// processedNoMap starts a judge with a game (named prefix and a token)
// in which the player of seats[0] turned the maps off (SET NOMAP), and
// has its master process S1901M by mail; it returns the judge, the
// game's name, and a seat with maps and the seat without.
func processedNoMap(t *testing.T, prefix string) (j *judge, game string, withMap, without seat) {
	t.Helper()
	j = newJudge(t)
	withMap, without = seats[1], seats[0]
	emptyMailboxes(t, masterUser, withMap.User, without.User)
	game = prefix + token(2)
	j.seedGame(game)
	j.process(newLetter(without.User, "no map", fmt.Sprintf("SIGNON %s%s %s\nSET NOMAP", without.Letter, game, without.Pass)))
	j.start()

	process := newLetter(masterUser, "process", fmt.Sprintf("SIGNON M%s %s\nPROCESS S1901M", game, masterPass))
	sendAll(t, process)
	mustContain(t, replyTo(t, process, roundTrip).Body, fmt.Sprintf("Phase S1901M of '%s' processed", game))
	return j, game, withMap, without
}

// mailParts is a received mail taken apart as a mail client does.
type mailParts struct {
	contentType string
	text        string // the first text part, decoded, CRLF as LF
	attachments map[string][]byte
	types       map[string]string // attachment name → Content-Type
}

func partsOf(t testing.TB, raw []byte) mailParts {
	t.Helper()
	mr, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	p := mailParts{attachments: map[string][]byte{}, types: map[string]string{}}
	p.contentType, _, _ = mr.Header.ContentType()
	first := true
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return p
		} else if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(part.Body)
		if err != nil {
			t.Fatal(err)
		}
		switch h := part.Header.(type) {
		case *gomail.InlineHeader:
			if !first {
				t.Errorf("a text part after the first part")
			}
			p.text = strings.ReplaceAll(string(b), "\r\n", "\n")
		case *gomail.AttachmentHeader:
			name, _ := h.Filename()
			p.attachments[name] = b
			p.types[name], _, _ = h.ContentType()
		}
		first = false
	}
}

// TestResultsMapMail: the results of a phase, delivered by the real
// Postfix and read from Dovecot, carry the PNGs of the phase and of the
// board it left after their text, and the text is byte for byte the text of the same results sent
// without the map (to a player who asked for none, SET NOMAP), with the
// results as the history stores them.
func TestResultsMapMail(t *testing.T) {
	j, game, withMap, without := processedNoMap(t, "maps")
	tag := "GMD:" + game + " - S1901M"

	results := func(user string) mailParts {
		msgs := waitFor(t, user, roundTrip, "the S1901M results", func(msgs []*received) bool {
			return len(withSubject(msgs, tag+" Results")) > 0
		})
		got := withSubject(msgs, tag+" Results")
		if len(got) != 1 {
			t.Fatalf("%s got %d results mails, want 1", user, len(got))
		}
		return partsOf(t, got[0].Raw)
	}
	mapped, plain := results(withMap.User), results(without.User)

	if mapped.contentType != "multipart/mixed" || len(mapped.attachments) != 2 {
		t.Fatalf("%s's results: %s with %d attachments, want multipart/mixed with the two maps", withMap.User, mapped.contentType, len(mapped.attachments))
	}
	// The phase with its orders, and the board it left.
	for _, name := range []string{"S1901M.png", "S1901M-after.png"} {
		img, ok := mapped.attachments[name]
		if !ok || mapped.types[name] != "image/png" {
			t.Fatalf("attachments %v, want %s as image/png", mapped.types, name)
		}
		if len(img) > 200<<10 {
			t.Errorf("%s is %d bytes, want at most 200 KB", name, len(img))
		}
		if cfg, err := png.DecodeConfig(bytes.NewReader(img)); err != nil || cfg.Width != 1000 {
			t.Errorf("%s: %+v, %v; want a PNG 1000 pixels wide", name, cfg, err)
		}
	}
	if plain.contentType != "text/plain" || len(plain.attachments) != 0 {
		t.Errorf("%s's results (SET NOMAP): %s with %d attachments, want the text alone", without.User, plain.contentType, len(plain.attachments))
	}
	if mapped.text != plain.text {
		t.Errorf("the text part of the results with the map differs from the results without:\n%q\nwant\n%q", mapped.text, plain.text)
	}

	j.stop()
	j.view(func(tx *state.Tx) error {
		recs, err := tx.Phases(game)
		if err != nil {
			return err
		}
		if len(recs) != 1 || !strings.Contains(mapped.text, recs[0].Results) {
			t.Errorf("the text part does not hold the stored results:\n%s", mapped.text)
		}
		return nil
	})
}

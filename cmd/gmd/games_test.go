package main

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/session"
	"github.com/gmdjudge/gmd/state"
)

// gamesDB makes a database with a forming game "ab" and a standard game
// "dt" started at 2026-01-02 15:04:05 UTC, in which France has given all
// its orders and Germany has resigned, one queued mail refused for good,
// and one mail held for the admin.
func gamesDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "gmd.db")
	db, err := state.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := session.New(db, engine.Config{Config: config.Config{PasswordCost: bcrypt.MinCost}})
	start := time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)
	n := 0
	send := func(from, body string) {
		t.Helper()
		n++
		if err := m.Handle(&session.Mail{From: from, Subject: "x", Body: body, MessageID: fmt.Sprintf("<%d@x>", n)}, start); err != nil {
			t.Fatal(err)
		}
	}
	// confirmed sends body twice, the second time with the confirmation
	// code that the reply to the first gave: CREATE and joins need it.
	confirmed := func(from, body string) {
		t.Helper()
		send(from, body)
		var code string
		if err := db.View(func(tx *state.Tx) error {
			mails, err := tx.Outbox(0)
			if err != nil || len(mails) == 0 {
				return err
			}
			if m := codeLine.FindStringSubmatch(mails[len(mails)-1].Body); m != nil {
				code = m[1]
			}
			return nil
		}); err != nil || code == "" {
			t.Fatalf("no confirmation code for %q (%v)", body, err)
		}
		send(from, "CONFIRM "+code+"\n"+body)
	}
	confirmed("master@example.org", "CREATE ?ab pw")
	confirmed("master@example.org", "CREATE ?dt pw")
	for _, p := range "AEFGIRT" {
		confirmed(fmt.Sprintf("%c@example.org", p), fmt.Sprintf("SIGNON ?dt pw %c", p))
	}
	send("F@example.org", "SIGNON Fdt pw\nA Par H\nA Mar H\nF Bre H")
	send("G@example.org", "SIGNON Gdt pw\nRESIGN")
	err = db.Update(func(tx *state.Tx) error {
		mails, err := tx.Outbox(0)
		if err != nil {
			return err
		}
		for _, o := range mails[1:] {
			if err := tx.DeleteOutMail(o.ID); err != nil {
				return err
			}
		}
		mails[0].Failed = "550 no such user"
		if err := tx.HoldMail(&state.HeldMail{From: "x@example.org", Subject: "x", Body: "SIGNON Fdt pw",
			Held: start, LastTry: start, Tries: 1, Error: "game dt: damaged"}); err != nil {
			return err
		}
		return tx.PutOutMail(mails[0])
	})
	if err != nil {
		t.Fatal(err)
	}
	return path
}

func TestGames(t *testing.T) {
	path := gamesDB(t)
	// Before the deadline nobody is late; after it, every power whose
	// player owes orders.
	code, out, errs := gmd(t, "", "games", "-db", path, "-now", "2026-01-03T00:00:00Z")
	want := "" +
		"GAME  VARIANT   PHASE   STATUS   DEADLINE (UTC)    PLAYERS  LATE  ABANDONED  CIVIL DISORDER\n" +
		"ab    Standard  S1901M  forming  -                 0/7      -     -          -\n" +
		"dt    Standard  S1901M  active   2026-01-05 15:04  6/7      -     Germany    -\n" +
		"\noutbox: 1 queued, 1 refused for good\nheld mails: 1\n"
	if code != 0 || out != want || errs != "" {
		t.Errorf("before the deadline: status %d, stderr %q, stdout:\n%s\nwant:\n%s", code, errs, out, want)
	}
	code, out, errs = gmd(t, "", "games", "-db", path, "-now", "2026-01-06T00:00:00Z")
	want = "" +
		"GAME  VARIANT   PHASE   STATUS   DEADLINE (UTC)    PLAYERS  LATE                                 ABANDONED  CIVIL DISORDER\n" +
		"ab    Standard  S1901M  forming  -                 0/7      -                                    -          -\n" +
		"dt    Standard  S1901M  active   2026-01-05 15:04  6/7      Austria,England,Italy,Russia,Turkey  Germany    -\n" +
		"\noutbox: 1 queued, 1 refused for good\nheld mails: 1\n"
	if code != 0 || out != want || errs != "" {
		t.Errorf("after the deadline: status %d, stderr %q, stdout:\n%s\nwant:\n%s", code, errs, out, want)
	}
}

// While a daemon holds the database, gmd games reads a copy taken
// through the control socket.
func TestGamesThroughDaemon(t *testing.T) {
	path := gamesDB(t)
	fakeDaemon(t, path, nil)
	code, out, errs := gmd(t, "", "games", "-db", path)
	if code != 0 || errs != "gmd games: reading a copy of "+path+" taken through the running daemon\n" || len(out) == 0 {
		t.Errorf("status %d, stdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}

func TestGamesUsage(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		code int
	}{
		{nil, 2},
		{[]string{"-db", filepath.Join(dir, "x.db"), "extra"}, 2},
		{[]string{"-db", filepath.Join(dir, "x.db"), "-now", "tomorrow"}, 2},
		{[]string{"-db", filepath.Join(dir, "none.db")}, 1},
	} {
		if code, _, errs := gmd(t, "", append([]string{"games"}, tt.args...)...); code != tt.code {
			t.Errorf("gmd games %q: status %d, want %d (stderr %q)", tt.args, code, tt.code, errs)
		}
	}
}

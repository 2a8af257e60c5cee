package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/gmdjudge/gmd/mail"
	"github.com/gmdjudge/gmd/report"
	"github.com/gmdjudge/gmd/state"
)

// sendTimeout bounds the sending of gmd process and gmd tick.
// The database stays locked meanwhile, and the next gmd process waits
// for it only a second before it asks the mail server to try later; what
// is not sent by then goes at the next run.
const sendTimeout = 30 * time.Second

// send hands the outbox to the smtp server of the config, once, for a
// judge run from a mail server's pipe and from cron, without gmd run.
// It reports on stderr and returns nothing: the mail that caused the
// replies was handled already, and a mail server told to try it again
// would bring it a second time. A mail the server defers stays queued
// for the next gmd process or gmd tick, with the backoff gmd run gives
// it; one it refuses for good stays in the outbox for the admin (gmd
// check).
func (j *judgeEnv) send(now time.Time, stderr io.Writer, cmd string) {
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	s := mail.NewSender(smtpConfig(j.cfg), j.db, log)
	s.Attach = j.maps.Attach
	// The judge's clock, so that the backoff of a deferred mail is
	// counted on the clock that -now sets for the rest of the run.
	s.Now = func() time.Time { return now }
	ctx, cancel := context.WithTimeout(context.Background(), sendTimeout)
	defer cancel()
	sent, err := s.Flush(ctx)
	var left int
	if verr := j.db.View(func(tx *state.Tx) error {
		out, err := tx.Outbox(0)
		left = len(out)
		return err
	}); verr != nil && err == nil {
		err = verr
	}
	fmt.Fprintf(stderr, "%s: %d %s sent, %d left in the outbox\n", cmd, sent, report.Plural(sent, "mail", "mails"), left)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", cmd, err)
	}
}

package ctl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/gmdjudge/gmd/state"
)

// HeldRetry is what became of one held mail run again.
type HeldRetry struct {
	ID      uint64 `json:"id"`
	Handled bool   `json:"handled"`         // it went through, and is held no more
	Error   string `json:"error,omitempty"` // why it did not
}

// serveHeld answers a held mail request: args are the words after
// "held" ("list" when there are none).
func serveHeld(w *bufio.Writer, db *state.DB, retry func(uint64) (error, error), args []string) {
	if len(args) == 0 {
		args = []string{"list"}
	}
	verb, rest := args[0], args[1:]
	ids, err := ParseMailIDs(rest)
	switch {
	case verb != "list" && verb != "retry" && verb != "drop":
		fmt.Fprintf(w, "error unknown held request %q\n", verb)
		return
	case verb == "list" && len(rest) > 0:
		fmt.Fprintf(w, "error held list takes no arguments\n")
		return
	case err != nil:
		fmt.Fprintf(w, "error %s\n", oneLine(err.Error()))
		return
	case verb != "list" && len(ids) == 0:
		fmt.Fprintf(w, "error held %s needs mail IDs\n", verb)
		return
	}
	switch verb {
	case "list":
		var mails []*state.HeldMail
		err := db.View(func(tx *state.Tx) (err error) {
			mails, err = tx.HeldMails()
			return err
		})
		if err != nil {
			fmt.Fprintf(w, "error held: %s\n", oneLine(err.Error()))
			return
		}
		for _, m := range mails {
			m.Body = "" // the listing does not show it, and it may be long
		}
		sendJSONLines(w, mails)
	case "retry":
		if retry == nil {
			fmt.Fprintf(w, "error this daemon cannot run held mails again\n")
			return
		}
		sendJSONLines(w, RetryEach(ids, retry))
	case "drop":
		n, err := db.DropHeldMails(ids)
		if err != nil {
			fmt.Fprintf(w, "error %s\n", oneLine(err.Error()))
			return
		}
		fmt.Fprintf(w, "ok %d mails\n", n)
	}
}

// sendJSONLines sends items as data, one JSON value a line, then the
// status line.
func sendJSONLines[T any](w *bufio.Writer, items []T) {
	cw := bufio.NewWriterSize(&chunkWriter{w: w}, chunkSize)
	enc := json.NewEncoder(cw)
	for _, it := range items {
		if err := enc.Encode(it); err != nil {
			fmt.Fprintf(w, "error %s\n", oneLine(err.Error()))
			return
		}
	}
	if err := cw.Flush(); err != nil {
		return // the client is gone
	}
	fmt.Fprintf(w, "ok %d mails\n", len(items))
}

// receiveJSONLines asks the daemon on socketPath req and reads its
// answer of JSON lines.
func receiveJSONLines[T any](socketPath, req, what string) ([]T, error) {
	c, err := request(socketPath, req)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	var buf bytes.Buffer
	if _, _, err := receive(bufio.NewReaderSize(c, chunkSize), &buf, what); err != nil {
		return nil, err
	}
	var out []T
	dec := json.NewDecoder(&buf)
	for dec.More() {
		var v T
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("ctl: %s: %w", what, err)
		}
		out = append(out, v)
	}
	return out, nil
}

// Held asks the daemon listening on socketPath for its held mails, in ID
// order, with their bodies left out. When no daemon listens the error
// wraps ErrNoServer.
func Held(socketPath string) ([]*state.HeldMail, error) {
	return receiveJSONLines[*state.HeldMail](socketPath, "held list", "the held mails")
}

// RetryHeld asks the daemon listening on socketPath to run the held
// mails ids again, each on its own, and says what became of each. When
// no daemon listens the error wraps ErrNoServer.
func RetryHeld(socketPath string, ids []uint64) ([]HeldRetry, error) {
	return receiveJSONLines[HeldRetry](socketPath, "held retry"+formatIDs(ids), "the retries")
}

// DropHeld asks the daemon listening on socketPath to drop the held
// mails ids (state.DB.DropHeldMails), and returns how many it dropped.
// An ID not held is an error, and then nothing changed. When no daemon
// listens the error wraps ErrNoServer.
func DropHeld(socketPath string, ids []uint64) (int, error) {
	return askCount(socketPath, "held drop"+formatIDs(ids))
}

// RetryEach runs retry on each of ids, on its own, and says what became
// of each: retry returns why the mail failed again (cause), or why it
// could not be tried at all (err). The daemon's socket and gmd held on
// the file both report retries this way.
func RetryEach(ids []uint64, retry func(id uint64) (cause, err error)) []HeldRetry {
	results := make([]HeldRetry, 0, len(ids))
	for _, id := range ids {
		r := HeldRetry{ID: id}
		cause, err := retry(id)
		switch {
		case err != nil:
			r.Error = err.Error()
		case cause != nil:
			r.Error = cause.Error()
		default:
			r.Handled = true
		}
		results = append(results, r)
	}
	return results
}

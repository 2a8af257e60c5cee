package ctl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/gmdjudge/gmd/state"
)

// serveOutbox answers an outbox request: args are the words after
// "outbox" ("list" when there are none).
func serveOutbox(w *bufio.Writer, db *state.DB, kick func(), args []string) {
	if len(args) == 0 {
		args = []string{"list"}
	}
	switch verb, rest := args[0], args[1:]; verb {
	case "list":
		if len(rest) > 0 {
			fmt.Fprintf(w, "error outbox list takes no arguments\n")
			return
		}
		var mails []*state.OutMail
		err := db.View(func(tx *state.Tx) error {
			var err error
			mails, err = tx.Outbox(0)
			return err
		})
		if err != nil {
			fmt.Fprintf(w, "error outbox: %s\n", oneLine(err.Error()))
			return
		}
		cw := bufio.NewWriterSize(&chunkWriter{w: w}, chunkSize)
		enc := json.NewEncoder(cw)
		for _, m := range mails {
			m.Body = "" // the listing does not show it, and it may be long
			if err := enc.Encode(m); err != nil {
				fmt.Fprintf(w, "error outbox: %s\n", oneLine(err.Error()))
				return
			}
		}
		if err := cw.Flush(); err != nil {
			return // the client is gone
		}
		fmt.Fprintf(w, "ok %d mails\n", len(mails))
	case "retry":
		all := len(rest) == 1 && rest[0] == "failed"
		if all {
			rest = nil
		}
		ids, err := ParseMailIDs(rest)
		if err == nil && len(ids) == 0 && !all {
			err = fmt.Errorf("outbox retry needs mail IDs, or failed")
		}
		if err != nil {
			fmt.Fprintf(w, "error %s\n", err)
			return
		}
		done, err := db.RetryOutMails(ids, all)
		if err != nil {
			fmt.Fprintf(w, "error %s\n", oneLine(err.Error()))
			return
		}
		if len(done) > 0 && kick != nil {
			kick()
		}
		fmt.Fprintf(w, "ok%s\n", formatIDs(done))
	case "drop":
		ids, err := ParseMailIDs(rest)
		if err == nil && len(ids) == 0 {
			err = fmt.Errorf("outbox drop needs mail IDs")
		}
		if err != nil {
			fmt.Fprintf(w, "error %s\n", err)
			return
		}
		n, err := db.DropOutMails(ids)
		if err != nil {
			fmt.Fprintf(w, "error %s\n", oneLine(err.Error()))
			return
		}
		fmt.Fprintf(w, "ok %d mails\n", n)
	default:
		fmt.Fprintf(w, "error unknown outbox request %q\n", verb)
	}
}

// parseIDs reads mail IDs: decimal numbers from 1 up.
func ParseMailIDs(words []string) ([]uint64, error) {
	ids := make([]uint64, 0, len(words))
	for _, w := range words {
		id, err := strconv.ParseUint(w, 10, 64)
		if err != nil || id == 0 {
			return nil, fmt.Errorf("%q is not a mail ID (a number, as gmd outbox list shows)", w)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// formatIDs writes IDs as the protocol sends them: each after a space.
func formatIDs(ids []uint64) string {
	var b strings.Builder
	for _, id := range ids {
		b.WriteByte(' ')
		b.WriteString(strconv.FormatUint(id, 10))
	}
	return b.String()
}

// Outbox asks the daemon listening on socketPath for the mails of its
// outbox, in ID order, with their bodies left out. When no daemon
// listens the error wraps ErrNoServer.
func Outbox(socketPath string) ([]*state.OutMail, error) {
	c, err := request(socketPath, "outbox list")
	if err != nil {
		return nil, err
	}
	defer c.Close()
	var buf bytes.Buffer
	if _, _, err := receive(bufio.NewReaderSize(c, chunkSize), &buf, "the outbox"); err != nil {
		return nil, err
	}
	var mails []*state.OutMail
	dec := json.NewDecoder(&buf)
	for dec.More() {
		m := new(state.OutMail)
		if err := dec.Decode(m); err != nil {
			return nil, fmt.Errorf("ctl: the daemon's outbox: %w", err)
		}
		mails = append(mails, m)
	}
	return mails, nil
}

// Retry asks the daemon listening on socketPath to put the mails ids back
// in its outbox's queue (state.DB.RetryOutMails), and with allFailed
// every mail failed for good, and to send them now. It returns the IDs
// queued again. An ID not in the outbox is an error, and then nothing
// changed. When no daemon listens the error wraps ErrNoServer.
func Retry(socketPath string, ids []uint64, allFailed bool) ([]uint64, error) {
	req := "outbox retry" + formatIDs(ids)
	if allFailed {
		if len(ids) > 0 {
			return nil, fmt.Errorf("ctl: mail IDs and all the failed mails at once")
		}
		req = "outbox retry failed"
	}
	status, err := ask(socketPath, req)
	if err != nil {
		return nil, err
	}
	done, err := ParseMailIDs(strings.Fields(status))
	if err != nil {
		return nil, fmt.Errorf("ctl: unexpected answer %q", "ok "+status)
	}
	return done, nil
}

// Drop asks the daemon listening on socketPath to remove the mails ids
// from its outbox (state.DB.DropOutMails), and returns how many it
// removed. An ID not in the outbox is an error, and then nothing
// changed. When no daemon listens the error wraps ErrNoServer.
func Drop(socketPath string, ids []uint64) (int, error) {
	return askCount(socketPath, "outbox drop"+formatIDs(ids))
}

// askCount sends a request whose answer is "ok N mails" and returns N.
func askCount(socketPath, request string) (int, error) {
	status, err := ask(socketPath, request)
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(strings.TrimSuffix(status, " mails"))
	if err != nil {
		return 0, fmt.Errorf("ctl: unexpected answer %q", "ok "+status)
	}
	return n, nil
}

// ask sends a request whose answer is a status line alone, and returns
// the status.
func ask(socketPath, req string) (string, error) {
	c, err := request(socketPath, req)
	if err != nil {
		return "", err
	}
	defer c.Close()
	var none bytes.Buffer
	_, status, err := receive(bufio.NewReader(c), &none, "the answer")
	if err == nil && none.Len() > 0 {
		err = fmt.Errorf("ctl: unexpected data in the answer to %q", req)
	}
	return status, err
}

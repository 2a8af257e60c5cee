// Package ctl is the control socket of the gmd daemon: a Unix socket
// beside the database through which other gmd commands reach a running
// daemon. bbolt lets one process at a time open the database, so while
// the daemon runs, `gmd backup`, `gmd check` and `gmd outbox` must ask it.
//
// The protocol is one request line, answered by raw data in chunks and a
// final status line:
//
//	-> backup
//	<- data 65536
//	<- (65536 bytes)
//	<- ...
//	<- ok 1048576 bytes
//
// or, at any point, "error <message>". The outbox requests (see Outbox,
// Retry and Drop) and the held mail requests (Held, RetryHeld, DropHeld)
// work the same way:
//
//	-> outbox list
//	<- data 412
//	<- (one JSON state.OutMail a line, bodies left out)
//	<- ok 2 mails
//	-> outbox retry 3 5           (or "outbox retry failed")
//	<- ok 3 5
//	-> outbox drop 4
//	<- ok 1 mails
//	-> held list
//	<- data 230
//	<- (one JSON state.HeldMail a line, bodies left out)
//	<- ok 1 mails
//	-> held retry 1 2
//	<- data 80
//	<- (one JSON HeldRetry a line)
//	<- ok 2 mails
//	-> held drop 2
//	<- ok 1 mails
//
// The data travels over the socket,
// rather than the daemon writing a file the client names, so that the
// copy belongs to whoever asked for it and lands where they can write,
// and so that the daemon never writes to paths chosen by someone else.
package ctl

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gmdjudge/gmd/state"
)

// ErrNoServer is returned (wrapped) by the client functions when no
// daemon listens on the socket.
var ErrNoServer = errors.New("no gmd daemon is listening")

// SocketPath returns the control socket of the database at dbPath.
func SocketPath(dbPath string) string { return dbPath + ".sock" }

// requestTimeout bounds the wait for a client's request line, so that an
// idle connection does not hold a goroutine forever.
const requestTimeout = 10 * time.Second

// chunkSize is the size of the data chunks sent.
const chunkSize = 64 << 10

// Serve listens on socketPath and answers requests about db until ctx is
// done; then it stops listening, cuts the connections still open, waits
// for their goroutines and returns nil. A socket file left by a daemon
// that died is replaced; one on which a daemon answers is an error.
// kick, if not nil, is called once mails were put back in the outbox's
// queue, so that the daemon's sender sends them now.
//
// The socket is made readable and writable by its owner only: a backup
// holds every player's password hash, and the outbox requests change
// what the judge sends.
func Serve(ctx context.Context, socketPath string, db *state.DB, kick func()) error {
	return ServeJudge(ctx, socketPath, db, Hooks{Kick: kick})
}

// Hooks are what the control socket asks of the daemon beyond its
// database. A nil hook makes the requests that need it fail.
type Hooks struct {
	// Kick is called once mails were put back in the outbox's queue,
	// so that the daemon's sender sends them now.
	Kick func()
	// RetryHeld runs the held mail id again (session.Master.RetryHeld): cause
	// is why it failed again, if it did, and err what kept it from
	// being tried.
	RetryHeld func(id uint64) (cause, err error)
}

// ServeJudge is Serve with every hook of the daemon.
func ServeJudge(ctx context.Context, socketPath string, db *state.DB, hooks Hooks) error {
	ln, err := listen(socketPath)
	if err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() { ln.Close() })
	defer stop()

	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		c, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			ln.Close()
			return fmt.Errorf("ctl: %w", err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.Close()
			// At shutdown, a slow client must not hold up the daemon.
			cut := context.AfterFunc(ctx, func() { c.SetDeadline(time.Now()) })
			defer cut()
			serveConn(c, db, hooks)
		}()
	}
}

// listen opens the socket, removing a stale one.
func listen(path string) (net.Listener, error) {
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode().Type() != fs.ModeSocket {
			return nil, fmt.Errorf("ctl: %s exists and is not a socket", path)
		}
		if c, err := net.Dial("unix", path); err == nil {
			c.Close()
			return nil, fmt.Errorf("ctl: a daemon already listens on %s", path)
		}
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("ctl: removing the stale socket: %w", err)
		}
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("ctl: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("ctl: %w", err)
	}
	return ln, nil
}

// serveConn answers the one request of a connection.
func serveConn(c net.Conn, db *state.DB, hooks Hooks) {
	c.SetReadDeadline(time.Now().Add(requestTimeout))
	line, err := readLine(bufio.NewReader(c))
	if err != nil {
		return
	}
	c.SetReadDeadline(time.Time{})
	w := bufio.NewWriterSize(c, chunkSize+64)
	defer w.Flush()
	cmd := strings.TrimSpace(line)
	if args, ok := strings.CutPrefix(cmd, "outbox"); ok && (args == "" || args[0] == ' ') {
		serveOutbox(w, db, hooks.Kick, strings.Fields(args))
		return
	}
	if args, ok := strings.CutPrefix(cmd, "held"); ok && (args == "" || args[0] == ' ') {
		serveHeld(w, db, hooks.RetryHeld, strings.Fields(args))
		return
	}
	switch cmd {
	case "backup":
		cw := bufio.NewWriterSize(&chunkWriter{w: w}, chunkSize)
		n, err := db.Backup(cw)
		if err == nil {
			err = cw.Flush()
		}
		if err != nil {
			fmt.Fprintf(w, "error backup: %s\n", oneLine(err.Error()))
			return
		}
		fmt.Fprintf(w, "ok %d bytes\n", n)
	default:
		fmt.Fprintf(w, "error unknown command %q\n", cmd)
	}
}

// chunkWriter frames what is written as "data N" chunks.
type chunkWriter struct {
	w io.Writer
}

func (cw *chunkWriter) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if _, err := fmt.Fprintf(cw.w, "data %d\n", len(p)); err != nil {
		return 0, err
	}
	return cw.w.Write(p)
}

// maxLine bounds the protocol's text lines.
const maxLine = 4096

// readLine reads one line of at most maxLine bytes, without its "\n".
func readLine(r *bufio.Reader) (string, error) {
	var b []byte
	for {
		frag, err := r.ReadSlice('\n')
		b = append(b, frag...)
		if len(b) > maxLine {
			return "", errors.New("ctl: line too long")
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return "", err
		}
		return strings.TrimSuffix(string(b), "\n"), nil
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Backup asks the daemon listening on socketPath for a consistent copy of
// its database and writes it to w, returning the number of bytes. When
// no daemon listens the error wraps ErrNoServer, and nothing was written.
// On any other error, what was written to w is incomplete.
func Backup(socketPath string, w io.Writer) (int64, error) {
	c, err := request(socketPath, "backup")
	if err != nil {
		return 0, err
	}
	defer c.Close()
	n, status, err := receive(bufio.NewReaderSize(c, chunkSize), w, "the backup")
	if err != nil {
		return n, err
	}
	total, err := strconv.ParseInt(strings.TrimSuffix(status, " bytes"), 10, 64)
	if err != nil || total != n {
		return n, fmt.Errorf("ctl: the daemon says \"ok %s\" but sent %d bytes", status, n)
	}
	return n, nil
}

// request connects to the daemon on socketPath and sends it the request
// line req. When no daemon listens the error wraps ErrNoServer.
func request(socketPath, req string) (net.Conn, error) {
	c, err := net.Dial("unix", socketPath)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ECONNREFUSED) {
			return nil, fmt.Errorf("%w on %s", ErrNoServer, socketPath)
		}
		return nil, fmt.Errorf("ctl: %w", err)
	}
	if _, err := io.WriteString(c, req+"\n"); err != nil {
		c.Close()
		return nil, fmt.Errorf("ctl: %w", err)
	}
	return c, nil
}

// receive reads an answer: the data chunks, written to w, then the
// status line, whose text after "ok " it returns. what names the answer
// in the error of a connection closed too soon. An "error" line is an
// error with the daemon's message.
func receive(r *bufio.Reader, w io.Writer, what string) (n int64, status string, err error) {
	for {
		line, err := readLine(r)
		if err == io.EOF {
			return n, "", fmt.Errorf("ctl: the daemon closed the connection before the end of %s", what)
		} else if err != nil {
			return n, "", fmt.Errorf("ctl: %w", err)
		}
		word, rest, _ := strings.Cut(line, " ")
		switch word {
		case "data":
			size, err := strconv.ParseInt(rest, 10, 64)
			if err != nil || size <= 0 || size > 1<<30 {
				return n, "", fmt.Errorf("ctl: bad chunk header %q", line)
			}
			m, err := io.CopyN(w, r, size)
			n += m
			if err != nil {
				return n, "", fmt.Errorf("ctl: %w", err)
			}
		case "ok":
			return n, rest, nil
		case "error":
			return n, "", fmt.Errorf("gmd daemon: %s", rest)
		default:
			return n, "", fmt.Errorf("ctl: unexpected answer %q", line)
		}
	}
}

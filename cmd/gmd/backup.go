package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/gmdjudge/gmd/ctl"
	"github.com/gmdjudge/gmd/state"
)

func init() {
	commands["backup"] = command{
		summary: "write a consistent copy of the database, even while the daemon runs",
		run:     runBackup,
	}
}

const backupUsage = `usage: gmd backup [-config judge.conf | -db FILE] -o out.db

Writes a consistent copy of the judge's database to out.db. While the
daemon runs it holds the database, so the copy is asked of it through
its control socket (the database's path with ".sock" added); otherwise
gmd backup reads the database itself. Either way the judge may go on
working meanwhile, and out.db appears only once the copy is complete.

Flags:
`

func runBackup(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gmd backup", flag.ContinueOnError)
	dbf := databaseFlags(fs)
	out := fs.String("o", "", "the `file` to write the copy to")
	if code, ok := parseFlags(fs, args, stderr, backupUsage); !ok {
		return code
	}
	if *out == "" {
		fmt.Fprintln(stderr, "gmd backup: -o out.db is required")
		return 2
	}
	cfg, err := dbf.load()
	if err != nil {
		fmt.Fprintf(stderr, "gmd backup: %v\n", err)
		return 2
	}
	if same(*out, cfg.DB) {
		fmt.Fprintf(stderr, "gmd backup: %s is the database itself\n", *out)
		return 2
	}

	n, err := viaDaemon(ctl.SocketPath(cfg.DB), *out)
	how := "through the running daemon"
	if errors.Is(err, ctl.ErrNoServer) {
		n, err = direct(cfg.DB, *out)
		how = "from " + cfg.DB
	}
	if err != nil {
		fmt.Fprintf(stderr, "gmd backup: %v\n", err)
		return 1
	}
	fmt.Fprintf(stderr, "gmd backup: wrote %d bytes to %s, %s\n", n, *out, how)
	return 0
}

// same reports whether the two paths name the same existing file.
func same(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// direct copies the database when no daemon holds it. It opens it
// read-only: a backup must never create or migrate the database it
// copies.
func direct(dbPath, out string) (int64, error) {
	db, err := state.OpenReadOnly(dbPath)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	if err := db.BackupFile(out); err != nil {
		return 0, err
	}
	fi, err := os.Stat(out)
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// viaDaemon has the daemon send the copy, written to out.tmp and renamed
// to out once complete and on disk, as state.DB.BackupFile does.
func viaDaemon(sock, out string) (int64, error) {
	tmp := out + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return 0, err
	}
	n, err := ctl.Backup(sock, f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, out)
	}
	if err != nil {
		os.Remove(tmp)
		return 0, err
	}
	if d, err := os.Open(filepath.Dir(out)); err == nil {
		// The rename lasts a crash only once the directory is on disk.
		err = d.Sync()
		d.Close()
		if err != nil {
			return 0, err
		}
	}
	return n, nil
}

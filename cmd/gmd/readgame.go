package main

import (
	"fmt"
	"io"
	"os"

	"github.com/gmdjudge/gmd/state"
)

// readGameData is the read half that gmd export and gmd replay share:
// the database of the flags' config, read as gmd games reads it (a
// consistent copy through the control socket while the daemon runs),
// with read run in one read transaction. It returns the exit status: 2
// for a bad config file, 1 when the database or read fails (the error
// reported as "cmd: ..."), 0 when read succeeded.
func readGameData(dbf dbFlags, cmd string, stderr io.Writer, read func(tx *state.Tx) error) int {
	cfg, err := dbf.load()
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", cmd, err)
		return 2
	}
	db, err := openSnapshot(cfg.DB, cmd+": reading", stderr)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", cmd, err)
		return 1
	}
	defer db.Close()
	if err := db.View(read); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", cmd, err)
		return 1
	}
	return 0
}

// writeOutput writes data to the file path, or to stdout when path is
// empty (the -o flag of gmd export and gmd replay).
func writeOutput(path string, data []byte, stdout io.Writer) error {
	if path == "" {
		_, err := stdout.Write(data)
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

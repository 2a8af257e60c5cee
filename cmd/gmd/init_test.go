package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Only gmd init (and the first gmd run) makes a judge. gmd process and
// gmd tick refuse a missing database (status 75: the mail server keeps
// the mail) without making one, and refuse an empty file as damaged,
// leaving it as it was; gmd init refuses any file that exists.
func TestInitIsTheOnlyWayToANewJudge(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "gmd.db")
	mail := msg("alice@example.org", "new game", "<i1@example.org>", "CREATE ?dt secret\n")

	code, _, errs := gmd(t, mail, "process", "-db", path, "-now", now0)
	if code != exitTempFail || !strings.Contains(errs, "gmd init creates a new one") {
		t.Errorf("process with no database: status %d, stderr %q; want 75 and a word about gmd init", code, errs)
	}
	code, _, errs = gmd(t, "", "tick", "-db", path, "-now", now0)
	if code == 0 || !strings.Contains(errs, "gmd init creates a new one") {
		t.Errorf("tick with no database: status %d, stderr %q", code, errs)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("a database was made without gmd init: %v", err)
	}

	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errs = gmd(t, mail, "process", "-db", path, "-now", now0)
	if code != exitTempFail || !strings.Contains(errs, "is empty (0 bytes)") {
		t.Errorf("process with an empty file: status %d, stderr %q; want 75 and the file named empty", code, errs)
	}
	code, _, errs = gmd(t, "", "init", "-db", path)
	if code != 1 || !strings.Contains(errs, "file exists") {
		t.Errorf("init over an empty file: status %d, stderr %q; want 1", code, errs)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != 0 {
		t.Fatalf("the empty file was changed: %v", err)
	}

	os.Remove(path)
	code, out, errs := gmd(t, "", "init", "-db", path)
	if code != 0 || out != "created the judge database "+path+"\n" || errs != "" {
		t.Errorf("init: status %d, stdout %q, stderr %q", code, out, errs)
	}
	if code, _, errs := gmd(t, mail, "process", "-db", path, "-now", now0); code != 0 {
		t.Errorf("process after init: status %d, stderr %q", code, errs)
	}
	if code, _, errs := gmd(t, "", "init", "-db", path); code != 1 || !strings.Contains(errs, "file exists") {
		t.Errorf("init over a judge: status %d, stderr %q; want 1", code, errs)
	}
	if n := len(outbox(t, path)); n != 1 {
		t.Errorf("%d mails queued, want the reply to CREATE: the judge was replaced?", n)
	}
}

package main

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.etcd.io/bbolt"

	"github.com/gmdjudge/gmd/demo"
	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/state"
)

// checkDB makes a database with games dt and ab, a processed phase of
// dt, and two queued mails, one of them refused for good.
func checkDB(t *testing.T, dir string) string {
	t.Helper()
	path := newDB(t, dir, "dt", "ab")
	db, err := state.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	queued := time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)
	err = db.Update(func(tx *state.Tx) error {
		if err := tx.PutPhase("dt", &state.PhaseRecord{Phase: "S1901M", Turn: 1, Position: startPosition(t)}); err != nil {
			return err
		}
		if err := tx.Enqueue(&state.OutMail{To: []string{"p1@example.org"}, Subject: "waiting", Created: queued}); err != nil {
			return err
		}
		return tx.Enqueue(&state.OutMail{
			To: []string{"gone@example.org", "p2@example.org"}, Subject: "GMD:dt - S1901M Results", Created: queued,
			Attempts: 1, Failed: "2026-01-02T15:05:00Z: 550 5.1.1 gone@example.org: no such user",
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// startPosition is the standard map's first position, as the judge
// stores it.
func startPosition(t *testing.T) []byte {
	t.Helper()
	mp, err := variants.Load("standard")
	if err != nil {
		t.Fatal(err)
	}
	rules, err := judge.RulesByName("")
	if err != nil {
		t.Fatal(err)
	}
	return jsonpos.EncodePosition(judge.StartPosition(mp), rules)
}

// A stored position with a byte changed, the JSON still valid, is a
// problem gmd check names with its game: every mail for that game would
// fail on it. Both the current position and a processed phase's count.
func TestCheckDamagedPosition(t *testing.T) {
	path := checkDB(t, t.TempDir())
	db, err := state.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *state.Tx) error {
		g, err := tx.Game("ab")
		if err != nil {
			return err
		}
		g.Status, g.Position = state.Active, bytes.Replace(startPosition(t), []byte(`"par"`), []byte(`"pbr"`), 1)
		if bytes.Equal(g.Position, startPosition(t)) {
			t.Fatal("no par in the position")
		}
		if err := tx.PutGame(g); err != nil {
			return err
		}
		return tx.PutPhase("dt", &state.PhaseRecord{Phase: "F1901M", Turn: 2, Position: []byte(`{"variant":"standard","phase":"F1901Q"}`)})
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, errs := gmd(t, "", "check", "-db", path)
	if code != 1 || errs != "" {
		t.Errorf("status %d, stderr %q; want 1 and nothing", code, errs)
	}
	for _, want := range []string{path + ": 2 problems\n", "\tgame ab: stored position: ", "\tgame dt: history of F1901M: position: "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "ok:") {
		t.Errorf("a damaged position reported ok:\n%s", stdout)
	}
}

// failedListing is how gmd check lists the mail checkDB refused.
const failedListing = "\n1 mail refused for good by the SMTP server, kept in the outbox for the admin:\n" +
	"  mail 2, queued 2026-01-02T15:04:05Z, to gone@example.org, p2@example.org: \"GMD:dt - S1901M Results\"\n" +
	"    2026-01-02T15:05:00Z: 550 5.1.1 gone@example.org: no such user\n" +
	"Once the cause is fixed, gmd outbox retry ID sends one again; gmd outbox drop ID removes it.\n"

func TestCheckOK(t *testing.T) {
	dir := t.TempDir()
	path := checkDB(t, dir)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, errs := gmd(t, "", "check", "-db", path)
	if want := "ok: 2 games, 1 phase, 2 queued mails\n" + failedListing; code != 0 || stdout != want || errs != "" {
		t.Errorf("status %d, stdout:\n%s\nstderr:\n%s\nwant status 0, stdout:\n%s", code, stdout, errs, want)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("gmd check changed the database")
	}

	// An empty judge, found through the config file.
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o700)
	newDB(t, empty)
	conf := filepath.Join(empty, "judge.conf")
	os.WriteFile(conf, []byte("db gmd.db\n"), 0o600)
	code, stdout, errs = gmd(t, "", "check", "-config", conf)
	if code != 0 || stdout != "ok: 0 games, 0 phases, 0 queued mails\n" || errs != "" {
		t.Errorf("empty judge: status %d, stdout %q, stderr %q", code, stdout, errs)
	}
}

// gmd check lists each problem of a damaged database, and the mails
// refused for good as far as it can read them, and exits 1.
func TestCheckProblems(t *testing.T) {
	path := checkDB(t, t.TempDir())
	bdb, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = bdb.Update(func(tx *bbolt.Tx) error {
		if err := tx.Bucket([]byte("games")).Put([]byte("broken"), []byte("{not json")); err != nil {
			return err
		}
		return tx.Bucket([]byte("wake")).Put([]byte("\x80\x00\x00\x00\x00\x00\x00\x01ghost"), nil)
	})
	bdb.Close()
	if err != nil {
		t.Fatal(err)
	}

	code, stdout, errs := gmd(t, "", "check", "-db", path)
	if code != 1 || errs != "" {
		t.Errorf("status %d, stderr %q; want 1 and nothing", code, errs)
	}
	for _, want := range []string{
		path + ": 2 problems\n",
		"\tgame broken: invalid character",
		"\twake: ghost at 1970-01-01T00:00:00.000000001Z: no such game\n",
		failedListing,
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "ok:") {
		t.Errorf("a damaged database reported ok:\n%s", stdout)
	}
}

// A file that is not a gmd database, damaged or someone else's, is
// refused with a message that says so, by gmd check (exit 1) and by gmd
// run (exit 1, before it starts anything), and left as it was.
func TestBadDatabaseFiles(t *testing.T) {
	srv, err := demo.Start("127.0.0.1:0", "127.0.0.1:0", demo.Accounts())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()

	rng := rand.New(rand.NewPCG(3, 4))
	garbage := make([]byte, 64<<10)
	for i := range garbage {
		garbage[i] = byte(rng.Uint32())
	}
	files := []struct {
		name  string
		make  func(path string)
		error string
	}{
		{"garbage", func(path string) { os.WriteFile(path, garbage, 0o600) }, "is not a gmd database, or is damaged"},
		{"text", func(path string) { os.WriteFile(path, []byte("judge-name GMD\n"), 0o600) }, "is not a gmd database, or is damaged"},
		{"foreign bbolt", func(path string) {
			bdb, err := bbolt.Open(path, 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer bdb.Close()
			err = bdb.Update(func(tx *bbolt.Tx) error {
				b, err := tx.CreateBucket([]byte("widgets"))
				if err != nil {
					return err
				}
				return b.Put([]byte("k"), []byte("v"))
			})
			if err != nil {
				t.Fatal(err)
			}
		}, "is not a gmd database"},
		{"gmd cut in its meta pages", func(path string) {
			newDB(t, filepath.Dir(path), "dt")
			if err := os.Truncate(path, 4096); err != nil {
				t.Fatal(err)
			}
		}, "is not a gmd database, or is damaged"},
		{"gmd cut short", func(path string) {
			newDB(t, filepath.Dir(path), "dt")
			if err := os.Truncate(path, 16384); err != nil {
				t.Fatal(err)
			}
		}, "is damaged: it is 16384 bytes long, but its pages need"},
	}
	for _, f := range files {
		t.Run(f.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "gmd.db")
			f.make(path)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}

			code, stdout, errs := gmd(t, "", "check", "-db", path)
			if want := "gmd check: " + path + " " + f.error; code != 1 || stdout != "" || !strings.HasPrefix(errs, want) {
				t.Errorf("gmd check: status %d, stdout %q, stderr %q; want 1 and %q", code, stdout, errs, want)
			}

			var stderr bytes.Buffer
			code = run([]string{"run", "-config", writeConf(t, dir, srv, "")}, nil, &bytes.Buffer{}, &stderr)
			if log := stderr.String(); code != 1 || !strings.Contains(log, `msg="gmd run stopped" err="`+path+" "+f.error) ||
				strings.Contains(log, "gmd running") {
				t.Errorf("gmd run: status %d, log:\n%s", code, log)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
				t.Error("the file was changed")
			}
		})
	}
}

// While a daemon holds the database, gmd check checks a copy taken
// through the control socket.
func TestCheckThroughDaemon(t *testing.T) {
	dir := t.TempDir()
	path := checkDB(t, dir)
	db := fakeDaemon(t, path, nil)
	err := db.Update(func(tx *state.Tx) error {
		return tx.PutGame(&state.Game{Name: "live", Variant: "standard", Status: state.Forming})
	})
	if err != nil {
		t.Fatal(err)
	}

	code, stdout, errs := gmd(t, "", "check", "-db", path)
	if code != 0 || stdout != "ok: 3 games, 1 phase, 2 queued mails\n"+failedListing ||
		errs != "gmd check: checking a copy of "+path+" taken through the running daemon\n" {
		t.Errorf("status %d, stdout:\n%s\nstderr:\n%s", code, stdout, errs)
	}
}

func TestCheckUsage(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no db", nil, 2, "gmd check: no database: give -db FILE, or db in the config file\n"},
		{"extra argument", []string{"-db", "x.db", "y.db"}, 2, "gmd check: unexpected argument \"y.db\"\n"},
		{"bad config", []string{"-config", filepath.Join(dir, "none.conf")}, 2, ""},
		{"missing db", []string{"-db", filepath.Join(dir, "none.db")}, 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errs := gmd(t, "", append([]string{"check"}, tt.args...)...)
			if code != tt.code || tt.stderr != "" && errs != tt.stderr {
				t.Errorf("status %d, stderr %q; want %d, %q", code, errs, tt.code, tt.stderr)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "none.db")); !os.IsNotExist(err) {
		t.Errorf("gmd check created the missing database: %v", err)
	}
}

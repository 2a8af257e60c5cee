package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/state"
)

// The scale test: 10,000 active standard games in one database, and the
// figures the issue sets for them. It takes a few minutes and a few
// hundred megabytes of disk, so it runs only when asked:
//
//	GMD_SCALE=1 go test ./session -run TestScale10k -v -timeout 30m
//
// GMD_SCALE_DIR=dir keeps the database there afterwards (for gmd check,
// say); GMD_SCALE_COLD=1 also measures a start-up with the page cache
// dropped, which takes root; GMD_SCALE_PROFILE=file writes a CPU profile
// of the big Tick.
//
// Each measurement runs in a child process (this test binary again), so
// that the memory figures are those of a judge that opens the database,
// not of the test that made it.

const (
	scaleGames = 10000 // active games in the database
	scaleDue   = 1000  // of which due at the same minute

	// The budgets.
	scaleStartupBudget = 2 * time.Second
	scaleTickBudget    = 10 * time.Second
	scaleMemoryBudget  = 300 << 20 // bytes
)

// scaleNow is the judge's clock in the scale test.
var scaleNow = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

// scaleResult is what a child process measured.
type scaleResult struct {
	Open     time.Duration // state.Open, with its checks of the file
	Tick     time.Duration // the first Tick
	Outbox   time.Duration // reading the whole outbox, as the sender's first pass does
	Queued   int           // mails in the outbox after the Tick
	Commit   time.Duration // one small committed transaction, median of 21
	Writes   int64         // write system calls during the Tick
	Written  int64         // bytes written during the Tick
	VmHWM    int64         // peak resident set, bytes, from /proc/self/status
	RssAnon  int64         // resident anonymous memory at the end, bytes
	RssFile  int64         // resident file pages (the database's map) at the end, bytes
	HeapPeak uint64        // peak HeapInuse, sampled every 10 ms
	SysPeak  uint64        // peak runtime Sys
}

// TestScale10k measures start-up, a Tick of scaleDue games due at once,
// memory and database size with scaleGames active games, against the
// budgets above; see the comment at the top of the file.
func TestScale10k(t *testing.T) {
	if mode := os.Getenv("GMD_SCALE_CHILD"); mode != "" {
		scaleChild(t, mode)
		return
	}
	if os.Getenv("GMD_SCALE") != "1" {
		t.Skip("skipped: set GMD_SCALE=1 to run the 10,000-game scale test (a minute or more, 250 MB of disk)")
	}
	dir := os.Getenv("GMD_SCALE_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	path := filepath.Join(dir, "scale.db")
	os.Remove(path)

	start := time.Now()
	genScaleDB(t, path)
	t.Logf("generated %d games in %v", scaleGames, time.Since(start).Round(time.Millisecond))
	size0 := fileSize(t, path)
	t.Logf("database: %d bytes, %d bytes per game", size0, size0/scaleGames)

	// Start-up: open, and the first Tick with nothing due.
	if os.Getenv("GMD_SCALE_COLD") == "1" {
		if err := dropCaches(); err != nil {
			t.Logf("cannot drop the page cache (%v): no cold start-up", err)
		} else {
			cold := scaleRun(t, "startup", path)
			t.Logf("start-up, cold cache: open %v, tick %v, outbox %v (%d mails); peak RSS %d MB",
				cold.Open, cold.Tick, cold.Outbox, cold.Queued, cold.VmHWM>>20)
		}
	}
	up := scaleRun(t, "startup", path)
	t.Logf("start-up: open %v, tick (nothing due) %v, outbox %v (%d mails): %v in all; peak RSS %d MB (heap %d MB)",
		up.Open, up.Tick, up.Outbox, up.Queued, up.Open+up.Tick+up.Outbox, up.VmHWM>>20, up.HeapPeak>>20)
	if d := up.Open + up.Tick + up.Outbox; d > scaleStartupBudget {
		t.Errorf("start-up took %v, budget %v", d, scaleStartupBudget)
	}
	if up.Queued != 0 {
		t.Errorf("%d mails queued by a Tick with nothing due", up.Queued)
	}

	// A thousand games due at the same minute.
	due, turns := makeScaleDue(t, path)
	tick := scaleRun(t, "tick", path)
	t.Logf("tick of %d due games: %v (%v a game, %d writes of %d KB in all); commit of a small transaction %v; "+
		"peak RSS %d MB (anonymous %d MB, database pages %d MB at the end), peak heap %d MB, Go runtime Sys %d MB",
		len(due), tick.Tick, tick.Tick/time.Duration(len(due)), tick.Writes, tick.Written>>10, tick.Commit,
		tick.VmHWM>>20, tick.RssAnon>>20, tick.RssFile>>20, tick.HeapPeak>>20, tick.SysPeak>>20)
	if tick.Tick > scaleTickBudget {
		t.Errorf("the Tick took %v, budget %v", tick.Tick, scaleTickBudget)
	}
	if tick.VmHWM > scaleMemoryBudget {
		t.Errorf("peak RSS %d MB, budget %d MB", tick.VmHWM>>20, scaleMemoryBudget>>20)
	}
	recipients := checkScaleTick(t, path, due, turns)
	t.Logf("queued: %d results mails to %d recipients in all", len(due), recipients)
	size1 := fileSize(t, path)
	t.Logf("database after the tick: %d bytes, %d bytes per game", size1, size1/scaleGames)

	// Start-up again, with the results still queued: the sender's first
	// pass reads them all.
	again := scaleRun(t, "startup", path)
	t.Logf("start-up with %d mails queued: open %v, tick %v, outbox %v: %v in all; peak RSS %d MB",
		again.Queued, again.Open, again.Tick, again.Outbox, again.Open+again.Tick+again.Outbox, again.VmHWM>>20)
	if d := again.Open + again.Tick + again.Outbox; d > scaleStartupBudget {
		t.Errorf("start-up with a full outbox took %v, budget %v", d, scaleStartupBudget)
	}

	// What gmd check and gmd backup cost on such a database.
	db, err := state.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	start = time.Now()
	if err := db.Check(); err != nil {
		t.Error(err)
	}
	t.Logf("Check: %v", time.Since(start).Round(time.Millisecond))
	start = time.Now()
	n, err := db.Backup(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Backup: %d bytes in %v", n, time.Since(start).Round(time.Millisecond))
}

// scaleRun runs this test binary as a child that measures mode on the
// database at path, and returns what it measured.
func scaleRun(t *testing.T, mode, path string) scaleResult {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestScale10k$", "-test.count=1")
	cmd.Env = append(os.Environ(), "GMD_SCALE_CHILD="+mode, "GMD_SCALE_DB="+path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child %s: %v\n%s%s", mode, err, out, stderr.Bytes())
	}
	const prefix = "GMD_SCALE_RESULT "
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if line, ok := strings.CutPrefix(sc.Text(), prefix); ok {
			var r scaleResult
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatal(err)
			}
			return r
		}
	}
	t.Fatalf("child %s printed no result:\n%s%s", mode, out, stderr.Bytes())
	return scaleResult{}
}

// scaleChild is the child process: it opens the database as gmd run
// does and measures what mode says, then prints the result as one line.
func scaleChild(t *testing.T, mode string) {
	path := os.Getenv("GMD_SCALE_DB")
	var r scaleResult
	stop := sampleMemory(&r)

	start := time.Now()
	db, err := state.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := New(db, engine.Config{Config: config.Config{JudgeName: "GMD", JudgeAddr: "judge@example.org", PasswordCost: bcrypt.MinCost}})
	r.Open = time.Since(start)

	if file := os.Getenv("GMD_SCALE_PROFILE"); file != "" && mode == "tick" {
		f, err := os.Create(file)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			t.Fatal(err)
		}
	}
	syscw, wchar := procIO()
	start = time.Now()
	if err := m.Tick(scaleNow); err != nil {
		t.Fatal(err)
	}
	r.Tick = time.Since(start)
	pprof.StopCPUProfile()
	syscw2, wchar2 := procIO()
	r.Writes, r.Written = syscw2-syscw, wchar2-wchar

	start = time.Now()
	err = db.View(func(tx *state.Tx) error {
		mails, err := tx.Outbox(0)
		r.Queued = len(mails)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	r.Outbox = time.Since(start)

	if mode == "tick" {
		// What one fsync'd commit costs on this disk, for comparison.
		var ds []time.Duration
		for i := range 21 {
			start := time.Now()
			err := db.Update(func(tx *state.Tx) error { return tx.PutMeta("scale.probe", []byte(strconv.Itoa(i))) })
			if err != nil {
				t.Fatal(err)
			}
			ds = append(ds, time.Since(start))
		}
		slices.Sort(ds)
		r.Commit = ds[len(ds)/2]
	}

	stop()
	status, err := os.ReadFile("/proc/self/status")
	if err == nil {
		r.VmHWM = statusBytes(status, "VmHWM:")
		r.RssAnon = statusBytes(status, "RssAnon:")
		r.RssFile = statusBytes(status, "RssFile:")
	}
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("GMD_SCALE_RESULT %s\n", data)
}

// sampleMemory records the peaks of the Go heap in r until the function
// it returns is called.
func sampleMemory(r *scaleResult) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	sample := func() {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		r.HeapPeak = max(r.HeapPeak, ms.HeapInuse)
		r.SysPeak = max(r.SysPeak, ms.Sys)
	}
	go func() {
		defer wg.Done()
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			sample()
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
		sample()
	}
}

// procIO returns how many write system calls the process has made, and
// how many bytes they wrote, from /proc/self/io; zeros elsewhere.
func procIO() (syscw, wchar int64) {
	data, _ := os.ReadFile("/proc/self/io")
	for line := range strings.SplitSeq(string(data), "\n") {
		name, value, _ := strings.Cut(line, ": ")
		n, _ := strconv.ParseInt(value, 10, 64)
		switch name {
		case "syscw":
			syscw = n
		case "wchar":
			wchar = n
		}
	}
	return syscw, wchar
}

// statusBytes reads a "Name:   123 kB" line of /proc/self/status.
func statusBytes(status []byte, name string) int64 {
	for line := range strings.SplitSeq(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, name); ok {
			f := strings.Fields(rest)
			if len(f) == 2 && f[1] == "kB" {
				n, _ := strconv.ParseInt(f[0], 10, 64)
				return n << 10
			}
		}
	}
	return -1
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// dropCaches empties the kernel's page cache, so that the database is
// read from the disk.
func dropCaches() error {
	if err := exec.Command("sync").Run(); err != nil {
		return err
	}
	return os.WriteFile("/proc/sys/vm/drop_caches", []byte("3\n"), 0)
}

// scaleName is the name of game i.
func scaleName(i int) string { return fmt.Sprintf("g%05d", i) }

// genScaleDB makes the database of the scale test at path: scaleGames
// active standard games as gmd would have them after a month or two,
// stored straight through the state API. Game i has 7 players with
// addresses of their own and bcrypt hashes, a master, an observer for
// every fourth game, i%5 phases already played (with random moves, by
// the adjudicator, each leaving its history record), some press, and
// pending orders from three of its seven powers; its deadline is
// somewhere in the next three days, and nothing is due. Every mail that
// built it up is in the ledger; the outbox is empty, as the judge would
// have sent it all.
func genScaleDB(t *testing.T, path string) {
	t.Helper()
	db, err := state.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := New(db, engine.Config{Config: config.Config{JudgeName: "GMD", JudgeAddr: "judge@example.org", PasswordCost: bcrypt.MinCost}})
	hash, err := bcrypt.GenerateFromPassword([]byte("secret"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(10, 10000))
	const batch = 250
	for first := 0; first < scaleGames; first += batch {
		err := db.Update(func(tx *state.Tx) error {
			for i := first; i < min(first+batch, scaleGames); i++ {
				if err := genScaleGame(tx, m, rng, i, hash); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		// The results of the phases played are sent by now.
		err = db.Update(func(tx *state.Tx) error {
			mails, err := tx.Outbox(0)
			for _, ml := range mails {
				if err == nil {
					err = tx.DeleteOutMail(ml.ID)
				}
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// genScaleGame stores game i of the scale test; see genScaleDB.
func genScaleGame(tx *state.Tx, m *Master, rng *rand.Rand, i int, hash []byte) error {
	mp := variants.Standard()
	created := scaleNow.Add(-time.Duration(20+i%40) * 24 * time.Hour)
	g := &state.Game{
		Name: scaleName(i), Variant: "standard", Rules: judge.DATC30.Name, Status: state.Active, Created: created,
		Settings:   engine.DefaultSettings(),
		MasterAddr: fmt.Sprintf("master.%d@example.org", i), MasterHash: hash,
		Position: jsonpos.EncodePosition(judge.StartPosition(mp), judge.DATC30),
	}
	for _, p := range mp.Powers {
		g.Players = append(g.Players, state.Player{
			Power: p.Name, Addr: fmt.Sprintf("%s.%d@example.org", strings.ToLower(p.Name), i),
			PassHash: hash, Status: state.Playing, Joined: created,
		})
	}
	if i%4 == 0 {
		g.Observers = []state.Observer{{Addr: fmt.Sprintf("watcher.%d@example.org", i), PassHash: hash}}
	}
	mails := 8 // the CREATE and seven sign-ons
	when := created
	for range i % 5 {
		pos, rules, err := m.Position(g)
		if err != nil {
			return err
		}
		g.Orders = scaleOrders(rng, pos, 7, 0)
		n, err := scalePress(tx, rng, g, pos, when)
		if err != nil {
			return err
		}
		mails += 7 + n
		if err := m.Process(tx, g, pos, rules, when); err != nil {
			return err
		}
		when = when.Add(72 * time.Hour)
	}

	pos, _, err := m.Position(g)
	if err != nil {
		return err
	}
	g.Orders = scaleOrders(rng, pos, 3, i)
	n, err := scalePress(tx, rng, g, pos, scaleNow.Add(-time.Hour))
	if err != nil {
		return err
	}
	mails += 3 + n
	// The phase began at some time in its length before now.
	length := engine.PhaseLength(&g.Settings, pos.Phase.Type)
	m.StartClockFor(g, pos.Phase.Type, scaleNow.Add(-time.Duration(rng.Int64N(int64(length)))))
	g.Reminded = !scaleNow.Before(g.Deadline.Add(-time.Duration(g.Settings.Reminder)))
	engine.Schedule(g, scaleNow)
	if !g.Wake.After(scaleNow) {
		return fmt.Errorf("game %s is due at once", g.Name)
	}
	if err := tx.PutGame(g); err != nil {
		return err
	}

	for _, addr := range append(m.Recipients(g), g.MasterAddr) {
		if err := tx.PutUser(&state.User{Addr: addr, Created: created, Games: []string{g.Name}}); err != nil {
			return err
		}
	}
	for k := range mails {
		id := fmt.Sprintf("<%d.%d.%x@mail.example.org>", i, k, rng.Uint64())
		if err := tx.MarkSeen(mailKey(g.MasterAddr, id, "orders", ""), created); err != nil {
			return err
		}
		if err := tx.MarkSeen(fmt.Sprintf("imap/judge@example.org/INBOX/1/%d", i*64+k), created); err != nil {
			return err
		}
	}
	return nil
}

// scaleOrders returns orders for n powers of pos (from the power first
// on, in map order), in a movement phase: each unit moves to a random
// neighbour, or holds. Other phases get none: the judge's defaults play
// them.
func scaleOrders(rng *rand.Rand, pos *judge.Position, n, first int) map[string][]string {
	if pos.Phase.Type != judge.Movement {
		return nil
	}
	mp := pos.Map
	out := map[string][]string{}
	var buf []judge.Loc
	for k := range n {
		p := judge.Power((first + k) % len(mp.Powers))
		for _, u := range pos.Units {
			if u.Type == judge.NoUnit || u.Power != p {
				continue
			}
			o := judge.Order{Kind: judge.Hold, Power: p, Type: u.Type, Unit: u.Loc}
			if buf = mp.Neighbours(buf[:0], u.Type, u.Loc); len(buf) > 0 && rng.IntN(3) > 0 {
				o.Kind, o.Target = judge.Move, buf[rng.IntN(len(buf))]
			}
			name := mp.Powers[p].Name
			out[name] = append(out[name], o.Canonical(mp))
		}
	}
	return out
}

// scalePress records up to three press messages of g's current phase,
// and returns how many.
func scalePress(tx *state.Tx, rng *rand.Rand, g *state.Game, pos *judge.Position, when time.Time) (int, error) {
	n := rng.IntN(4)
	for k := range n {
		from := g.Players[rng.IntN(len(g.Players))].Power
		to := g.Players[rng.IntN(len(g.Players))].Power
		err := tx.AddPress(g.Name, g.Turn, &state.Press{
			Phase: pos.Phase.String(), From: from, To: []string{to},
			Text: strings.Repeat("Shall we work together against the others this year? ", 1+k),
			Sent: when.Add(-time.Duration(k) * time.Hour),
		})
		if err != nil {
			return 0, err
		}
	}
	return n, nil
}

// makeScaleDue gives scaleDue games in a movement phase complete orders
// and has them wake now, as if their last orders had just come in. It
// returns their names and the turn each was at.
func makeScaleDue(t *testing.T, path string) (names []string, turns map[string]int) {
	t.Helper()
	db, err := state.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := New(db, engine.Config{Config: config.Config{PasswordCost: bcrypt.MinCost}})
	rng := rand.New(rand.NewPCG(20, 20))
	turns = map[string]int{}
	err = db.Update(func(tx *state.Tx) error {
		for i := 0; len(names) < scaleDue && i < scaleGames; i += 3 {
			g, err := tx.Game(scaleName(i))
			if err != nil {
				return err
			}
			pos, _, err := m.Position(g)
			if err != nil {
				return err
			}
			if pos.Phase.Type != judge.Movement {
				continue
			}
			g.Orders = scaleOrders(rng, pos, len(pos.Map.Powers), 0)
			m.Refresh(g, pos, scaleNow)
			if !g.Wake.Equal(scaleNow) {
				return fmt.Errorf("game %s with complete orders wakes at %v", g.Name, g.Wake)
			}
			if err := tx.PutGame(g); err != nil {
				return err
			}
			names = append(names, g.Name)
			turns[g.Name] = g.Turn
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != scaleDue {
		t.Fatalf("only %d games in a movement phase", len(names))
	}
	return names, turns
}

// checkScaleTick checks that the Tick processed every due game once and
// no other, and queued the results of each to all its recipients. It
// returns how many recipients the results went to in all.
func checkScaleTick(t *testing.T, path string, due []string, turns map[string]int) (recipients int) {
	t.Helper()
	db, err := state.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.View(func(tx *state.Tx) error {
		mails, err := tx.Outbox(0)
		if err != nil {
			return err
		}
		results := map[string]*state.OutMail{}
		for _, ml := range mails {
			if !strings.HasSuffix(ml.Subject, " Results") {
				t.Errorf("unexpected mail %q", ml.Subject)
				continue
			}
			game := strings.TrimPrefix(strings.Fields(ml.Subject)[0], "GMD:")
			if results[game] != nil {
				t.Errorf("game %s: results queued twice", game)
			}
			results[game] = ml
		}
		if len(results) != len(due) {
			t.Errorf("results of %d games queued, want %d", len(results), len(due))
		}
		m := New(db, engine.Config{Config: config.Config{PasswordCost: bcrypt.MinCost}})
		for i := range scaleGames {
			g, err := tx.Game(scaleName(i))
			if err != nil {
				return err
			}
			before, isDue := turns[g.Name]
			switch {
			case !isDue && (results[g.Name] != nil || !g.Wake.After(scaleNow)):
				t.Errorf("game %s was not due, but has results or wakes at %v", g.Name, g.Wake)
			case isDue && (g.Turn != before+1 || results[g.Name] == nil):
				t.Errorf("game %s: turn %d (was %d), results queued: %v", g.Name, g.Turn, before, results[g.Name] != nil)
			case isDue:
				want := m.Recipients(g)
				if got := results[g.Name].To; strings.Join(got, ",") != strings.Join(want, ",") {
					t.Errorf("game %s: results to %q, want %q", g.Name, got, want)
				}
				recipients += len(want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return recipients
}

package state

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"go.etcd.io/bbolt"
)

func registrant(t *testing.T, tx *Tx, name, addr string) *Registrant {
	t.Helper()
	id, err := tx.NewRegistrantID()
	if err != nil {
		t.Fatal(err)
	}
	r := &Registrant{ID: id, Name: name, Fold: strings.ToLower(name), Addr: addr, Registered: time.Unix(0, 0).UTC()}
	if err := tx.PutRegistrant(r); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRegistrantIndex(t *testing.T) {
	db := openTemp(t)
	update(t, db, func(tx *Tx) error {
		ann := registrant(t, tx, "Ann", "ann@example.org")
		registrant(t, tx, "Bob", "bob@example.org")

		// Another registration may take neither Ann's name nor her address.
		id, _ := tx.NewRegistrantID()
		for _, r := range []*Registrant{
			{ID: id, Name: "ANN", Fold: "ann", Addr: "c@example.org"},
			{ID: id, Name: "Cid", Fold: "cid", Addr: "ANN@example.org"},
		} {
			if err := tx.PutRegistrant(r); !errors.Is(err, ErrTaken) {
				t.Errorf("PutRegistrant(%s, %s) = %v, want ErrTaken", r.Name, r.Addr, err)
			}
		}
		if _, err := tx.Registrant(id); !errors.Is(err, ErrNotFound) {
			t.Errorf("a refused registration was stored: %v", err)
		}

		// Ann moves: the new address finds her, the old one still does
		// (it is hers: nobody else may register it), and her name may
		// change.
		ann.Former, ann.Addr = []string{ann.Addr}, "ann@new.example"
		ann.Name, ann.Fold = "Anna", "anna"
		if err := tx.PutRegistrant(ann); err != nil {
			t.Fatal(err)
		}
		for _, a := range []string{"Ann@New.Example", "ann@example.org"} {
			if r, err := tx.RegistrantByAddr(a); err != nil || r.ID != ann.ID {
				t.Errorf("RegistrantByAddr(%s) = %v, %v; want Ann's", a, r, err)
			}
		}
		if _, err := tx.RegistrantByFold("ann"); !errors.Is(err, ErrNotFound) {
			t.Errorf("the old name still finds a registration: %v", err)
		}
		if r, err := tx.RegistrantByFold("anna"); err != nil || r.ID != ann.ID {
			t.Errorf("RegistrantByFold(anna) = %v, %v", r, err)
		}

		// FORGET ME: every index entry goes with the record.
		if err := tx.DeleteRegistrant(ann.ID); err != nil {
			t.Fatal(err)
		}
		for _, f := range []func() (*Registrant, error){
			func() (*Registrant, error) { return tx.RegistrantByFold("anna") },
			func() (*Registrant, error) { return tx.RegistrantByAddr("ann@new.example") },
			func() (*Registrant, error) { return tx.RegistrantByAddr("ann@example.org") },
		} {
			if r, err := f(); !errors.Is(err, ErrNotFound) {
				t.Errorf("after DeleteRegistrant: %v, %v", r, err)
			}
		}
		if n, err := tx.CountRegistrants(); err != nil || n != 1 {
			t.Errorf("CountRegistrants = %d, %v; want 1", n, err)
		}
		return nil
	})
	if err := db.Check(); err != nil {
		t.Error(err)
	}
}

// WHOIS's list is bounded whatever the prefix: at most limit, and it
// says there were more.
func TestRegistrantsByFoldBounded(t *testing.T) {
	db := openTemp(t)
	update(t, db, func(tx *Tx) error {
		for i := range 30 {
			registrant(t, tx, fmt.Sprintf("player%02d", i), fmt.Sprintf("p%d@example.org", i))
		}
		registrant(t, tx, "other", "o@example.org")
		for _, c := range []struct {
			prefix   string
			limit, n int
			more     bool
			first    string
		}{
			{"", 10, 10, true, "other"},
			{"player", 10, 10, true, "player00"},
			{"player2", 20, 10, false, "player20"},
			{"player29", 5, 1, false, "player29"},
			{"nobody", 5, 0, false, ""},
		} {
			got, more, err := tx.RegistrantsByFold(c.prefix, c.limit)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != c.n || more != c.more || (c.n > 0 && got[0].Fold != c.first) {
				t.Errorf("RegistrantsByFold(%q, %d): %d, more %v; want %d starting %q, more %v", c.prefix, c.limit, len(got), more, c.n, c.first, c.more)
			}
		}
		return nil
	})
}

// The running tallies, kept event by event, match the tallies replayed
// from the seat logs; gunboat events count only once the game ends.
func TestSeatLogReplay(t *testing.T) {
	db := openTemp(t)
	rng := rand.New(rand.NewPCG(1, 2))
	addrs := []string{"a@x", "B@x", "c@x"}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	want := map[string]Tally{}
	update(t, db, func(tx *Tx) error {
		for i := range 500 {
			addr := addrs[rng.IntN(len(addrs))]
			gunboat := rng.IntN(4) == 0
			ev := &SeatEvent{Addr: addr, Game: fmt.Sprintf("g%d", rng.IntN(3)), Power: "France",
				Kind: SeatKinds[rng.IntN(len(SeatKinds))], At: at.Add(time.Duration(i) * time.Hour), Gunboat: gunboat}
			if gunboat {
				ev.Game = "gunboat"
			} else {
				w := want[strings.ToLower(addr)]
				w.Add(ev.Kind)
				want[strings.ToLower(addr)] = w
			}
			if err := tx.AddSeatEvent(ev); err != nil {
				t.Fatal(err)
			}
		}
		for _, a := range addrs {
			got, err := tx.Tally(a)
			if err != nil {
				t.Fatal(err)
			}
			evs, err := tx.SeatEvents(a)
			if err != nil {
				t.Fatal(err)
			}
			if got != want[strings.ToLower(a)] || CountEvents(evs) != got {
				t.Errorf("%s: running %+v, replayed %+v, want %+v", a, got, CountEvents(evs), want[strings.ToLower(a)])
			}
			for _, ev := range evs {
				if ev.Gunboat {
					t.Errorf("%s: a gunboat event is in the log before the game ended: %+v", a, ev)
				}
			}
		}
		held, err := tx.HeldSeatEvents("gunboat")
		if err != nil || len(held) == 0 {
			t.Fatalf("held gunboat events: %d, %v", len(held), err)
		}
		if err := tx.ReleaseSeatEvents("gunboat"); err != nil {
			t.Fatal(err)
		}
		for _, ev := range held {
			w := want[strings.ToLower(ev.Addr)]
			w.Add(ev.Kind)
			want[strings.ToLower(ev.Addr)] = w
		}
		if rest, err := tx.HeldSeatEvents("gunboat"); err != nil || len(rest) != 0 {
			t.Errorf("after release, %d held, %v", len(rest), err)
		}
		for _, a := range addrs {
			got, _ := tx.Tally(a)
			if got != want[strings.ToLower(a)] {
				t.Errorf("%s after the gunboat game ended: %+v, want %+v", a, got, want[strings.ToLower(a)])
			}
		}
		// Nothing to rebuild: the running tallies are the replayed ones.
		if changed, err := tx.RebuildTallies(); err != nil || len(changed) != 0 {
			t.Errorf("RebuildTallies changed %v, %v", changed, err)
		}
		return nil
	})
	if err := db.Check(); err != nil {
		t.Error(err)
	}
}

// A tally edited behind the judge's back is found by gmd check and made
// again from the log by RebuildTallies.
func TestTallyRebuilt(t *testing.T) {
	db := openTemp(t)
	update(t, db, func(tx *Tx) error {
		for _, k := range []SeatKind{SeatJoined, SeatOnTime, SeatLate, SeatDisorder} {
			if err := tx.AddSeatEvent(&SeatEvent{Addr: "a@x", Game: "g", Power: "Italy", Kind: k}); err != nil {
				return err
			}
		}
		return tx.putTally(nameKey("a@x"), Tally{OnTime: 99})
	})
	if err := db.Check(); err == nil || !strings.Contains(err.Error(), "tally a@x") {
		t.Errorf("Check = %v, want the edited tally named", err)
	}
	update(t, db, func(tx *Tx) error {
		changed, err := tx.RebuildTallies()
		if err != nil || len(changed) != 1 || changed[0] != "a@x" {
			t.Errorf("RebuildTallies = %v, %v; want [a@x]", changed, err)
		}
		got, err := tx.Tally("a@x")
		if want := (Tally{Games: 1, OnTime: 1, Late: 1, Disorder: 1}); got != want {
			t.Errorf("rebuilt tally %+v, %v; want %+v", got, err, want)
		}
		return nil
	})
	if err := db.Check(); err != nil {
		t.Error(err)
	}
}

// A flipped bit in an index entry is damage, not another player's
// registration.
func TestRegistryIndexSealed(t *testing.T) {
	db := openTemp(t)
	var id uint64
	update(t, db, func(tx *Tx) error {
		id = registrant(t, tx, "Ann", "ann@example.org").ID
		return nil
	})
	err := db.bolt.Update(func(btx *bbolt.Tx) error {
		k := addrIndexKey("ann@example.org")
		v := append([]byte(nil), btx.Bucket(bucketRegIndex).Get(k)...)
		v[7] ^= 1
		return btx.Bucket(bucketRegIndex).Put(k, v)
	})
	if err != nil {
		t.Fatal(err)
	}
	view(t, db, func(tx *Tx) error {
		if r, err := tx.RegistrantByAddr("ann@example.org"); !errors.Is(err, ErrDamaged) {
			t.Errorf("RegistrantByAddr after a flipped bit = %v, %v; want damage", r, err)
		}
		if r, err := tx.RegistrantByFold("ann"); err != nil || r.ID != id {
			t.Errorf("the name's entry, untouched, = %v, %v", r, err)
		}
		return nil
	})
	if err := db.Check(); err == nil || !strings.Contains(err.Error(), "registry index") {
		t.Errorf("Check = %v, want the index entry named", err)
	}
}

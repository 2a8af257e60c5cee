package state

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// BenchmarkPutGame stores a typical running 7-player game, with a new
// wake time each time, one committed transaction per store as the engine and the session do:
// the cost includes bbolt's fsync on the test's disk.
func BenchmarkPutGame(b *testing.B) {
	db := openTemp(b)
	g := sampleGame(b, "dt")
	update(b, db, func(tx *Tx) error { return tx.PutGame(g) })
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		g.Wake = t0.Add(time.Duration(i) * time.Minute)
		if err := db.Update(func(tx *Tx) error { return tx.PutGame(g) }); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGame reads the game back, as every incoming mail does.
func BenchmarkGame(b *testing.B) {
	db := openTemp(b)
	update(b, db, func(tx *Tx) error { return tx.PutGame(sampleGame(b, "dt")) })
	for b.Loop() {
		if err := db.View(func(tx *Tx) error { _, err := tx.Game("dt"); return err }); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEnqueue queues the seven results mails of a movement phase in
// one transaction, as phase processing does.
func BenchmarkEnqueue(b *testing.B) {
	db := openTemp(b)
	body := strings.Repeat("Austria: Army Vienna -> Galicia. (*bounce*)\n", 60)
	for b.Loop() {
		err := db.Update(func(tx *Tx) error {
			for p := range 7 {
				id, err := tx.NextID()
				if err != nil {
					return err
				}
				err = tx.Enqueue(&OutMail{
					MessageID: fmt.Sprintf("<gmd.%d.%d@localhost>", t0.Unix(), id),
					To:        []string{fmt.Sprintf("player%d@example.org", p)},
					Subject:   "GMD:dt - S1901M Results",
					Body:      body,
					Created:   t0,
				})
				if err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckPages checks the pages of a judge of 1,000 running games
// with ten phases of history each, as gmd run does before it takes mail:
// the cost of its start, reported with the file's size.
func BenchmarkCheckPages(b *testing.B) {
	db := openTemp(b)
	for i := range 10 {
		update(b, db, func(tx *Tx) error {
			for j := range 100 {
				g := sampleGame(b, fmt.Sprintf("g%d", i*100+j))
				if err := tx.PutGame(g); err != nil {
					return err
				}
				for turn := range 10 {
					if err := tx.PutPhase(g.Name, &PhaseRecord{Turn: turn, Phase: "S1901M", Position: g.Position, Orders: g.Orders}); err != nil {
						return err
					}
				}
			}
			return nil
		})
	}
	var size int64
	view(b, db, func(tx *Tx) error { size = tx.tx.Size(); return nil })
	for b.Loop() {
		if err := db.CheckPages(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(size)/(1<<20), "MB")
}

// BenchmarkSeal is the checksum of a record of 2 KB, a game's size,
// sealed and unsealed as a write and a read do.
func BenchmarkSeal(b *testing.B) {
	data := []byte(strings.Repeat("x", 2048))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := unseal(seal(data[:len(data):len(data)])); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWhois looks up a prefix among 10,000 registrations, as WHOIS
// does: the index is read from the prefix for at most limit+1 entries,
// whatever the registry's size.
func BenchmarkWhois(b *testing.B) {
	db := openTemp(b)
	update(b, db, func(tx *Tx) error {
		for i := range 10000 {
			id, err := tx.NewRegistrantID()
			if err != nil {
				return err
			}
			name := fmt.Sprintf("player%05d", i)
			if err := tx.PutRegistrant(&Registrant{ID: id, Name: name, Fold: name, Addr: name + "@example.org"}); err != nil {
				return err
			}
		}
		return nil
	})
	b.ResetTimer()
	for b.Loop() {
		view(b, db, func(tx *Tx) error {
			_, _, err := tx.RegistrantsByFold("player05", 20)
			return err
		})
	}
}

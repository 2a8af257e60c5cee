package session

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/state"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares a mail, subject and body, with testdata/name.golden.
func golden(t *testing.T, name string, m *state.OutMail) {
	t.Helper()
	got := "Subject: " + m.Subject + "\n\n" + m.Body
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./session -run Golden -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from %s:\n--- got ---\n%s\n--- want ---\n%s", name, path, got, want)
	}
}

// TestGoldenMails pins the layout of the mails players read most: the game
// start, an order acknowledgement with an error, and the njudge-style
// results of Spring and Fall 1901 (with the ownership table).
func TestGoldenMails(t *testing.T) {
	h := newHarness(t)
	start := h.startStandard("dt")
	addr, _ := seatOf("F")
	golden(t, "start", onlyTo(t, start, addr))

	spring := map[string]string{
		"A": "A Vie - Gal\nA Bud - Ser\nF Tri - Alb",
		"E": "F Lon - Nth\nF Edi - Nwg\nA Lvp - Yor",
		"F": "A Par - Bur\nA Mar S A Par - Bur\nF Bre - Mao\nA Par - Mun",
		"G": "A Mun - Bur\nA Ber - Kie\nF Kie - Den",
		"I": "A Ven H\nA Rom - Apu\nF Nap - Ion",
		"R": "A Mos - Ukr\nA War - Gal\nF Sev - Bla\nF Stp - Bot",
		"T": "F Ank - Bla\nA Con - Bul\nA Smy - Arm",
	}
	var results []*state.OutMail
	for _, l := range []string{"A", "E", "F", "G", "I", "R", "T"} {
		got := h.orders("dt", l, spring[l])
		if l == "F" {
			golden(t, "ack_error", onlyTo(t, got, addr))
		}
	}
	h.advance(time.Minute)
	results = h.tick()
	golden(t, "results_s1901", onlyTo(t, results, addr))

	fall := map[string]string{
		"A": "A Ser - Gre\nA Vie - Gal\nF Alb S A Ser - Gre",
		"E": "F Nth C A Yor - Nwy\nA Yor - Nwy\nF Nwg S A Yor - Nwy",
		"F": "A Bur - Bel\nF Mao - Spa/nc\nA Mar - Spa",
		"G": "F Den H\nA Kie - Hol\nA Mun - Ruh",
		"I": "A Apu - Tun\nF Ion C A Apu - Tun\nA Ven H",
		"R": "A Ukr - Rum\nA War - Gal\nF Sev - Rum\nF Bot - Swe",
		"T": "A Bul - Ser\nF Ank - Bla\nA Arm - Sev",
	}
	for _, l := range []string{"A", "E", "F", "G", "I", "R", "T"} {
		h.orders("dt", l, fall[l])
	}
	h.advance(time.Minute)
	results = h.tick()
	r := onlyTo(t, results, addr)
	if !strings.Contains(r.Body, "Ownership of supply centers:") {
		t.Errorf("the Fall results have no ownership table:\n%s", r.Body)
	}
	golden(t, "results_f1901", r)
}

package parser_test

import (
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/parser"
)

// typicalLines are orders as players write them, one a line.
var typicalLines = []string{
	"England: F Lon - Nth",
	"England: F Edi - Nrg",
	"England: A Lvp - Yor",
	"France: A Par - Bur",
	"France: A Mar S A Par - Bur",
	"France: F Bre - Mao",
	"Germany: A Mun - Ruh",
	"Germany: A Ber - Kie",
	"Germany: F Kie - Den",
	"Italy: A Ven H",
	"Italy: A Rom - Apu",
	"Italy: F Nap - Ion",
	"Austria: A Vie - Gal",
	"Austria: A Bud - Ser",
	"Austria: F Tri - Alb",
	"Russia: F Stp/sc - Bot",
	"Russia: A Mos - Ukr",
	"Russia: F Sev S A Mos - Ukr",
	"Turkey: F Ank - Bla",
	"Turkey: A Con - Bul",
	"Turkey: A Smy - Arm",
	"England: F Nth C A Lon - Nwy",
	"England: A Lon - Nth - Nwy",
	"F North Sea - Norwegian Sea",
}

func benchText(lines int) string {
	var b strings.Builder
	for i := 0; i < lines; i++ {
		b.WriteString(typicalLines[i%len(typicalLines)])
		b.WriteByte('\n')
	}
	return b.String()
}

// BenchmarkParseOrders parses a text of typical order lines and reports
// lines per second.
func BenchmarkParseOrders(b *testing.B) {
	m := variants.Standard()
	const lines = 1000
	src := benchText(lines)
	opt := parser.Options{Map: m, Power: judge.NoPower}
	if orders, errs := parser.ParseOrders(src, opt); len(errs) > 0 || len(orders) != lines {
		b.Fatalf("%d orders, errors: %v", len(orders), errs)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		parser.ParseOrders(src, opt)
	}
	b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

// BenchmarkParseOrder parses one order at a time, as for JSON fields.
func BenchmarkParseOrder(b *testing.B) {
	opt := parser.Options{Map: variants.Standard(), Power: judge.NoPower}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := parser.ParseOrder(typicalLines[i%len(typicalLines)], opt); err != nil {
			b.Fatal(err)
		}
	}
}

// TestParseOrdersAllocs keeps the hot path free of allocations: a text of
// many lines costs a fixed few (the result, and a route per convoy route),
// not a few per line.
func TestParseOrdersAllocs(t *testing.T) {
	m := variants.Standard()
	src := benchText(240) // 10 convoy routes
	opt := parser.Options{Map: m, Power: judge.NoPower}
	parser.ParseOrders(src, opt) // build the index
	allocs := testing.AllocsPerRun(20, func() { parser.ParseOrders(src, opt) })
	if allocs > 15 {
		t.Errorf("%v allocations for 240 lines", allocs)
	}
}

// TestConcurrent parses from several goroutines on a fresh map, so that
// the race detector sees the index being built and the parsers pooled.
func TestConcurrent(t *testing.T) {
	m := tinyMap(t)
	src := "England: F Lon - Nth, A Lvp H\nFrance\nA Par - Burg\nF Bre - Mid-Atlantic Ocean\n"
	opt := parser.Options{Map: m, Power: judge.NoPower}
	orders, errs := parser.ParseOrders(src, opt)
	want := render(m, orders, errs)
	if !strings.Contains(want, "France: F bre - mao") || !strings.Contains(want, "Burgundy") {
		t.Fatalf("unexpected result:\n%s", want)
	}
	m2 := tinyMap(t) // not indexed yet
	errc := make(chan string, 8)
	for g := 0; g < 8; g++ {
		go func() {
			for i := 0; i < 50; i++ {
				orders, errs := parser.ParseOrders(src, parser.Options{Map: m2, Power: judge.NoPower})
				got := render(m2, orders, errs)
				if got != want {
					errc <- got
					return
				}
			}
			errc <- ""
		}()
	}
	for g := 0; g < 8; g++ {
		if got := <-errc; got != "" {
			t.Errorf("concurrent parse:\n%s\nwant:\n%s", got, want)
		}
	}
}

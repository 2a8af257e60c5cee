package bot_test

import (
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/gmdjudge/gmd/bot"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// BenchmarkSearchPhase is one movement phase of the search player for one
// power at its default budget, on standard positions of the early and
// middle game: the figure to compare with the default time of a phase
// (500 ms on one core).
func BenchmarkSearchPhase(b *testing.B) {
	m := variants.Standard()
	var positions []*judge.Position
	for seed := uint64(0); len(positions) < 8; seed++ {
		pos := randomPosition(b, m, seed, 3+int(seed%12))
		if pos.Phase.Type == judge.Movement {
			positions = append(positions, pos)
		}
	}
	p, err := bot.New("search", bot.Config{Rules: judge.DATC30, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	n, used := 0, 0
	for b.Loop() {
		pos := positions[n%len(positions)]
		q := judge.Power(n / len(positions) % len(m.Powers))
		p.Orders(pos, q)
		used += p.(*bot.Search).Used
		n++
	}
	b.ReportMetric(float64(used)/float64(n), "adjudications/op")
}

// BenchmarkTournament is the strength tournament, opt-in: on the standard
// board, games to 1915 or a win with the seats rotated, the heuristic
// against six random players, and one search player (default budget)
// against six heuristic players. GMD_BOT_GAMES sets the games of each
// (200 by default); the two series run side by side.
//
//	go test -run '^$' -bench Tournament -benchtime 1x -timeout 60m -v ./bot
func BenchmarkTournament(b *testing.B) {
	games := 200
	if s := os.Getenv("GMD_BOT_GAMES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			b.Fatalf("GMD_BOT_GAMES=%q: want a number of games", s)
		}
		games = n
	}
	m := variants.Standard()
	series := [][]string{{"heuristic", "random"}, {"search", "heuristic"}}
	for b.Loop() {
		tables := make([]*bot.Table, len(series))
		errs := make([]error, len(series))
		var wg sync.WaitGroup
		for i, kinds := range series {
			wg.Go(func() {
				tables[i], errs[i] = bot.Series(m, judge.DATC30, kinds, games, 1915, 1901, bot.DefaultBudget)
			})
		}
		wg.Wait()
		for i, t := range tables {
			if errs[i] != nil {
				b.Fatal(errs[i])
			}
			b.Logf("%s against %s:\n%s", series[i][0], series[i][1], t)
		}
		hero := tables[0].Rows[0]
		b.ReportMetric(100*float64(hero.Leads)/float64(hero.Seats), "heuristic-leads-%")
		hero, rest := tables[1].Rows[0], tables[1].Rows[1]
		b.ReportMetric((float64(hero.Centres)/float64(hero.Seats))/(float64(rest.Centres)/float64(rest.Seats)), "search/heuristic-centres")
		b.ReportMetric(float64(hero.Solos), "search-solos")
		b.ReportMetric(float64(rest.Solos), "heuristic-solos")
	}
}

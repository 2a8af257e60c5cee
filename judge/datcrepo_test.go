package judge_test

// The repository's own DATC suite: every test case of section 6 of the
// DATC 3.0 document, in testdata/datc (the format is in its README.md),
// run under each rule set its RULES line names. Cases with THEN lines are
// chained: each later phase is played from the judge's own next position,
// and a retreat phase is played a second time on its own, from a position
// built from the file, so that the judge's retreat context and the file's
// must both give the document's outcome.
//
//	go test ./judge -run 'TestDATC/repo' -v                  all, with counts
//	go test ./judge -run 'TestDATC/repo/datc-3.0/6H/6.H.9'  one case

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// repoDATCDir holds the suite, seen from the package directory.
const repoDATCDir = "testdata/datc"

// datcSectionSizes is the number of test cases in each subsection of
// section 6 of the DATC 3.0 document: 164 in all.
var datcSectionSizes = map[string]int{"A": 12, "B": 15, "C": 9, "D": 34, "E": 15,
	"F": 25, "G": 20, "H": 16, "I": 7, "J": 11}

// datcRuleSets are the rule sets a RULES line may name.
var datcRuleSets = map[string]judge.Rules{judge.DATC30.Name: judge.DATC30, judge.DATC24.Name: judge.DATC24}

// datcNumberRE reads a case's DATC number from the start of its label:
// "6.H.9", or "6.J.9.part1" for a case the suite splits in two.
var datcNumberRE = regexp.MustCompile(`^6\.([A-J])\.([0-9]+)(\.[a-z0-9]+)?$`)

// readRepoDATC reads every file of the suite. A file that does not read,
// or a suite with no files, fails the test: these cases are required.
func readRepoDATC(tb testing.TB) []*datcFile {
	tb.Helper()
	paths, err := filepath.Glob(filepath.Join(repoDATCDir, "*.txt"))
	if err != nil {
		tb.Fatal(err)
	}
	if len(paths) == 0 {
		tb.Fatalf("no DATC cases in %s", repoDATCDir)
	}
	var files []*datcFile
	for _, p := range paths {
		df, err := readDATCFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		files = append(files, df)
	}
	return files
}

// repoStats counts what the suite ran, for the summary line.
type repoStats struct {
	cases   int            // CASE blocks
	runs    map[string]int // by rule set
	chained int            // cases with THEN
	alone   int            // retreat phases also played on their own
	checks  int            // per-order checks
	refused int            // "#= refused" orders refused
}

// runRepoDATC runs the suite under every rule set.
func runRepoDATC(t *testing.T, st *repoStats) {
	m := variants.Standard()
	files := readRepoDATC(t)
	for _, df := range files {
		st.cases += len(df.cases)
		for _, c := range df.cases {
			if len(c.then) > 0 {
				st.chained++
			}
		}
	}
	for _, name := range []string{judge.DATC30.Name, judge.DATC24.Name} {
		rules := datcRuleSets[name]
		t.Run(name, func(t *testing.T) {
			for _, df := range files {
				t.Run(strings.TrimSuffix(filepath.Base(df.path), ".txt"), func(t *testing.T) {
					for _, c := range df.cases {
						if !slices.Contains(c.rules, name) {
							continue
						}
						st.runs[name]++
						t.Run(datcTestName(c.label), func(t *testing.T) {
							runRepoCase(t, c, m, rules, st)
						})
					}
				})
			}
		})
	}
}

// runRepoCase plays one case: its first phase, each THEN phase from the
// judge's own result, and each retreat phase again on its own.
func runRepoCase(t *testing.T, c *datcCase, m *judge.Map, rules judge.Rules, st *repoStats) {
	r, err := buildDATCRun(c, m, false)
	if err != nil {
		t.Fatalf("case %q: %v", c.label, err)
	}
	res := runRepoPhase(t, r, rules, st)

	prevCase, prev := c, &c.datcPhaseData
	for i, step := range c.then {
		if res == nil || res.Next == nil {
			t.Fatalf("case %q: no next position for THEN (line %d)", c.label, step.line)
		}
		if res.Next.Phase != step.phase {
			t.Fatalf("case %q, line %d: THEN %v, but the judge's next phase is %v", c.label, step.line, step.phase, res.Next.Phase)
		}
		sc := &datcCase{path: c.path, line: step.line, label: fmt.Sprintf("%s, then %v", c.label, step.phase),
			phase: step.phase, datcPhaseData: step.datcPhaseData}
		sr := &datcRun{c: sc, m: m, pos: res.Next}
		if err := sr.addPhase(&step.datcPhaseData, false); err != nil {
			t.Fatalf("case %q: %v", c.label, err)
		}
		t.Run(fmt.Sprintf("then%d_%v", i+1, step.phase), func(t *testing.T) {
			res = runRepoPhase(t, sr, rules, st)
		})

		if step.phase.Type == judge.Retreat && i == 0 {
			alone, err := aloneRetreatCase(c, prevCase, prev, step, m)
			if err != nil {
				t.Fatalf("case %q: %v", c.label, err)
			}
			ar, err := buildDATCRun(alone, m, false)
			if err != nil {
				t.Fatalf("case %q, the retreat on its own: %v", c.label, err)
			}
			st.alone++
			t.Run(fmt.Sprintf("alone_%v", step.phase), func(t *testing.T) {
				runRepoPhase(t, ar, rules, st)
			})
		}
		prevCase, prev = sc, &step.datcPhaseData
	}
}

// runRepoPhase reports the orders that did not parse (in our own files
// every order parses unless marked "#= refused") and adjudicates.
func runRepoPhase(t *testing.T, r *datcRun, rules judge.Rules, st *repoStats) *judge.Resolution {
	t.Helper()
	for _, d := range r.dropped {
		t.Errorf("%s:%d: %q does not parse: %v (mark it #= refused if the parser must refuse it)", r.c.path, d.line, d.text, d.err)
	}
	st.checks += len(r.checks)
	st.refused += r.refused
	return runDATCCase(t, r, rules)
}

// aloneRetreatCase builds the retreat phase of a chained case as a case of
// its own, the way the shared corpus writes retreat cases: the units and
// dislodged units the file expects after the movement, and the movement's
// orders as SUCCESS and FAILURE lines from their annotations. Every move
// of that movement must carry one.
func aloneRetreatCase(c, prevCase *datcCase, prev *datcPhaseData, step *datcStep, m *judge.Map) (*datcCase, error) {
	a := &datcCase{path: c.path, line: step.line, label: c.label + ", the retreat on its own",
		phase: step.phase, owners: c.owners, hasOwners: c.hasOwners,
		prestate: prev.post, dislodged: prev.postDislodged, datcPhaseData: step.datcPhaseData}
	if prev.same {
		a.prestate, a.dislodged = prevCase.prestate, nil
	}
	probe := &datcRun{c: prevCase, m: m}
	for _, od := range prev.orders {
		name := datcAnnotation(od.comment)
		if name == "refused" {
			continue
		}
		o, ok, err := probe.parse(od.line, od.power, od.text, judge.Movement)
		if err != nil {
			return nil, err
		}
		if !ok || o.Kind != judge.Move {
			continue
		}
		if name == "" {
			return nil, fmt.Errorf("%s:%d: a move before THEN needs its outcome (#= …): the retreat on its own is built from it", c.path, od.line)
		}
		a.results = append(a.results, datcResult{line: od.line, success: name == judge.Succeeds.String(), power: od.power, text: od.text})
	}
	return a, nil
}

// TestDATCRepoComplete checks the suite itself: every case names known
// rule sets, no case is there twice for one rule set, and every test case
// of 6.A–6.J is there under datc-3.0.
func TestDATCRepoComplete(t *testing.T) {
	files := readRepoDATC(t)
	type key struct{ number, rules string }
	seen := map[key]string{}
	numbers := map[string]bool{} // "6.H.9" under datc-3.0
	for _, df := range files {
		for _, c := range df.cases {
			where := fmt.Sprintf("%s:%d: case %q", df.path, c.line, c.label)
			if len(c.rules) == 0 {
				t.Errorf("%s has no RULES line", where)
			}
			number := strings.Fields(c.label)[0]
			mm := datcNumberRE.FindStringSubmatch(number)
			if mm == nil {
				t.Errorf("%s: the label does not start with a DATC number (6.X.n)", where)
				continue
			}
			base := "6." + mm[1] + "." + mm[2]
			if n, _ := strconv.Atoi(mm[2]); n < 1 || n > datcSectionSizes[mm[1]] {
				t.Errorf("%s: section 6.%s has %d cases", where, mm[1], datcSectionSizes[mm[1]])
			}
			if want := "6" + mm[1] + ".txt"; filepath.Base(df.path) != want {
				t.Errorf("%s belongs in %s", where, want)
			}
			for _, rs := range c.rules {
				if _, ok := datcRuleSets[rs]; !ok {
					t.Errorf("%s: unknown rule set %q", where, rs)
				}
				k := key{number, rs}
				if other, dup := seen[k]; dup {
					t.Errorf("%s: %s under %s is already %s", where, number, rs, other)
				}
				seen[k] = where
				if rs == judge.DATC30.Name {
					numbers[base] = true
				}
			}
		}
	}
	for sec, n := range datcSectionSizes {
		for i := 1; i <= n; i++ {
			if num := fmt.Sprintf("6.%s.%d", sec, i); !numbers[num] {
				t.Errorf("%s is missing under datc-3.0", num)
			}
		}
	}
	t.Logf("DATC 3.0 section 6: %d of 164 test cases present", len(numbers))
}

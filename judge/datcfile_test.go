package judge_test

// This file reads DATC test files in the godip flavour of the jDip text
// format (see ../../shared/datc/FORMAT.md). The reader knows no map: it
// keeps powers, provinces and orders as the text wrote them, with line
// numbers, so that every later error can point at file:line. Turning a
// case into a judge.Position and judge.Orders is datc_test.go's business.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// datcFile is one test file as read.
//
// Our own files (testdata/datc) extend the format with a RULES line, the
// rule sets a case holds under, and THEN lines that chain phases: each
// THEN starts a phase played from the judge's own result of the one
// before, with ORDERS and expectations of its own.
type datcFile struct {
	path    string
	variant string // from VARIANT_ALL; empty if the file has none
	cases   []*datcCase
}

// datcCase is one CASE … END block.
type datcCase struct {
	path  string // the file, for messages
	line  int    // of the CASE line
	label string

	// phase is the phase of the starting position. A case without a
	// PRESTATE_SETPHASE line is Spring 1901 Movement (godip's harness does
	// the same); phaseSet tells the two apart.
	phase    judge.Phase
	phaseSet bool

	// owners lists the PRESTATE_SUPPLYCENTER_OWNERS lines (only power and
	// province count); hasOwners tells "no section" from "empty section".
	owners    []datcUnit
	hasOwners bool

	prestate  []datcUnit
	dislodged []datcUnit   // PRESTATE_DISLODGED
	results   []datcResult // PRESTATE_RESULTS

	// rules lists the RULES line's rule sets (our own files only).
	rules []string

	datcPhaseData // the first phase's orders and expectations

	// then holds the phases chained after the first one.
	then []*datcStep
}

// datcPhaseData is what a case says of one phase: its orders and the
// expected units afterwards.
type datcPhaseData struct {
	orders []datcOrder

	// same is set by POSTSTATE_SAME; otherwise post and postDislodged are
	// the expected units.
	same          bool
	post          []datcUnit
	postDislodged []datcUnit
}

// datcStep is a THEN block: a phase played from the judge's own next
// position after the phase before it.
type datcStep struct {
	line  int // of the THEN line
	phase judge.Phase
	datcPhaseData
}

// datcUnit is a "<Power>: <A|F> <prov>" line.
type datcUnit struct {
	line  int
	power string
	typ   judge.UnitType
	loc   string
}

// datcOrder is a "<Power>: <order>" line of the ORDERS section. comment is
// the text after '#', trimmed, without the '#'.
type datcOrder struct {
	line    int
	power   string
	text    string
	comment string
}

// datcResult is a "SUCCESS: <Power>: <order>" or "FAILURE: …" line.
type datcResult struct {
	line    int
	success bool
	power   string
	text    string
}

// datcSection is the part of a case that data lines belong to.
type datcSection uint8

const (
	datcSecNone datcSection = iota
	datcSecOwners
	datcSecPrestate
	datcSecDislodged
	datcSecResults
	datcSecOrders
	datcSecPost
	datcSecPostDislodged
	datcSecPostSame // no data lines allowed
)

var datcSectionKeywords = map[string]datcSection{
	"PRESTATE_SUPPLYCENTER_OWNERS": datcSecOwners,
	"PRESTATE":                     datcSecPrestate,
	"PRESTATE_DISLODGED":           datcSecDislodged,
	"PRESTATE_RESULTS":             datcSecResults,
	"ORDERS":                       datcSecOrders,
	"POSTSTATE":                    datcSecPost,
	"POSTSTATE_DISLODGED":          datcSecPostDislodged,
	"POSTSTATE_SAME":               datcSecPostSame,
}

// readDATCFile reads one test file.
func readDATCFile(path string) (*datcFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseDATC(path, f)
}

// parseDATC reads test cases from r; name is used in error messages.
func parseDATC(name string, r io.Reader) (*datcFile, error) {
	df := &datcFile{path: name}
	var c *datcCase
	var cur *datcPhaseData // the phase that ORDERS and POSTSTATE lines fill
	sec := datcSecNone
	seen := map[datcSection]bool{}
	errf := func(line int, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}

	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	n := 0
	for sc.Scan() {
		n++
		data, comment, _ := strings.Cut(strings.TrimRight(sc.Text(), "\r"), "#")
		data = strings.TrimSpace(data)
		if data == "" {
			continue
		}
		word, rest := data, ""
		if i := strings.IndexAny(data, " \t"); i >= 0 {
			word, rest = data[:i], strings.TrimSpace(data[i+1:])
		}
		kw := strings.ToUpper(word)

		switch kw {
		case "VARIANT_ALL":
			if c != nil {
				return nil, errf(n, "VARIANT_ALL inside case %q", c.label)
			}
			if rest == "" {
				return nil, errf(n, "VARIANT_ALL without a variant name")
			}
			df.variant = rest
			continue
		case "CASE":
			if c != nil {
				return nil, errf(n, "CASE before the END of case %q (line %d)", c.label, c.line)
			}
			if rest == "" {
				return nil, errf(n, "CASE without a label")
			}
			c = &datcCase{path: name, line: n, label: rest,
				phase: judge.Phase{Season: judge.Spring, Year: 1901, Type: judge.Movement}}
			cur = &c.datcPhaseData
			sec = datcSecNone
			clear(seen)
			continue
		}
		if c == nil {
			return nil, errf(n, "%q outside a case", data)
		}

		if kw == "PRESTATE_SETPHASE" {
			if c.phaseSet {
				return nil, errf(n, "second PRESTATE_SETPHASE")
			}
			if seen[datcSecOrders] {
				return nil, errf(n, "PRESTATE_SETPHASE after ORDERS")
			}
			p, err := parseDATCPhase(rest)
			if err != nil {
				return nil, errf(n, "%v", err)
			}
			c.phase, c.phaseSet = p, true
			continue
		}
		if kw == "RULES" {
			if c.rules != nil {
				return nil, errf(n, "second RULES line")
			}
			if seen[datcSecOrders] {
				return nil, errf(n, "RULES after ORDERS")
			}
			c.rules = strings.Fields(rest)
			if len(c.rules) == 0 {
				return nil, errf(n, "RULES without a rule set")
			}
			continue
		}
		if kw == "THEN" {
			if !seen[datcSecPost] && !seen[datcSecPostSame] {
				return nil, errf(n, "THEN before the phase above it has ORDERS and POSTSTATE")
			}
			p, err := parseDATCPhase(rest)
			if err != nil {
				return nil, errf(n, "%v", err)
			}
			st := &datcStep{line: n, phase: p}
			c.then = append(c.then, st)
			cur = &st.datcPhaseData
			for _, s := range []datcSection{datcSecOrders, datcSecPost, datcSecPostDislodged, datcSecPostSame} {
				delete(seen, s)
			}
			sec = datcSecNone
			continue
		}
		if kw == "END" {
			if rest != "" {
				return nil, errf(n, "text after END: %q", rest)
			}
			if !seen[datcSecOrders] {
				return nil, errf(n, "case %q has no ORDERS section", c.label)
			}
			if !seen[datcSecPost] && !seen[datcSecPostSame] {
				return nil, errf(n, "case %q has neither POSTSTATE nor POSTSTATE_SAME", c.label)
			}
			df.cases = append(df.cases, c)
			c = nil
			continue
		}
		if s, ok := datcSectionKeywords[kw]; ok {
			if rest != "" {
				return nil, errf(n, "text after %s: %q", kw, rest)
			}
			if seen[s] {
				return nil, errf(n, "second %s section", kw)
			}
			// The sections before ORDERS may come in any order (dipai.txt
			// puts the owners after PRESTATE); the expectations come after
			// ORDERS, and POSTSTATE_DISLODGED only after POSTSTATE.
			switch s {
			case datcSecOwners, datcSecPrestate, datcSecDislodged, datcSecResults:
				if seen[datcSecOrders] || len(c.then) > 0 {
					return nil, errf(n, "%s after ORDERS", kw)
				}
			case datcSecPost, datcSecPostSame:
				if !seen[datcSecOrders] {
					return nil, errf(n, "%s before ORDERS", kw)
				}
				if seen[datcSecPost] || seen[datcSecPostSame] {
					return nil, errf(n, "%s after another POSTSTATE section", kw)
				}
			case datcSecPostDislodged:
				if !seen[datcSecPost] {
					return nil, errf(n, "POSTSTATE_DISLODGED without POSTSTATE")
				}
			}
			seen[s] = true
			sec = s
			switch s {
			case datcSecOwners:
				c.hasOwners = true
			case datcSecPostSame:
				cur.same = true
			}
			continue
		}

		// A data line.
		switch sec {
		case datcSecNone:
			return nil, errf(n, "%q before any section keyword", data)
		case datcSecPostSame:
			return nil, errf(n, "%q after POSTSTATE_SAME", data)
		case datcSecOrders:
			power, text, err := datcSplitPower(data)
			if err != nil {
				return nil, errf(n, "%v", err)
			}
			cur.orders = append(cur.orders, datcOrder{line: n, power: power, text: text,
				comment: strings.TrimSpace(comment)})
		case datcSecResults:
			res, err := parseDATCResult(data)
			if err != nil {
				return nil, errf(n, "%v", err)
			}
			res.line = n
			c.results = append(c.results, res)
		default:
			u, err := parseDATCUnit(data)
			if err != nil {
				return nil, errf(n, "%v", err)
			}
			u.line = n
			switch sec {
			case datcSecOwners:
				c.owners = append(c.owners, u)
			case datcSecPrestate:
				c.prestate = append(c.prestate, u)
			case datcSecDislodged:
				c.dislodged = append(c.dislodged, u)
			case datcSecPost:
				cur.post = append(cur.post, u)
			case datcSecPostDislodged:
				cur.postDislodged = append(cur.postDislodged, u)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if c != nil {
		return nil, errf(n, "end of file inside case %q (line %d): no END", c.label, c.line)
	}
	return df, nil
}

// parseDATCPhase reads "Spring 1901, Movement". An adjustment is a Winter
// phase in package judge, whatever season the file names ("Fall 1901,
// Adjustment" is W1901A).
func parseDATCPhase(s string) (judge.Phase, error) {
	f := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	if len(f) != 3 {
		return judge.Phase{}, fmt.Errorf("phase %q: want <Season> <Year>, <Type>", s)
	}
	var p judge.Phase
	switch strings.ToLower(f[0]) {
	case "spring":
		p.Season = judge.Spring
	case "fall", "autumn":
		p.Season = judge.Fall
	case "winter":
		p.Season = judge.Winter
	default:
		return judge.Phase{}, fmt.Errorf("phase %q: unknown season %q", s, f[0])
	}
	y, err := strconv.Atoi(f[1])
	if err != nil || y < 1 {
		return judge.Phase{}, fmt.Errorf("phase %q: bad year %q", s, f[1])
	}
	p.Year = y
	switch strings.ToLower(f[2]) {
	case "movement":
		p.Type = judge.Movement
	case "retreat":
		p.Type = judge.Retreat
	case "adjustment":
		p.Type = judge.Adjustment
		p.Season = judge.Winter
	default:
		return judge.Phase{}, fmt.Errorf("phase %q: unknown phase type %q", s, f[2])
	}
	if p.Season == judge.Winter && p.Type != judge.Adjustment {
		return judge.Phase{}, fmt.Errorf("phase %q: only adjustments happen in Winter", s)
	}
	return p, nil
}

// datcSplitPower splits "<Power>: <rest>". Two PRESTATE lines of the 2.4 file
// lack the colon ("Italy F gol"); then the power is the first word. The one
// misspelt power of the corpus, "Germnay" (6.A.5), is read as Germany, as
// godip's harness does.
func datcSplitPower(s string) (power, rest string, err error) {
	if p, r, ok := strings.Cut(s, ":"); ok {
		power, rest = strings.TrimSpace(p), strings.TrimSpace(r)
	} else if f := strings.Fields(s); len(f) > 0 {
		power, rest = f[0], strings.TrimSpace(s[len(f[0]):])
	}
	if power == "" || strings.ContainsAny(power, " \t") {
		return "", "", fmt.Errorf("%q: want <Power>: …", s)
	}
	if rest == "" {
		return "", "", fmt.Errorf("%q: nothing after the power", s)
	}
	if strings.EqualFold(power, "Germnay") {
		power = "Germany"
	}
	return power, rest, nil
}

// parseDATCUnit reads "<Power>: <A|F> <prov>".
func parseDATCUnit(s string) (datcUnit, error) {
	power, rest, err := datcSplitPower(s)
	if err != nil {
		return datcUnit{}, err
	}
	f := strings.Fields(rest)
	if len(f) != 2 {
		return datcUnit{}, fmt.Errorf("%q: want <Power>: <A|F> <province>", s)
	}
	u := datcUnit{power: power, loc: strings.ToLower(f[1])}
	switch strings.ToUpper(f[0]) {
	case "A":
		u.typ = judge.Army
	case "F":
		u.typ = judge.Fleet
	default:
		return datcUnit{}, fmt.Errorf("%q: unit type must be A or F", s)
	}
	return u, nil
}

// parseDATCResult reads "SUCCESS: <Power>: <order>" or "FAILURE: …".
func parseDATCResult(s string) (datcResult, error) {
	word, rest, ok := strings.Cut(s, ":")
	if !ok {
		return datcResult{}, fmt.Errorf("%q: want SUCCESS: or FAILURE: <Power>: <order>", s)
	}
	var r datcResult
	switch strings.ToUpper(strings.TrimSpace(word)) {
	case "SUCCESS":
		r.success = true
	case "FAILURE":
	default:
		return datcResult{}, fmt.Errorf("%q: want SUCCESS: or FAILURE: <Power>: <order>", s)
	}
	power, text, err := datcSplitPower(strings.TrimSpace(rest))
	if err != nil {
		return datcResult{}, err
	}
	r.power, r.text = power, text
	return r, nil
}

// defaultDATCDir is where the shared godip DATC files are, seen from the
// judge package directory (the working directory of its tests).
const defaultDATCDir = "../../shared/datc"

// datcDir returns the directory of the shared DATC 2.4 corpus (env
// GMD_DATC_DIR, else defaultDATCDir) and whether it is the default shared
// directory. The corpus is an extra: the repository's own suite
// (testdata/datc) holds every DATC case, so a missing directory skips the
// tests of the corpus, never those of the suite.
func datcDir(tb testing.TB) (dir string, isDefault bool) {
	tb.Helper()
	dir = os.Getenv("GMD_DATC_DIR")
	if dir == "" {
		dir = defaultDATCDir
	}
	abs, err1 := filepath.Abs(dir)
	def, err2 := filepath.Abs(defaultDATCDir)
	isDefault = err1 == nil && err2 == nil && abs == def
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		if err == nil {
			err = errors.New("not a directory")
		}
		tb.Skipf("shared DATC corpus %s: %v (the repository's own suite still runs; set GMD_DATC_DIR for the corpus)", dir, err)
	}
	return dir, isDefault
}

// readDATCDir reads every *.txt file of dir, in name order.
func readDATCDir(dir string) ([]*datcFile, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		return nil, err
	}
	var files []*datcFile
	for _, p := range paths {
		df, err := readDATCFile(p)
		if err != nil {
			return nil, err
		}
		files = append(files, df)
	}
	return files, nil
}

// TestDATCReader reads the shared corpus and checks it against the counts
// that FORMAT.md states, so that a reader bug that loses or merges cases
// cannot hide behind passing adjudications.
func TestDATCReader(t *testing.T) {
	dir, isDefault := datcDir(t)
	if !isDefault {
		t.Skip("GMD_DATC_DIR is not the shared corpus; the counts below are the shared corpus's")
	}
	files, err := readDATCDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"datc_v2.4_06.txt": 167, "dipai.txt": 9, "real.txt": 4,
		"droidippy_errors.txt": 4, "diplicity_errors.txt": 1}
	got := map[string]int{}
	byName := map[string]*datcFile{}
	total := 0
	for _, df := range files {
		base := filepath.Base(df.path)
		got[base] = len(df.cases)
		byName[base] = df
		total += len(df.cases)
		if !strings.EqualFold(df.variant, "Standard") {
			t.Errorf("%s: VARIANT_ALL %q, want Standard", base, df.variant)
		}
	}
	for name, n := range want {
		if got[name] != n {
			t.Errorf("%s: %d cases, want %d", name, got[name], n)
		}
	}
	if len(got) != len(want) {
		t.Errorf("files %v, want exactly %v", got, want)
	}
	if total != 185 {
		t.Errorf("%d cases in all, want 185", total)
	}

	df := byName["datc_v2.4_06.txt"]
	if df == nil {
		t.Fatal("datc_v2.4_06.txt missing")
	}
	types := map[judge.PhaseType]int{}
	noPhase := 0
	labels := map[string]*datcCase{}
	for _, c := range df.cases {
		types[c.phase.Type]++
		if !c.phaseSet {
			noPhase++
			if c.phase != (judge.Phase{Season: judge.Spring, Year: 1901, Type: judge.Movement}) {
				t.Errorf("%s: phase %v without PRESTATE_SETPHASE, want S1901M", c.label, c.phase)
			}
		}
		if c.same && c.phase.Type != judge.Movement {
			// POSTSTATE_SAME copies the prestate dislodged units into the
			// expectation; that only makes sense where there are none.
			t.Errorf("%s: POSTSTATE_SAME in a %v case", c.label, c.phase.Type)
		}
		if c.phase.Type == judge.Adjustment && !c.hasOwners {
			t.Errorf("%s: adjustment case without PRESTATE_SUPPLYCENTER_OWNERS", c.label)
		}
		if _, dup := labels[c.label]; !dup {
			labels[c.label] = c
		}
	}
	if types[judge.Movement] != 130 || types[judge.Retreat] != 17 || types[judge.Adjustment] != 20 {
		t.Errorf("phase types %v, want 130 Movement, 17 Retreat, 20 Adjustment", types)
	}
	if noPhase != 5 {
		t.Errorf("%d cases without PRESTATE_SETPHASE, want 5 (6.G.14-6.G.18)", noPhase)
	}

	// No fleet is written without its coast on a split-coast province of
	// the standard map, in any file: the prestate could not be built, and
	// an expectation would be ambiguous.
	for _, f := range files {
		for _, c := range f.cases {
			for _, list := range [][]datcUnit{c.prestate, c.dislodged, c.post, c.postDislodged} {
				for _, u := range list {
					if u.typ == judge.Fleet && (u.loc == "stp" || u.loc == "spa" || u.loc == "bul") {
						t.Errorf("%s:%d: fleet in %s without a coast", f.path, u.line, u.loc)
					}
				}
			}
		}
	}

	// Spot checks of lines that the format notes call out.
	if c := labels["6.A.5 (Move to own sector with convoy)"]; c == nil || len(c.orders) != 5 ||
		c.orders[4].power != "Germany" || c.orders[4].text != "A wal SUPPORTS F lon-yor" {
		t.Errorf("6.A.5: the Germnay order line was not read as Germany: %+v", c)
	}
	if c := labels["6.B.6"]; c == nil || len(c.post) != 4 || c.post[0] != (datcUnit{line: c.post[0].line, power: "Italy", typ: judge.Fleet, loc: "gol"}) ||
		len(c.postDislodged) != 1 || c.postDislodged[0].power != "France" || c.postDislodged[0].typ != judge.Fleet || c.postDislodged[0].loc != "mid" {
		t.Errorf("6.B.6: colon-less lines misread: %+v", c)
	}
	if c := labels["6.B.14"]; c == nil || c.phase != (judge.Phase{Season: judge.Winter, Year: 1901, Type: judge.Adjustment}) ||
		len(c.owners) != 2 || len(c.prestate) != 1 || len(c.orders) != 1 || c.orders[0].text != "Build F stp" ||
		c.orders[0].comment != "no coast specified in a multi-coastal area" {
		t.Errorf("6.B.14 misread: %+v", c)
	}
	if c := labels["6.H.12"]; c == nil || c.phase.Type != judge.Retreat || len(c.dislodged) != 2 || len(c.results) != 10 ||
		c.results[0].success || c.results[0].text != "A lvp-edi via convoy" || !c.results[1].success {
		t.Errorf("6.H.12 misread: %+v", c)
	}
	if c := labels["6.G.16. TEST CASE, THE TWO UNIT IN ONE AREA BUG, MOVING via convoy"]; c == nil ||
		c.phaseSet || len(c.post) != 7 || len(c.postDislodged) != 0 {
		t.Errorf("6.G.16 misread: %+v", c)
	}
	if c := labels["6.F.17 (Pandin's extended paradox)"]; c == nil || !c.same || len(c.post) != 0 {
		t.Errorf("6.F.17: POSTSTATE_SAME with commented-out alternatives misread: %+v", c)
	}
	if c := labels["6.J.3"]; c == nil || len(c.orders) != 0 || len(c.post) != 3 || len(c.owners) != 3 {
		t.Errorf("6.J.3: empty ORDERS section misread: %+v", c)
	}
	// dipai.txt puts the owners after PRESTATE.
	dp := byName["dipai.txt"]
	if dp == nil || len(dp.cases) != 9 || len(dp.cases[3].owners) != 22 || len(dp.cases[3].prestate) != 18 ||
		dp.cases[3].label != "DipAI:F01B" {
		t.Errorf("dipai.txt DipAI:F01B misread")
	}
}

// TestDATCParseErrors checks that malformed files are refused with the
// file and line of the fault.
func TestDATCParseErrors(t *testing.T) {
	const head = "VARIANT_ALL Standard\nCASE x\nPRESTATE\n  England: F lon\nORDERS\n"
	for _, tc := range []struct {
		name, text, want string
	}{
		{"no END", head + "POSTSTATE_SAME\n", "f.txt:6: end of file inside case"},
		{"CASE inside case", head + "POSTSTATE_SAME\nCASE y\n", "f.txt:7: CASE before the END"},
		{"no ORDERS", "CASE x\nPRESTATE\nPOSTSTATE_SAME\nEND\n", "f.txt:3: POSTSTATE_SAME before ORDERS"},
		{"no expectation", head + "END\n", "f.txt:6: case \"x\" has neither"},
		{"bad phase", "CASE x\nPRESTATE_SETPHASE Spring 1901, Dancing\n", "f.txt:2: phase"},
		{"winter movement", "CASE x\nPRESTATE_SETPHASE Winter 1901, Movement\n", "f.txt:2: phase"},
		{"bad unit type", "CASE x\nPRESTATE\n  England: X lon\n", "f.txt:3: \"England: X lon\": unit type"},
		{"unit line too long", "CASE x\nPRESTATE\n  England: F lon nth\n", "f.txt:3:"},
		{"data outside case", "England: F lon\n", "f.txt:1: \"England: F lon\" outside a case"},
		{"data before section", "CASE x\nEngland: F lon\n", "f.txt:2: \"England: F lon\" before any section"},
		{"data after SAME", head + "POSTSTATE_SAME\n England: F lon\n", "f.txt:7: \"England: F lon\" after POSTSTATE_SAME"},
		{"SAME and POSTSTATE", head + "POSTSTATE_SAME\nPOSTSTATE\n", "f.txt:7: POSTSTATE after another"},
		{"dislodged before post", head + "POSTSTATE_DISLODGED\n", "f.txt:6: POSTSTATE_DISLODGED without POSTSTATE"},
		{"prestate after orders", head + "PRESTATE\n", "f.txt:6: second PRESTATE"},
		{"results after orders", head + "PRESTATE_RESULTS\n", "f.txt:6: PRESTATE_RESULTS after ORDERS"},
		{"bad result", "CASE x\nPRESTATE_RESULTS\n  MAYBE: England: F lon H\n", "f.txt:3:"},
		{"order without power", head + "  : F lon H\n", "f.txt:6:"},
		{"order without text", head + "  England:\n", "f.txt:6: \"England:\": nothing after the power"},
		{"RULES twice", "CASE x\nRULES datc-3.0\nRULES datc-2.4\n", "f.txt:3: second RULES line"},
		{"RULES empty", "CASE x\nRULES\n", "f.txt:2: RULES without a rule set"},
		{"RULES after ORDERS", head + "RULES datc-3.0\n", "f.txt:6: RULES after ORDERS"},
		{"THEN too early", head + "THEN Spring 1901, Retreat\n", "f.txt:6: THEN before"},
		{"THEN bad phase", head + "POSTSTATE_SAME\nTHEN Spring 1901, Dancing\n", "f.txt:7: phase"},
		{"THEN without orders", head + "POSTSTATE_SAME\nTHEN Spring 1901, Retreat\nEND\n", "f.txt:8: case \"x\" has no ORDERS"},
		{"owners after THEN", head + "POSTSTATE_SAME\nTHEN Spring 1901, Retreat\nPRESTATE_SUPPLYCENTER_OWNERS\n", "f.txt:8: PRESTATE_SUPPLYCENTER_OWNERS after ORDERS"},
	} {
		_, err := parseDATC("f.txt", strings.NewReader(tc.text))
		if err == nil {
			t.Errorf("%s: no error, want %q", tc.name, tc.want)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %q, want it to contain %q", tc.name, err, tc.want)
		}
	}
}

// TestDATCParseChained reads a case with RULES and two THEN phases, and
// checks that each phase's orders and expectations land in that phase.
func TestDATCParseChained(t *testing.T) {
	text := strings.Join([]string{
		"CASE 6.H.9 chained",
		"RULES datc-3.0 datc-2.4",
		"PRESTATE",
		"  Russia: A pru",
		"ORDERS",
		"  Russia: A pru - ber  #= succeeds",
		"POSTSTATE",
		"  Russia: A ber",
		"THEN Spring 1901, Retreat",
		"ORDERS",
		"  Germany: F kie - ber  #= refused",
		"POSTSTATE",
		"  Russia: A ber",
		"POSTSTATE_DISLODGED",
		"THEN Fall 1901, Movement",
		"ORDERS",
		"POSTSTATE_SAME",
		"END",
	}, "\n")
	df, err := parseDATC("c.txt", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	c := df.cases[0]
	if !slices.Equal(c.rules, []string{"datc-3.0", "datc-2.4"}) {
		t.Errorf("rules %q", c.rules)
	}
	if len(c.orders) != 1 || c.orders[0].text != "A pru - ber" || c.orders[0].comment != "= succeeds" ||
		len(c.post) != 1 || c.same {
		t.Errorf("first phase: %+v", c.datcPhaseData)
	}
	if len(c.then) != 2 {
		t.Fatalf("%d THEN phases, want 2", len(c.then))
	}
	s1, s2 := c.then[0], c.then[1]
	if s1.line != 9 || s1.phase != (judge.Phase{Season: judge.Spring, Year: 1901, Type: judge.Retreat}) ||
		len(s1.orders) != 1 || s1.orders[0].power != "Germany" || len(s1.post) != 1 || len(s1.postDislodged) != 0 || s1.same {
		t.Errorf("second phase: %+v", s1)
	}
	if s2.phase != (judge.Phase{Season: judge.Fall, Year: 1901, Type: judge.Movement}) || !s2.same || len(s2.orders) != 0 {
		t.Errorf("third phase: %+v", s2)
	}
	if datcAnnotation(s1.orders[0].comment) != "refused" || datcAnnotation("no annotation") != "" {
		t.Errorf("datcAnnotation misreads")
	}
}

// TestDATCParseSmall reads a small file exercising every section and checks
// every field, including comments, missing colons and CRLF line ends.
func TestDATCParseSmall(t *testing.T) {
	text := strings.Join([]string{
		"# header",
		"VARIANT_ALL Standard",
		"",
		"CASE 1.A first  # a comment",
		"PRESTATE_SETPHASE  Fall 1902, retreat\t# why",
		"PRESTATE",
		"\tEngland: F nth",
		"\tfrance f mid",
		"PRESTATE_DISLODGED",
		"  Germany: A hol\r",
		"PRESTATE_SUPPLYCENTER_OWNERS",
		"  Germany: A kie",
		"PRESTATE_RESULTS",
		"  SUCCESS: England: A yor-hol via convoy # x",
		"  FAILURE: Germany: A hol H",
		"ORDERS",
		"  Germnay: A hol - kie   #= bounce # both tried",
		"  England: F nth H",
		"POSTSTATE",
		"  England: F nth",
		"POSTSTATE_DISLODGED",
		"END",
		"CASE second",
		"PRESTATE",
		"ORDERS",
		"POSTSTATE_SAME",
		"END",
	}, "\n")
	df, err := parseDATC("s.txt", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if df.variant != "Standard" || len(df.cases) != 2 {
		t.Fatalf("variant %q, %d cases", df.variant, len(df.cases))
	}
	c := df.cases[0]
	if c.label != "1.A first" || c.line != 4 || !c.phaseSet ||
		c.phase != (judge.Phase{Season: judge.Fall, Year: 1902, Type: judge.Retreat}) {
		t.Errorf("head: %+v", c)
	}
	wantUnits := func(what string, got []datcUnit, want ...datcUnit) {
		t.Helper()
		if len(got) != len(want) {
			t.Errorf("%s: %+v, want %+v", what, got, want)
			return
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s[%d]: %+v, want %+v", what, i, got[i], want[i])
			}
		}
	}
	wantUnits("prestate", c.prestate, datcUnit{7, "England", judge.Fleet, "nth"}, datcUnit{8, "france", judge.Fleet, "mid"})
	wantUnits("dislodged", c.dislodged, datcUnit{10, "Germany", judge.Army, "hol"})
	wantUnits("owners", c.owners, datcUnit{12, "Germany", judge.Army, "kie"})
	wantUnits("post", c.post, datcUnit{20, "England", judge.Fleet, "nth"})
	wantUnits("postDislodged", c.postDislodged)
	if !c.hasOwners || c.same {
		t.Errorf("hasOwners %v same %v", c.hasOwners, c.same)
	}
	if len(c.results) != 2 || c.results[0] != (datcResult{14, true, "England", "A yor-hol via convoy"}) ||
		c.results[1] != (datcResult{15, false, "Germany", "A hol H"}) {
		t.Errorf("results: %+v", c.results)
	}
	if len(c.orders) != 2 || c.orders[0] != (datcOrder{17, "Germany", "A hol - kie", "= bounce # both tried"}) ||
		c.orders[1] != (datcOrder{18, "England", "F nth H", ""}) {
		t.Errorf("orders: %+v", c.orders)
	}
	c = df.cases[1]
	if c.phaseSet || c.phase != (judge.Phase{Season: judge.Spring, Year: 1901, Type: judge.Movement}) ||
		!c.same || c.hasOwners || len(c.prestate) != 0 || len(c.orders) != 0 {
		t.Errorf("second case: %+v", c)
	}
}

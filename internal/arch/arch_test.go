package arch

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// module is the import path every rule below is relative to.
const module = "github.com/gmdjudge/gmd"

// rules is the one table of the layout: for each package of the module (path
// relative to the module), the packages of the module its non-test code may
// import. A package missing from the table fails the test, so a new package
// is placed in the layout (and in docs/architecture.md) when it is made.
// Imports outside the module (the standard library, go-imap, bbolt, ...) are
// not ruled here; go.mod and the reviews rule them.
var rules = map[string][]string{
	"judge":               {},
	"judge/variants":      {"judge"},
	"parser":              {"judge"},
	"jsonpos":             {"judge", "judge/variants", "parser"},
	"report":              {"judge"},
	"bot":                 {"judge"},
	"mapgeo":              {"judge", "judge/variants"},
	"mapgeo/carve":        {"mapgeo"},
	"picture":             {"internal/length", "judge", "mapgeo", "report"},
	"state":               {},
	"templates":           {},
	"config":              {"internal/length"},
	"internal/version":    {},
	"internal/diskfault":  {},
	"internal/arch":       {},
	"internal/textsafe":   {},
	"internal/cputime":    {},
	"internal/length":     {}, // t21's, placed before it lands
	"internal/racetest":   {},
	"view":                {"internal/length", "jsonpos", "judge", "report", "state"},
	"players":             {"state"},
	"export":              {"jsonpos", "judge", "judge/variants", "parser", "report", "state", "view"},
	"ctl":                 {"state"},
	"mail":                {"config", "state"},
	"daemon":              {"config", "ctl", "engine", "mail", "report", "session", "state", "templates", "view", "web"},
	"demo":                {},
	"engine":              {"bot", "config", "internal/length", "internal/textsafe", "jsonpos", "judge", "judge/variants", "parser", "report", "state", "templates", "view"},
	"session":             {"config", "engine", "export", "internal/length", "internal/textsafe", "internal/version", "jsonpos", "judge", "judge/variants", "parser", "players", "report", "state", "templates", "view"},
	"web":                 {"config", "export", "internal/length", "internal/textsafe", "jsonpos", "judge", "judge/variants", "picture", "players", "report", "state", "view"},
	"integration":         {}, // test code only
	"integration/browser": {}, // test code only
	"tools/layout":        {"judge"},
	"tools/boards":        {"judge", "judge/variants", "picture"},
	"tools/mapgen":        {"judge", "judge/variants", "mapgeo", "mapgeo/carve"},
	"tools/plainpass":     {},
	// cmd/gmd wires everything; nothing imports it (no package lists "cmd/...").
	"cmd/gmd": {"*"},
}

// exceptions are the known violations of rules, each named with why it is
// still there. An exception that no longer happens fails the test too, so the
// list shrinks as they are fixed and never hides a new one.
var exceptions = []struct{ from, to, why string }{}

// edges returns every module-internal import of the module's non-test code,
// as from -> sorted list of to, both relative to the module.
func edges(t *testing.T) map[string][]string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the architecture test needs the go command: %v", err)
	}
	cmd := exec.Command(gobin, "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, module+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	got := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		from, ok := rel(f[0])
		if !ok {
			continue
		}
		got[from] = []string{}
		for _, imp := range f[1:] {
			if to, ok := rel(imp); ok {
				got[from] = append(got[from], to)
			}
		}
		sort.Strings(got[from])
	}
	if len(got) < 10 {
		t.Fatalf("go list found only %d packages of %s: %q", len(got), module, out)
	}
	return got
}

// rel turns an import path of the module into its path relative to the module.
func rel(path string) (string, bool) {
	if rest, ok := strings.CutPrefix(path, module+"/"); ok {
		return rest, true
	}
	return "", false
}

// allowed reports whether rules (or, with exc, the exceptions) let from import to.
func allowed(from, to string, exc bool) bool {
	r := rules[from]
	if slices.Contains(r, "*") || slices.Contains(r, to) {
		return true
	}
	if exc {
		for _, e := range exceptions {
			if e.from == from && e.to == to {
				return true
			}
		}
	}
	return false
}

// TestImportRules fails on an import the layout forbids, on a package the
// layout does not place, and on anything importing a command.
func TestImportRules(t *testing.T) {
	for from, tos := range edges(t) {
		if _, ok := rules[from]; !ok {
			t.Errorf("package %s is not in the layout: add it to rules in internal/arch/arch_test.go and to docs/architecture.md", from)
			continue
		}
		for _, to := range tos {
			if strings.HasPrefix(to, "cmd/") || strings.HasPrefix(to, "tools/") {
				t.Errorf("%s imports the command %s: nothing imports a command", from, to)
				continue
			}
			if !allowed(from, to, true) {
				t.Errorf("%s imports %s, which docs/architecture.md does not allow", from, to)
			}
		}
	}
}

// TestExceptionsStillHappen fails when a listed exception is no longer an
// import (remove it from the list) or is allowed by the rules anyway.
func TestExceptionsStillHappen(t *testing.T) {
	got := edges(t)
	for _, e := range exceptions {
		if allowed(e.from, e.to, false) {
			t.Errorf("exception %s -> %s is allowed by the rules: drop one of them", e.from, e.to)
		}
		if !slices.Contains(got[e.from], e.to) {
			t.Errorf("exception %s -> %s (%s) no longer happens: remove it", e.from, e.to, e.why)
		}
	}
}

// TestRulesInEveryDirection checks the table is a layering: no two packages
// may import each other, directly or round a cycle of allowed imports.
func TestRulesInEveryDirection(t *testing.T) {
	var visit func(p string, path []string)
	visit = func(p string, path []string) {
		if i := slices.Index(path, p); i >= 0 {
			t.Errorf("the rules allow a cycle: %s", strings.Join(append(path[i:], p), " -> "))
			return
		}
		for _, q := range rules[p] {
			if q != "*" {
				visit(q, append(slices.Clone(path), p))
			}
		}
	}
	for p := range rules {
		for _, q := range rules[p] {
			if q != "*" {
				if _, ok := rules[q]; !ok {
					t.Errorf("rule %s may import %s, which is not in the table", p, q)
				}
			}
		}
		visit(p, nil)
	}
}

// TestDocMirrorsRules reads the table between the "arch-rules" markers of
// docs/architecture.md and compares it, row by row, with rules and
// exceptions, so the page a newcomer reads is the one the test enforces.
func TestDocMirrorsRules(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "<!-- arch-rules -->")
	if !ok {
		t.Fatal(`docs/architecture.md has no "<!-- arch-rules -->" marker before the import table`)
	}
	table, _, ok := strings.Cut(rest, "<!-- /arch-rules -->")
	if !ok {
		t.Fatal(`docs/architecture.md has no "<!-- /arch-rules -->" marker after the import table`)
	}
	want := map[string]string{}
	for p, r := range rules {
		r = slices.Clone(r)
		sort.Strings(r)
		cell := strings.Join(r, ", ")
		if cell == "" {
			cell = "nothing"
		}
		if cell == "*" {
			cell = "anything"
		}
		want[p] = cell
	}
	wantExc := map[string]bool{}
	for _, e := range exceptions {
		wantExc[e.from+" -> "+e.to] = true
	}
	seen := map[string]bool{}
	for line := range strings.Lines(table) {
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		if len(cells) != 2 {
			continue
		}
		p := strings.Trim(strings.TrimSpace(cells[0]), "`")
		v := strings.ReplaceAll(strings.TrimSpace(cells[1]), "`", "")
		if p == "package" || strings.HasPrefix(p, "-") {
			continue
		}
		if strings.HasPrefix(p, "exception: ") {
			k := strings.TrimPrefix(p, "exception: ")
			if !wantExc[k] {
				t.Errorf("docs/architecture.md lists exception %q, which the test does not", k)
			}
			seen["exception: "+k] = true
			continue
		}
		w, ok := want[p]
		if !ok {
			t.Errorf("docs/architecture.md places %q, which the test's rules do not", p)
			continue
		}
		if v != w {
			t.Errorf("docs/architecture.md says %s may import %q; the test says %q", p, v, w)
		}
		seen[p] = true
	}
	for p := range want {
		if !seen[p] {
			t.Errorf("docs/architecture.md's table lacks %s (may import %s)", p, want[p])
		}
	}
	for k := range wantExc {
		if !seen["exception: "+k] {
			t.Errorf("docs/architecture.md's table lacks the exception %s", k)
		}
	}
}

package parser

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// docSection returns the lines of file (from the repository's root)
// between the markers <!-- name --> and <!-- /name -->.
func docSection(t *testing.T, file, name string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", file))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "<!-- "+name+" -->")
	section, _, ok2 := strings.Cut(rest, "<!-- /"+name+" -->")
	if !ok || !ok2 {
		t.Fatalf("%s has no <!-- %s --> … <!-- /%s --> section", file, name, name)
	}
	return strings.Split(strings.TrimSpace(section), "\n")
}

var codeSpan = regexp.MustCompile("`([^`]+)`")

// docCommands returns the first word of each code span of text: the
// commands it names.
func docCommands(text string) []string {
	var out []string
	for _, m := range codeSpan.FindAllStringSubmatch(text, -1) {
		out = append(out, strings.Fields(m[1])[0])
	}
	return out
}

// checkNames fails unless the names a document gives and the command
// table's are the same set.
func checkNames(t *testing.T, where string, named []string) {
	t.Helper()
	for _, n := range named {
		if _, ok := LookupCommand(n); !ok {
			t.Errorf("%s names %s as gmd's command, which is not in the command table", where, n)
		}
	}
	for _, c := range Commands() {
		if !slices.Contains(named, c.Name) {
			t.Errorf("%s lacks the command %s of the command table", where, c.Name)
		}
	}
}

// TestCommandsDoc holds the comparison with njudge (docs/commands.md)
// and README's list of commands to the command table, both ways: a
// command added to the table, or one taken out, fails it until the
// documents say so.
func TestCommandsDoc(t *testing.T) {
	rows := docSection(t, "docs/commands.md", "njudge-commands")
	if len(rows) < 3 || !strings.HasPrefix(rows[0], "| njudge | gmd |") {
		t.Fatalf("docs/commands.md: the table does not start with its header: %q", rows[0])
	}
	var named []string
	for i, row := range rows[2:] {
		cells := strings.Split(strings.Trim(row, "| "), " | ")
		if len(cells) != 3 {
			t.Errorf("docs/commands.md: row %d has %d cells, want 3: %s", i+1, len(cells), row)
			continue
		}
		words := docCommands(cells[1])
		if len(words) == 0 && cells[1] != "—" || cells[0] == "—" && len(words) == 0 {
			t.Errorf("docs/commands.md: row %d names no gmd command and is not marked —: %s", i+1, row)
		}
		for _, w := range words {
			if slices.Contains(named, w) {
				t.Errorf("docs/commands.md: %s is in two rows; one row a command", w)
			}
		}
		named = append(named, words...)
	}
	checkNames(t, "docs/commands.md", named)

	var listed []string
	for _, l := range docSection(t, "README.md", "commands") {
		listed = append(listed, docCommands(l)...)
	}
	checkNames(t, "README.md", listed)
}

// TestSetOptionsDoc holds the SET table of docs/commands.md to the SET
// table, both ways: each SET in its gmd column is an option gmd takes,
// and each option that a SET reaches is there.
func TestSetOptionsDoc(t *testing.T) {
	rows := docSection(t, "docs/commands.md", "njudge-set")
	if len(rows) < 3 || !strings.HasPrefix(rows[0], "| njudge | gmd |") {
		t.Fatalf("docs/commands.md: the SET table does not start with its header: %q", rows[0])
	}
	named := map[string]bool{}
	for i, row := range rows[2:] {
		cells := strings.Split(strings.Trim(row, "| "), " | ")
		if len(cells) != 3 {
			t.Errorf("docs/commands.md: SET row %d has %d cells, want 3: %s", i+1, len(cells), row)
			continue
		}
		for _, m := range codeSpan.FindAllStringSubmatch(cells[1], -1) {
			words := strings.Fields(strings.ReplaceAll(m[1], `\|`, "|"))
			opt, word, rest, ok := ReadSetOption(words[1:])
			if words[0] != "SET" || !ok {
				t.Errorf("docs/commands.md: %q in the gmd column is no SET option gmd takes (%s)", m[1], word)
				continue
			}
			if opt.Name == "MAP" && len(rest) > 0 {
				opt, _ = LookupSetOption("GAMEMAP") // SET MAP ON|OFF, as the session reads it
			}
			named[opt.Name] = true
		}
	}
	for _, o := range SetOptions() {
		if !named[o.Name] {
			t.Errorf("docs/commands.md: the SET table lacks SET %s (the SET table's row %s)", o.Syntax, o.Name)
		}
	}
}

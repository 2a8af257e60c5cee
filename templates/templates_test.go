package templates

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBuiltinLoads(t *testing.T) {
	s := Builtin()
	for _, want := range []string{"reply", "results", "start", "press", "late", "reminder", "draw", "gameover", "help"} {
		found := false
		for _, n := range s.Names() {
			found = found || n == want
		}
		if !found {
			t.Errorf("no built-in template %q (have %v)", want, s.Names())
		}
	}
	subject, body, err := s.Render("help", helpSample)
	if err != nil || subject != "GMD help" || !strings.Contains(body, "SIGNON Pgame password") || !strings.Contains(body, "34-35-36, standard") {
		t.Fatalf("help: %q %q %v", subject, body, err)
	}
}

// helpSample is data of the shape of the game master's for help.tmpl,
// whose command lines come from the command table.
var helpSample = map[string]any{
	"Judge": "GMD", "Addr": "judge@x",
	"Commands": []map[string]string{{"Lines": "  SIGNON Pgame password    sign on as power P\n"}},
	"Master":   []map[string]string{{"Lines": "  PAUSE                    stop the clock\n"}},
	"Variants": []string{"34-35-36", "standard"},
	"Lengths":  "  SET MOVEMENT   10 minutes to 30 days\n",
}

func TestOverride(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "help.tmpl"), []byte(`{{define "subject"}}Aide {{.Judge}}{{end}}{{define "body"}}Bonjour{{end}}`), 0o644)
	s, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	subject, body, err := s.Render("help", map[string]string{"Judge": "GMD"})
	if err != nil || subject != "Aide GMD" || body != "Bonjour" {
		t.Fatalf("override not used: %q %q %v", subject, body, err)
	}
	if _, _, err := s.Render("reply", struct{}{}); err == nil {
		t.Error("a missing field in the data should be an error, not an empty string")
	}
}

func TestOverrideErrors(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "help.tmpl"), []byte(`{{define "subject"}}x{{end}}`), 0o644)
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), `"body"`) {
		t.Errorf("a template without a body: err = %v", err)
	}
	os.WriteFile(filepath.Join(dir, "help.tmpl"), []byte(`{{define "subject"}}{{.X{{end}}`), 0o644)
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "help.tmpl") {
		t.Errorf("a broken template: err = %v", err)
	}
	if _, err := Load(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing directory should be an error")
	}
}

// A file named after no mail would never be used: Load says so.
func TestOverrideUnknownName(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "reminde.tmpl"), []byte(`{{define "subject"}}x{{end}}{{define "body"}}y{{end}}`), 0o644)
	_, err := Load(dir)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "reminde.tmpl")+`: gmd sends no mail named "reminde"`) {
		t.Errorf("err = %v", err)
	}
}

// Check runs the templates on sample data and reports a misspelt field
// with the file and line, as parse errors are.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "help.tmpl"), []byte("{{define \"subject\"}}{{.Judge}} help{{end}}\n{{define \"body\"}}\n{{.Jugde}}{{end}}"), 0o644)
	s, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	samples := map[string][]any{"help": {helpSample}}
	err = s.Check(samples)
	if err == nil || !strings.HasPrefix(err.Error(), filepath.Join(dir, "help.tmpl")+":3:2: ") {
		t.Errorf("Check: %v", err)
	}
	if err := Builtin().Check(samples); err != nil {
		t.Errorf("the built-in help: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "help.tmpl"), []byte("{{define \"subject\"}}x{{end}}\n{{define \"body\"}}{{if .X}}{{end}"), 0o644)
	if _, err := Load(dir); err == nil || !strings.HasPrefix(err.Error(), filepath.Join(dir, "help.tmpl")+":2: ") {
		t.Errorf("a parse error: %v", err)
	}
}

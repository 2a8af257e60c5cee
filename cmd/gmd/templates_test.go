package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/demo"
)

// An operator's template with a misspelt field stops gmd run at start-up,
// with the file and line of the mistake, before any mail is read (it used
// to pass, and stop the mail queue when the first reply needed it).
func TestRunTemplateErrors(t *testing.T) {
	srv, err := demo.Start("127.0.0.1:0", "127.0.0.1:0", demo.Accounts())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	tdir := filepath.Join(dir, "templates")
	if err := os.Mkdir(tdir, 0o700); err != nil {
		t.Fatal(err)
	}
	reply := filepath.Join(tdir, "reply.tmpl")
	err = os.WriteFile(reply, []byte("{{define \"subject\"}}Re: {{.Tag}} {{.Subject}}{{end}}\n"+
		"{{define \"body\"}}{{.Text}}\n{{.Erors}} errors\n{{end}}\n"), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	// A judge that starts would run until its context ends: it ends at
	// once, so that the test does not wait for it if the check fails.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stderr bytes.Buffer
	code := runCmd(ctx, []string{"-config", writeConf(t, dir, srv, "templates templates\n")}, &stderr)
	if code == 0 || !strings.Contains(stderr.String(), reply+":3:2: executing \\\"body\\\" at <.Erors>") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "gmd.db")); err == nil {
		t.Error("the database was opened: the check must come first")
	}
}

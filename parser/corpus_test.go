package parser_test

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/gmdjudge/gmd/mail"
)

// corpusBodies returns the texts of the mail corpus in testdata/mail at
// the top of the repository (see mail's FuzzDecode), decoded as the judge
// decodes them, and the orders of testdata/s1901: real-world seeds for
// the parser's fuzz targets. Mails that do not decode give no text.
func corpusBodies(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", "mail", "*.eml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no mail corpus: %v", err)
	}
	sort.Strings(files)
	files = append(files, filepath.Join("..", "testdata", "s1901", "orders.txt"))
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Ext(f) != ".eml" {
			out = append(out, string(b))
			continue
		}
		if in, err := mail.Decode(bytes.NewReader(b), 0); err == nil && in.Body != "" {
			out = append(out, in.Body)
		}
	}
	if len(out) < 20 {
		t.Fatalf("only %d texts in the corpus", len(out))
	}
	return out
}

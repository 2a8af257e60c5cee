package session

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/templates"
)

// The lines of gmd's mails hold at most 78 characters (RFC 5322), but for
// these, where the classic layout itself is wider:
var (
	// an order line of the results and acknowledgements, one order per
	// line however long ("Russia: Army Galicia SUPPORT Fleet Gulf of
	// Bothnia -> St Petersburg (south coast). (*cut*)");
	orderLine = regexp.MustCompile(`^[A-Z][A-Za-z]*( [A-Z][A-Za-z]*)*: +(Army|Fleet) `)
	// a line of the ownership table, which njudge breaks after the comma
	// that lands in column 79;
	ownershipLine = regexp.MustCompile(`^.{78},$`)
	// and the echo of a player's own line ("> SET ABSENCE ..."), as
	// written. (Press text is the players' own words too, sent as written;
	// the mails below have none that is too long.)
	echoLine = regexp.MustCompile(`^> `)
)

// wantNarrow fails the test for every line of the mails' bodies that is
// longer than 78 characters and none of the exceptions above.
func wantNarrow(t *testing.T, mails []*state.OutMail) {
	t.Helper()
	for _, m := range mails {
		wantNarrowText(t, m.Subject, m.Body)
	}
}

// wantNarrowText is wantNarrow for one text.
func wantNarrowText(t *testing.T, what, text string) {
	t.Helper()
	for i, line := range strings.Split(text, "\n") {
		if utf8.RuneCountInString(line) <= templates.LineWidth ||
			orderLine.MatchString(line) || ownershipLine.MatchString(line) || echoLine.MatchString(line) {
			continue
		}
		t.Errorf("%s, line %d has %d characters:\n%s", what, i+1, utf8.RuneCountInString(line), line)
	}
}

// TestTemplateWidths renders every template on every sample of
// templateSamples (each shape of data the master gives it) and checks
// the width of every line.
func TestTemplateWidths(t *testing.T) {
	t.Parallel()
	set := templates.Builtin()
	for name, samples := range templateSamples() {
		for _, data := range samples {
			_, body, err := set.Render(name, data)
			if err != nil {
				t.Fatal(err)
			}
			wantNarrowText(t, name+".tmpl", body)
		}
	}
}

// TestWrappedReplies: the replies' own sentences are broken at 78
// characters, the order lines of an acknowledgement are not.
func TestWrappedReplies(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startStandard("dt")
	got := h.orders("dt", "R", "A Warsaw supports the army in Moscow to hold its ground there\nSET COLOUR blue")
	r := replyTo(t, got, "russia@example.org")
	wantNarrowText(t, r.Subject, r.Body)
	mustContain(t, r.Body, "Unknown option SET COLOUR.")
	if !strings.Contains(r.Body, "\n") || strings.Count(r.Body, "Error") < 2 {
		t.Fatalf("reply:\n%s", r.Body)
	}
}

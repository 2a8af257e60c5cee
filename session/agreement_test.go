package session

import (
	"regexp"
	"strings"
)

// oneMany finds a count of one followed by a plural noun: "1 centres",
// "1 days", "1 players". The count stands alone (not "21 days", not
// "1.5 days", not a date's "01").
var oneMany = regexp.MustCompile(`(?:^|[^0-9.:/-])1 ([a-z]+s)\b`)

// notPlural are the words after a count that end in s without being a
// plural noun: "1 is", "1 was", "1 has" ("of whom 1 has joined").
var notPlural = map[string]bool{"is": true, "was": true, "has": true, "as": true, "plus": true, "its": true, "this": true, "always": true}

// agreementErrors returns the "1 centres" of text.
func agreementErrors(text string) []string {
	var bad []string
	for _, m := range oneMany.FindAllStringSubmatch(text, -1) {
		if !notPlural[m[1]] {
			bad = append(bad, strings.TrimLeft(m[0], " (\n\t"))
		}
	}
	return bad
}

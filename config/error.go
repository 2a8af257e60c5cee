package config

import "fmt"

// Error is a mistake in a config file, at a line.
type Error struct {
	File string
	Line int
	Msg  string
}

// Error formats the error as compilers do, "judge.conf:7: what is wrong",
// so that editors can jump to the line.
func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// suggest returns the name in known closest to name, if it is close enough
// to be a likely typo, or "".
//
// A name written as "block-child" when "block" is a block directive, such
// as "imap-address" for imap { address ... }, suggests the block.
func suggest(name string, known []string) string {
	best, bestDist := "", len(name)/3+1 // at most one edit per three letters
	if bestDist > 3 {
		bestDist = 3
	}
	for _, k := range known {
		if d := editDistance(name, k); d <= bestDist && (best == "" || d < bestDist) {
			best, bestDist = k, d
		}
	}
	if best != "" {
		return best
	}
	for _, k := range known {
		if len(name) > len(k)+1 && name[:len(k)] == k && (name[len(k)] == '-' || name[len(k)] == '.' || name[len(k)] == '_') {
			return k
		}
	}
	return ""
}

// editDistance is the Levenshtein distance between a and b, by bytes:
// directive names are ASCII.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

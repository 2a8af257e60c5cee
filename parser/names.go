package parser

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/gmdjudge/gmd/judge"
)

// kw is a set of keyword classes; a word may be in several ("d" is disband
// and remove, "s" is support, "c" convoy, "m" move).
type kw uint16

const (
	kwArmy kw = 1 << iota
	kwFleet
	kwHold
	kwMove // "m", "move", "moves": may be followed by "to"
	kwTo
	kwSupport
	kwConvoy
	kwDisband
	kwBuild
	kwRemove
	kwWaive
	kwVia       // "via", "by", as in "via convoy"
	kwConstruct // "sc" ("s.c."): a supply-centre construction (see parser.construction)

	kwType   = kwArmy | kwFleet
	kwAdjust = kwBuild | kwRemove | kwWaive | kwDisband
)

var keywords = map[string]kw{
	"a": kwArmy, "army": kwArmy,
	"f": kwFleet, "fleet": kwFleet,
	"h": kwHold, "hold": kwHold, "holds": kwHold, "stand": kwHold, "stands": kwHold,
	"m": kwMove, "move": kwMove, "moves": kwMove, "to": kwTo,
	"s": kwSupport, "support": kwSupport, "supports": kwSupport,
	"c": kwConvoy, "convoy": kwConvoy, "convoys": kwConvoy,
	"t": kwConvoy, "transport": kwConvoy, "transports": kwConvoy,
	"d": kwDisband | kwRemove, "disband": kwDisband | kwRemove, "disbands": kwDisband | kwRemove,
	"b": kwBuild, "build": kwBuild, "builds": kwBuild,
	"r": kwRemove, "remove": kwRemove, "removes": kwRemove, "debuild": kwRemove,
	"w": kwWaive, "waive": kwWaive, "waives": kwWaive,
	"via": kwVia, "by": kwVia,
	"sc": kwConstruct,
}

// entry is what the index knows about one folded word or word sequence.
// It has four fields, no more: the compiler keeps a struct of at most four
// fields in registers, and an entry is copied for every word of an order.
type entry struct {
	loc   judge.Loc   // the place with this name, or NoLoc
	power judge.Power // the power with this name or adjective, or NoPower
	kw    kw          // keyword classes (single words only)
	pre   prefixes    // the longer names this is a proper prefix of
}

// prefixes says of which longer names a key is a proper prefix.
type prefixes uint8

const (
	placePrefix prefixes = 1 << iota // a place name's
	// powerPrefix: a power's name or adjective of several words ("north"
	// of "North Vietnam"). One-word power names mark no prefixes, so that
	// the words of most orders ("a" of "Austria") cost no second look-up.
	powerPrefix
)

var noEntry = entry{loc: judge.NoLoc, power: judge.NoPower}

// index is the parser's view of a Map, built once per Map: every name
// folded the way the parser folds words, with its prefixes, so that the
// longest match over several words costs one map look-up per word and no
// allocation.
type index struct {
	m     *judge.Map
	words map[string]entry
	// short holds the entries of the keys of one to three letters (most
	// words of an order: "a", "s", "lon"), as 1 + an index into shorts,
	// so that they cost no hashing.
	short   [27 * 27 * 27]uint16
	shorts  []entry
	letters [36]judge.Power // power letters, 'a' to 'z' then '0' to '9' (Chaos has both)
	names   []nameKey       // every place name, for suggestions
	abbrs   []abbrName      // every place name in words, by first word, for abbreviations
	powers  []nameKey       // every power name and adjective, for suggestions
}

// abbrName is a place's name split into its folded words ("Mid-Atlantic
// Ocean": mid, atlantic, ocean), for reading abbreviations ("Mid-Atl").
type abbrName struct {
	words []string
	loc   judge.Loc
}

// nameWords splits a name from the map into its folded words as the
// Scanner splits order text, or reports false if it cannot be written as
// one run of words.
func nameWords(s string) ([]string, bool) {
	var sc Scanner
	sc.Init(s)
	var words []string
	for {
		_, tok, lit := sc.Scan()
		switch tok {
		case EOF:
			return words, len(words) > 0
		case Word:
			words = append(words, string(appendFolded(nil, lit)))
		case Dash:
		default:
			return nil, false
		}
	}
}

// nameKey is a folded name and what it names (a Loc or a Power).
type nameKey struct {
	key string
	id  int
}

var indexes sync.Map // *judge.Map → *index; a Map never changes once built

// indexOf returns the index of m, building it on first use.
func indexOf(m *judge.Map) *index {
	if ix, ok := indexes.Load(m); ok {
		return ix.(*index)
	}
	ix, _ := indexes.LoadOrStore(m, buildIndex(m))
	return ix.(*index)
}

func buildIndex(m *judge.Map) *index {
	ix := &index{m: m, words: make(map[string]entry, 4*len(m.Names())+len(keywords))}
	get := func(k string) entry {
		if e, ok := ix.words[k]; ok {
			return e
		}
		return noEntry
	}
	for k, v := range keywords {
		e := get(k)
		e.kw = v
		ix.words[k] = e
	}
	for raw, l := range m.Names() {
		k, ok := foldName(raw)
		if !ok {
			continue // "stp/nc" and the like: the parser reads coasts itself
		}
		e := get(k)
		e.loc = l
		ix.words[k] = e
		ix.names = append(ix.names, nameKey{k, int(l)})
		for i := 1; i < len(k); i++ {
			e := get(k[:i])
			e.pre |= placePrefix
			ix.words[k[:i]] = e
		}
	}
	for l := range m.Locs {
		li := &m.Locs[l]
		if li.Province != judge.Loc(l) {
			continue // a coast: its names are its province's and a coast's
		}
		for _, s := range append([]string{li.FullName}, li.Aliases...) {
			if w, ok := nameWords(s); ok {
				ix.abbrs = append(ix.abbrs, abbrName{w, judge.Loc(l)})
			}
		}
	}
	sort.Slice(ix.abbrs, func(i, j int) bool { return ix.abbrs[i].words[0] < ix.abbrs[j].words[0] })
	for i := range ix.letters {
		ix.letters[i] = judge.NoPower
	}
	for i, pi := range m.Powers {
		for _, s := range []string{pi.Name, pi.Adjective} {
			k, ok := foldName(s)
			if !ok || k == "" {
				continue
			}
			e := get(k)
			e.power = judge.Power(i)
			ix.words[k] = e
			ix.powers = append(ix.powers, nameKey{k, i})
			if len(k) == len(s) {
				continue // one word: folding dropped no space, dash or dot
			}
			for j := 1; j < len(k); j++ {
				e := get(k[:j])
				e.pre |= powerPrefix
				ix.words[k[:j]] = e
			}
		}
		if j := letterIndex(pi.Letter | 0x20); j >= 0 {
			ix.letters[j] = judge.Power(i)
		}
	}
	for k, e := range ix.words {
		if c, ok := shortCode([]byte(k)); ok && len(ix.shorts) < 0xFFFF {
			ix.shorts = append(ix.shorts, e)
			ix.short[c] = uint16(len(ix.shorts))
		}
	}
	// Map iteration order is random; suggestions must not be.
	sort.Slice(ix.names, func(i, j int) bool { return ix.names[i].key < ix.names[j].key })
	return ix
}

// foldName folds a name from the map the way the parser folds the words of
// the text, or reports false if the name has characters that cannot be
// written in one run of words (a slash, a parenthesis).
func foldName(s string) (string, bool) {
	var b []byte
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		c := classOfRune(r, n)
		switch {
		case c == cLetter:
			b = appendFolded(b, s[i:i+n])
		case c == cQuiet || c == cSpace || c == cDash:
		default:
			return "", false
		}
		i += n
	}
	return string(b), true
}

// classOfRune is the Scanner's character class of any rune.
func classOfRune(r rune, n int) int {
	if r < utf8.RuneSelf {
		return int(asciiClass[r])
	}
	return runeClass(r, n)
}

// appendFolded appends the folded form of the word w: ASCII letters in
// lower case, quiet characters dropped, other letters and digits as they
// are (as judge.NormalizeName does).
func appendFolded(b []byte, w string) []byte {
	// Folding never lengthens a word: make room once and write in place.
	j := len(b)
	b = slices.Grow(b, len(w))[:j+len(w)]
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c < utf8.RuneSelf {
			if f := foldTable[c]; f != 0 {
				b[j] = f
				j++
			}
			continue
		}
		r, n := utf8.DecodeRuneInString(w[i:])
		if runeClass(r, n) == cLetter {
			j += copy(b[j:], w[i:i+n])
		}
		i += n - 1
	}
	return b[:j]
}

// foldTable folds an ASCII letter or digit, and maps every other ASCII
// character to 0 (dropped).
var foldTable = func() (t [utf8.RuneSelf]byte) {
	for c := byte(0); c < utf8.RuneSelf; c++ {
		switch {
		case c >= 'A' && c <= 'Z':
			t[c] = c + 'a' - 'A'
		case asciiClass[c] == cLetter:
			t[c] = c
		}
	}
	return t
}()

// shortCode numbers the keys of one to three letters a to z, in base 27
// with no zero digit so that "a", "aa" and "aaa" differ.
func shortCode(key []byte) (int, bool) {
	if len(key) == 0 || len(key) > 3 {
		return 0, false
	}
	c := 0
	for _, b := range key {
		if b < 'a' || b > 'z' {
			return 0, false
		}
		c = c*27 + int(b-'a'+1)
	}
	return c, true
}

// lookup returns the entry of a folded word or word sequence.
func (ix *index) lookup(key []byte) entry {
	if c, ok := shortCode(key); ok {
		if i := ix.short[c]; i != 0 {
			return ix.shorts[i-1]
		}
		return noEntry
	}
	if e, ok := ix.words[string(key)]; ok { // no allocation: the compiler sees the conversion is only a key
		return e
	}
	return noEntry
}

// powerLetter returns the power whose letter is the one-letter word key.
func (ix *index) powerLetter(key []byte) judge.Power {
	if len(key) == 1 {
		if j := letterIndex(key[0]); j >= 0 {
			return ix.letters[j]
		}
	}
	return judge.NoPower
}

// letterIndex returns the index in index.letters of a folded power
// letter, or -1.
func letterIndex(c byte) int {
	switch {
	case c >= 'a' && c <= 'z':
		return int(c - 'a')
	case c >= '0' && c <= '9':
		return 26 + int(c-'0')
	}
	return -1
}

// coastNames maps a folded coast spelling to the short coast name used in
// the map's coast Locs ("stp/nc"). The one-letter forms are only read
// after "/" or "(", where nothing else can stand.
var coastNames = map[string]string{
	"nc": "nc", "north": "nc", "northcoast": "nc", "n": "nc",
	"sc": "sc", "south": "sc", "southcoast": "sc", "s": "sc",
	"ec": "ec", "east": "ec", "eastcoast": "ec", "e": "ec",
	"wc": "wc", "west": "wc", "westcoast": "wc", "w": "wc",
}

// coastWords names a short coast name in messages.
var coastWords = map[string]string{"nc": "north coast", "sc": "south coast", "ec": "east coast", "wc": "west coast"}

func coastWord(short string) string {
	if w, ok := coastWords[short]; ok {
		return w
	}
	return short
}

// suggestLocs returns the full names of the places the folded key most
// likely meant: every place with a name that key begins, or else with a
// name that contains key, or else those at the smallest edit distance, if
// it is small. It is only called for errors.
func (ix *index) suggestLocs(key string) []string {
	ids := suggest(ix.names, key)
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		l := ix.m.Province(judge.Loc(id))
		out = append(out, ix.m.FullName(l))
	}
	return dedupSorted(out)
}

// suggestPowers is suggestLocs for power names and adjectives.
func (ix *index) suggestPowers(key string) []string {
	ids := suggest(ix.powers, key)
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		out = append(out, ix.m.PowerName(judge.Power(id)))
	}
	return dedupSorted(out)
}

func suggest(names []nameKey, key string) []int {
	if key == "" {
		return nil
	}
	var ids []int
	if len(key) >= 2 {
		for _, n := range names {
			if strings.HasPrefix(n.key, key) {
				ids = append(ids, n.id)
			}
		}
		if len(ids) > 0 {
			return ids
		}
	}
	if len(key) >= 4 { // "Atlantic" for "Mid-Atlantic Ocean" and "North Atlantic Ocean"
		for _, n := range names {
			if strings.Contains(n.key, key) {
				ids = append(ids, n.id)
			}
		}
		if len(ids) > 0 {
			return ids
		}
	}
	limit := 1 + len(key)/4 // 1 for "Brug", 2 for "Burgundyy"'s length and up
	if len(key) <= 2 {
		limit = 0
	}
	best := limit + 1
	for _, n := range names {
		d := editDistance(key, n.key, best+1)
		switch {
		case d > limit || d > best:
		case d < best:
			best, ids = d, append(ids[:0], n.id)
		default:
			ids = append(ids, n.id)
		}
	}
	return ids
}

// editDistance is the optimal string alignment distance between a and b
// (insertions, deletions, substitutions and swaps of neighbours), or any
// value ≥ max once it is known to reach max.
func editDistance(a, b string, max int) int {
	if d := len(a) - len(b); d >= max || -d >= max {
		return max
	}
	// Three rows are enough for the swap rule.
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin >= max {
			return max
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

func dedupSorted(s []string) []string {
	sort.Strings(s)
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// didYouMean formats suggestions: " (did you mean Burgundy?)", " (did you
// mean Norway, North Sea or Norwegian Sea?)", or "" if there are none.
func didYouMean(names []string) string {
	const most = 6
	switch len(names) {
	case 0:
		return ""
	case 1:
		return " (did you mean " + names[0] + "?)"
	}
	if len(names) > most {
		return " (did you mean " + strings.Join(names[:most], ", ") + " or " +
			strconv.Itoa(len(names)-most) + " more?)"
	}
	return " (did you mean " + strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1] + "?)"
}

// MatchPower finds the power whose name or adjective the first words of
// words spell, the longest first, read as an order's power prefix is:
// case and dots ignored, words split or joined as for place names ("North
// Vietnam", "north-vietnam", "NorthVietnam"). It returns the power and how
// many words it took, or NoPower and 0. It does not read letters: what a
// word of one letter means is the caller's business ("EG" in PRESS TO).
// Commands that name powers (PRESS TO, BECOME, EJECT) use it, so that
// they take every name an order line does.
func MatchPower(m *judge.Map, words []string) (judge.Power, int) {
	if m == nil {
		return judge.NoPower, 0
	}
	ix := indexOf(m)
	const most = 8 // no power name has more words; a list of powers may be long
	for n := min(len(words), most); n > 0; n-- {
		k, ok := foldName(strings.Join(words[:n], " "))
		if !ok || k == "" {
			continue
		}
		if e := ix.lookup([]byte(k)); e.power != judge.NoPower {
			return e.power, n
		}
	}
	return judge.NoPower, 0
}

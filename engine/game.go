package engine

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/report"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

// errNotStarted is returned by position for a game that is still forming.
var errNotStarted = errors.New("game has not started")

// Position decodes the game's current position.
func (m *Engine) Position(g *state.Game) (*judge.Position, judge.Rules, error) {
	if len(g.Position) == 0 {
		return nil, judge.Rules{}, fmt.Errorf("game %s: %w", g.Name, errNotStarted)
	}
	// A damaged position costs this game's mail, not the judge's.
	return view.Position(g)
}

// GameMap returns the map of the game's variant. The variant was checked
// when the game was created, so one that will not load now is a damaged
// record.
func GameMap(g *state.Game) (*judge.Map, error) {
	mp, err := variants.Load(g.Variant)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w; %w", g.Name, err, state.ErrDamaged)
	}
	return mp, nil
}

// Recipients lists every address that gets a game's results: players,
// observers and the master. A seat given up (abandoned) no longer gets
// mail at the address that gave it up, nor does an observer waiting for
// the master's approval of a fogged game (ObserverWaits); each address
// appears once.
func (m *Engine) Recipients(g *state.Game) []string {
	out := make([]string, 0, len(g.Players)+len(g.Observers)+1)
	add := func(addr string) {
		if addr == "" || slices.ContainsFunc(out, func(a string) bool { return SameAddr(a, addr) }) {
			return
		}
		out = append(out, addr)
	}
	for i := range g.Players {
		if g.Players[i].Status != state.Abandoned {
			add(g.Players[i].Addr)
		}
	}
	for i := range g.Observers {
		if !ObserverWaits(g, &g.Observers[i]) {
			add(g.Observers[i].Addr)
		}
	}
	add(g.MasterAddr)
	return out
}

// SameAddr compares mail addresses as the judge does: ignoring case.
func SameAddr(a, b string) bool { return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b)) }

// PlayerByPower returns the index in g.Players of the seat of the power
// named name, or -1.
func PlayerByPower(g *state.Game, name string) int {
	for i := range g.Players {
		if g.Players[i].Power != "" && strings.EqualFold(g.Players[i].Power, name) {
			return i
		}
	}
	return -1
}

// PlayerByAddr returns the index in g.Players of the first seat held by
// addr, or -1.
func PlayerByAddr(g *state.Game, addr string) int {
	for i := range g.Players {
		if SameAddr(g.Players[i].Addr, addr) {
			return i
		}
	}
	return -1
}

// ObserverByAddr returns the index in g.Observers of addr, or -1.
func ObserverByAddr(g *state.Game, addr string) int {
	for i := range g.Observers {
		if SameAddr(g.Observers[i].Addr, addr) {
			return i
		}
	}
	return -1
}

// Capitalize returns s with its first letter in upper case, as njudge
// writes game names in headers ("Game: Dt").
func Capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// dateLayout is the classic judge's way of writing a time.
const dateLayout = "Mon Jan 02 2006 15:04:05 -0700"

// ZoneOf returns the game's time zone, UTC when it is unset or unknown.
func ZoneOf(g *state.Game) *time.Location {
	if g.Settings.Zone == "" {
		return time.UTC
	}
	loc, err := time.LoadLocation(g.Settings.Zone)
	if err != nil {
		return time.UTC
	}
	return loc
}

// FormatDate writes t in the game's zone as the classic judges do:
// "Tue Jan 06 2004 23:30:00 +0000".
func FormatDate(g *state.Game, t time.Time) string {
	return t.In(ZoneOf(g)).Format(dateLayout)
}

// PhaseOf returns the id of the game's current phase ("S1901M"): the
// first phase of the variant while the game forms, with njudge's 'X'
// appended once the game is over.
func (m *Engine) PhaseOf(g *state.Game) string {
	if len(g.Position) == 0 {
		if mp, err := GameMap(g); err == nil {
			return mp.StartPhase().String()
		}
		return "?"
	}
	pos, _, err := m.Position(g)
	if err != nil {
		return "?"
	}
	if g.Status == state.Finished {
		return pos.Phase.String() + "X"
	}
	return pos.Phase.String()
}

// Header is the common header of every game mail (judge-mail-format.md
// §3a). Its String method gives the two lines after a blank one:
//
//	:: Judge: GMD  Game: Dt  Variant: Standard
//	:: Deadline: S1901M Tue Jan 06 2004 23:30:00 +0000
//
// so that a template writes {{.Header}}; the fields are there for
// templates that want another layout.
type Header struct {
	Judge    string // "GMD"
	Game     string // the game's name, lower case: "dt"
	Variant  string // the variant's title: "Standard"
	Phase    string // "S1901M"
	Deadline string // the deadline in the game's zone; noDeadlineForming while forming
}

// What the header shows in place of a deadline: for a game that has not
// started, and for one that has no deadline running.
const (
	noDeadlineForming = "none (the game has not started)"
	NoDeadline        = "none"
)

// String returns the header as mailed, starting with the blank line.
func (h Header) String() string {
	return "\n:: Judge: " + h.Judge + "  Game: " + Capitalize(h.Game) + "  Variant: " + h.Variant +
		"\n:: Deadline: " + h.Phase + " " + h.Deadline + "\n"
}

// Header returns the common header of g's mails.
func (m *Engine) Header(g *state.Game) Header {
	h := Header{Judge: m.cfg.JudgeName, Game: g.Name, Variant: Capitalize(g.Variant), Phase: m.PhaseOf(g)}
	if mp, err := GameMap(g); err == nil {
		h.Variant = mp.Title
	}
	switch {
	case g.Status == state.Forming:
		// njudge shows the epoch here, which reads as a deadline that
		// passed in 1970; a game that has not started has none.
		h.Deadline = noDeadlineForming
	case g.Deadline.IsZero():
		h.Deadline = NoDeadline
	default:
		h.Deadline = FormatDate(g, g.Deadline)
	}
	return h
}

// SubjectTag is how every subject about g begins: "GMD:dt - S1901M".
func (m *Engine) SubjectTag(g *state.Game) string {
	return m.cfg.JudgeName + ":" + g.Name + " - " + m.PhaseOf(g)
}

// StartData is the data of start.tmpl.
type StartData struct {
	Header  Header
	Tag     string     // "GMD:dt - S1901M"
	Game    string     // "dt"
	Power   string     // the reader's power; "" for the master and observers
	Letter  string     // the letter of the reader's power: "F"
	Players []SeatLine // every seat, in power order
	// PowerWidth is the width of the column of "Power:" in the list of
	// players: at least 10, more for a variant with longer names.
	PowerWidth int
	Units      []string     // "Austria: Army Vienna.", a blank string between powers
	Season     string       // "Spring of 1901"
	Deadline   string       // the first deadline, in the game's zone
	Settings   GameSettings // the game's settings, for the record
}

// SeatLine is one power and who plays it, as shown to players.
type SeatLine struct {
	Power  string
	Addr   string
	Status string // "" while playing, otherwise the seat's status
	Bot    bool   // the judge's bot plays the seat (SET BOT)
}

// StartGame assigns the powers of a full forming game, sets up the first
// position, starts the clock and sends the game-start mails.
func (m *Engine) StartGame(tx *state.Tx, g *state.Game, now time.Time) error {
	mp, err := GameMap(g)
	if err != nil {
		return fmt.Errorf("game %s: %w", g.Name, err)
	}
	rules, err := judge.RulesByName(g.Rules)
	if err != nil {
		return fmt.Errorf("game %s: %w", g.Name, err)
	}
	rules.Builds = buildRuleOf(g)
	rules.Victory = g.Settings.Victory
	AssignPowers(g, mp, now)
	addEmptySeats(g, mp)
	pos := judge.StartPosition(mp)
	g.Position = jsonpos.EncodePosition(pos, rules)
	g.Status = state.Active
	g.Turn = 0
	g.Orders, g.Written = map[string][]string{}, nil
	for i := range g.Players {
		if g.Players[i].Empty {
			continue // abandoned from the start (FORCE BEGIN)
		}
		g.Players[i].Status = state.Playing
		g.Players[i].Preference = ""
		if err := LogSeat(tx, g, &g.Players[i], state.SeatJoined, pos.Phase.String(), now); err != nil {
			return err
		}
	}
	if g.Settings.Bot == BotFill {
		// The seats left empty are the bot's from the first phase.
		m.EnterBots(g, pos, rules)
	}
	m.StartClock(g, now)

	data := StartData{
		Header:     m.Header(g),
		Tag:        m.SubjectTag(g),
		Game:       g.Name,
		Players:    SeatLines(g, !Anonymous(g)),
		PowerWidth: NameColumn(mp, 1, 10),
		Units:      UnitLines(pos),
		Season:     report.Season(pos.Phase),
		Deadline:   FormatDate(g, g.Deadline),
		Settings:   SettingsOf(g),
	}
	for i := range g.Players {
		if g.Players[i].Empty {
			continue // nobody to mail
		}
		d := data
		d.Power = g.Players[i].Power
		if Fogged(g) {
			// Under fog of war a power is shown the units it sees, even
			// of a start every rulebook prints.
			d.Units = UnitLines(FogFor(g, pos, d.Power))
		}
		if k := PowerIndex(mp, d.Power); k < len(mp.Powers) {
			d.Letter = string(mp.Powers[k].Letter)
		}
		if err := m.Send(tx, now, "start", d, []string{g.Players[i].Addr}, ""); err != nil {
			return err
		}
	}
	// The master and the observers get the same mail without a power.
	var others []string
	for _, a := range m.Recipients(g) {
		if PlayerByAddr(g, a) < 0 {
			others = append(others, a)
		}
	}
	data.Power = ""
	return m.SendGame(tx, now, g, "start", data, others)
}

// addEmptySeats gives each power that no player of g got a seat of its
// own, empty (state.Player.Empty): abandoned from the start, free for a
// takeover. Only a game the master started short (FORCE BEGIN) has such
// powers.
func addEmptySeats(g *state.Game, mp *judge.Map) {
	for _, pw := range mp.Powers {
		if PlayerByPower(g, pw.Name) < 0 {
			g.Players = append(g.Players, state.Player{Power: pw.Name, Status: state.Abandoned, Empty: true})
		}
	}
	slices.SortStableFunc(g.Players, func(a, b state.Player) int {
		return PowerIndex(mp, a.Power) - PowerIndex(mp, b.Power)
	})
}

// AssignPowers gives every player of a full forming game a power: players,
// taken in a random order, get the first power of their preference list
// still free; the others get the powers left, at random. The randomness is
// seeded from the game's name and the start time, so that the same game
// started at the same time deals the same powers (and tests can tell).
func AssignPowers(g *state.Game, mp *judge.Map, now time.Time) {
	h := fnv.New64a()
	h.Write([]byte(g.Name))
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(now.UnixNano()))
	h.Write(b[:])
	seed := h.Sum64()
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))

	free := make([]bool, len(mp.Powers))
	for i := range free {
		free[i] = true
	}
	order := r.Perm(len(g.Players))
	var left []int
	for _, i := range order {
		p := &g.Players[i]
		p.Power = ""
		for _, c := range strings.ToUpper(p.Preference) {
			if k := PowerByLetter(mp, byte(c)); k >= 0 && free[k] {
				p.Power, free[k] = mp.Powers[k].Name, false
				break
			}
		}
		if p.Power == "" {
			left = append(left, i)
		}
	}
	var rest []int
	for k, f := range free {
		if f {
			rest = append(rest, k)
		}
	}
	r.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	for n, i := range left {
		if n < len(rest) {
			g.Players[i].Power = mp.Powers[rest[n]].Name
		}
	}
	// Seats in the map's power order read best in every list.
	slices.SortStableFunc(g.Players, func(a, b state.Player) int {
		return PowerIndex(mp, a.Power) - PowerIndex(mp, b.Power)
	})
}

// PowerByLetter returns the index of the power with this letter, or -1.
func PowerByLetter(mp *judge.Map, c byte) int {
	if 'a' <= c && c <= 'z' {
		c -= 'a' - 'A'
	}
	for k := range mp.Powers {
		if mp.Powers[k].Letter == c {
			return k
		}
	}
	return -1
}

// PowerIndex returns the index of the power named name, or len(Powers)
// for none, so that unassigned seats sort last.
func PowerIndex(mp *judge.Map, name string) int {
	for k := range mp.Powers {
		if strings.EqualFold(mp.Powers[k].Name, name) {
			return k
		}
	}
	return len(mp.Powers)
}

// PowerNamed reads the power that a command's words name: all of them a
// power's name or adjective, read as an order line's prefix is ("North
// Vietnam"), or one word that is a power's letter.
func PowerNamed(mp *judge.Map, words []string) (judge.Power, bool) {
	if p, n := parser.MatchPower(mp, words); n > 0 && n == len(words) {
		return p, true
	}
	if len(words) == 1 {
		return mp.PowerByName(words[0])
	}
	return judge.NoPower, false
}

// PowerOf returns the judge.Power of the power named name.
func PowerOf(mp *judge.Map, name string) (judge.Power, bool) {
	k := PowerIndex(mp, name)
	if k == len(mp.Powers) {
		return judge.NoPower, false
	}
	return judge.Power(k), true
}

// EmptySeat names the holder of a seat nobody has held since FORCE BEGIN
// started the game without a player for it (state.Player.Empty), in
// the listings.
const EmptySeat = "nobody yet"

// SeatLines lists g's seats in order; addresses only when showAddr (never
// in a gunboat game not yet revealed), hiddenAddr otherwise.
func SeatLines(g *state.Game, showAddr bool) []SeatLine {
	out := make([]SeatLine, 0, len(g.Players))
	for _, p := range g.Players {
		l := SeatLine{Power: p.Power, Addr: HiddenAddr}
		if showAddr {
			l.Addr = p.Addr
		}
		if p.Empty {
			l.Addr = EmptySeat
		}
		if p.Status != state.Playing {
			l.Status = string(p.Status)
		}
		l.Bot = p.Bot
		out = append(out, l)
	}
	return out
}

// NameColumn returns the width of a column of mp's power names, each
// followed by extra characters (a colon): the longest, but at least
// least, so that the standard powers keep the classic columns and a
// variant's longer names ("Constantinople") do not push a row out of
// line.
func NameColumn(mp *judge.Map, extra, least int) int {
	n := least
	for _, p := range mp.Powers {
		n = max(n, len(p.Name)+extra)
	}
	return n
}

// UnitLines lists the units of pos, "Austria: Army Vienna.", by power in
// map order and by province name within a power, with an empty string
// between powers; the neutral units come last ("Neutral: Army
// Lothairingia.").
func UnitLines(pos *judge.Position) []string {
	mp := pos.Map
	var out []string
	// The powers in order, then the neutral units (judge.Unit.Neutral).
	for k := range len(mp.Powers) + 1 {
		var lines []string
		for _, u := range pos.Units {
			if u.Type != judge.NoUnit && min(int(u.Power), len(mp.Powers)) == k {
				lines = append(lines, mp.UnitOwner(u.Power)+": "+u.Type.Word()+" "+mp.FullName(u.Loc)+".")
			}
		}
		if len(lines) == 0 {
			continue
		}
		slices.Sort(lines)
		if len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, lines...)
	}
	return out
}

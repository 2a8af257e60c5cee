package session

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/report"
	"github.com/gmdjudge/gmd/state"
)

// The ranges and the press of HISTORY (issue 24): HISTORY game FROM
// <phase> TO <phase>, and HISTORY game PRESS, each bounded in phases,
// messages, bytes and maps, whoever asks. njudge's HISTORY takes dates
// and EXCLSTART; gmd names phases, as the rest of its commands do.

const (
	// maxHistoryYears is how many years one HISTORY range may span: a
	// range is for a stretch of a game, and its reply is cut at
	// historyLimit phases anyway.
	maxHistoryYears = 10
	// maxPressMessages and maxPressBytes bound one HISTORY PRESS: the
	// newest messages of the range, up to these, and where to ask for
	// the rest.
	maxPressMessages = 20
	maxPressBytes    = 32 << 10
	// maxPressScan bounds the press text one HISTORY PRESS reads, most
	// of it perhaps others' that the sender may not see: past it the
	// search stops at the end of a phase and says where to go on.
	maxPressScan = 1 << 20
)

// phaseRange is a span of phases, by phaseKey; from 0 is the start of
// the game and to 0 its current phase.
type phaseRange struct {
	from, to         int
	fromText, toText string // as the sender wrote them, upper case
}

// phaseKey orders phases: by year, then season, then type.
func phaseKey(p judge.Phase) int {
	return p.Year*100 + int(p.Season)*10 + int(p.Type)
}

// in reports whether the phase named name (a record's "S1901M") falls in
// the range.
func (r phaseRange) in(name string) bool {
	p, err := judge.ParsePhase(name)
	if err != nil {
		return false
	}
	k := phaseKey(p)
	return (r.from == 0 || k >= r.from) && (r.to == 0 || k <= r.to)
}

// parseRange reads FROM <phase> and TO <phase>, each optional, from
// words; it reports a refusal on the command's line and returns ok false.
func (s *session) parseRange(c *parser.Command, words []string) (r phaseRange, ok bool) {
	for len(words) > 0 {
		kw := strings.ToUpper(words[0])
		if (kw != "FROM" && kw != "TO") || len(words) < 2 {
			s.fail(c.Line, "HISTORY takes FROM <phase> and TO <phase> after the game's name, as in HISTORY %s FROM S1901M TO W1902A.", c.Args[0])
			return r, false
		}
		text := strings.ToUpper(words[1])
		ph, err := judge.ParsePhase(text)
		if err != nil {
			s.fail(c.Line, "%q is not a phase: use one like S1901M, F1901R or W1901A.", words[1])
			return r, false
		}
		if kw == "FROM" {
			r.from, r.fromText = phaseKey(ph), text
		} else {
			r.to, r.toText = phaseKey(ph), text
		}
		words = words[2:]
	}
	switch {
	case r.from != 0 && r.to != 0 && r.from > r.to:
		s.fail(c.Line, "FROM %s is after TO %s: name the earlier phase after FROM.", r.fromText, r.toText)
		return r, false
	case r.from != 0 && r.to != 0 && r.to/100-r.from/100 >= maxHistoryYears:
		s.fail(c.Line, "FROM %s TO %s spans %d years; one HISTORY covers at most %d: ask for a shorter stretch.",
			r.fromText, r.toText, r.to/100-r.from/100+1, maxHistoryYears)
		return r, false
	}
	return r, true
}

// words says the range in words: "from S1901M to F1903M".
func (r phaseRange) words() string {
	var parts []string
	if r.fromText != "" {
		parts = append(parts, "from "+r.fromText)
	}
	if r.toText != "" {
		parts = append(parts, "to "+r.toText)
	}
	return strings.Join(parts, " ")
}

// historyRange writes the results of g's processed phases recs that fall
// in the range: at most historyLimit of them, the earliest first, and
// where to ask for the rest; the maps of the first of them, up to
// maxReplyMaps in the reply.
func (s *session) historyRange(c *parser.Command, g *state.Game, recs []*state.PhaseRecord) error {
	r, ok := s.parseRange(c, c.Args[1:])
	if !ok {
		return nil
	}
	recs = slices.DeleteFunc(slices.Clone(recs), func(rec *state.PhaseRecord) bool { return !r.in(rec.Phase) })
	if len(recs) == 0 {
		s.printf("No processed phase of '%s' falls %s.", g.Name, r.words())
		return nil
	}
	if len(recs) > historyLimit {
		rest := recs[historyLimit]
		to := ""
		if r.toText != "" {
			to = " TO " + r.toText
		}
		s.printf("%d processed phases of '%s' fall %s; here are the first %d. For the rest send HISTORY %s FROM %s%s.",
			len(recs), g.Name, r.words(), historyLimit, g.Name, rest.Phase, to)
		recs = recs[:historyLimit]
	}
	var noMap []string
	why := s.noMaps(g)
	for _, rec := range recs {
		s.printf("\n%s (%s.%03d), processed %s:\n\n", rec.Phase, g.Name, rec.Turn, engine.FormatDate(g, rec.Processed))
		text, err := s.resultsOf(g, rec)
		if err != nil {
			return err
		}
		s.reply.WriteString(strings.TrimRight(text, "\n"))
		s.reply.WriteByte('\n')
		switch {
		case why != "":
		case len(s.maps) >= maxReplyMaps:
			noMap = append(noMap, rec.Phase)
		default:
			s.attachMap(g, rec)
		}
	}
	switch {
	case why != "" && why != noMapWanted:
		s.printf("\nNo maps: %s", why)
	case len(noMap) > 0:
		s.printf("\nNo map of %s: a reply carries at most %d; HISTORY %s <phase> sends one.", strings.Join(noMap, " "), maxReplyMaps, g.Name)
	}
	return nil
}

// pressViewer is who reads HISTORY PRESS: what they could see of each
// message when it was sent.
type pressViewer struct {
	master bool
	power  string // the power signed on as, "" for the master or an observer
	// since is when the power's holder took the seat: the press of the
	// seat before it was someone else's.
	since time.Time
}

// sees returns how the viewer read p when it was sent, as the sender's
// name and a note, or ok false if the viewer never saw it: a broadcast
// went to everyone in the game; partial press to the powers and the
// master it names, and to its sender; fake press to the master too.
func (v pressViewer) sees(p *state.Press) (from string, ok bool) {
	mine := v.power != "" && p.From == v.power && !p.Sent.Before(v.since)
	toMe := v.power != "" && slices.Contains(p.To, v.power) && !p.Sent.Before(v.since)
	switch {
	case mine && p.Claimed != "":
		return p.Claimed + " (fake press you sent)", true
	case mine && p.Grey:
		return "someone (grey press you sent)", true
	case mine:
		return p.From + " (you)", true
	case v.master && p.From == "Master":
		return "the Master (you)", true
	case v.master && p.Claimed != "":
		return p.Claimed + " (fake: " + p.From + " sent it)", true
	case len(p.To) == 0, toMe, v.master && (p.From == "Master" || slices.Contains(p.To, "Master")):
	default:
		return "", false
	}
	switch {
	case p.Grey:
		return "someone", true
	case p.Claimed != "":
		return p.Claimed, true
	case p.From == "Master":
		return "the Master", true
	case p.From == "Observer":
		return "an observer", true
	}
	return p.From, true
}

// historyPress handles HISTORY game PRESS [FROM <phase>] [TO <phase>]:
// the press of g that the signed-on sender sent or received, or could
// see (broadcasts), as they read it then. It needs the sign-on to g,
// which proves the seat: the From line proves nothing.
func (s *session) historyPress(c *parser.Command, g *state.Game) error {
	if s.game == nil || s.game.Name != g.Name {
		s.fail(c.Line, "HISTORY %s PRESS shows the press you sent or received in '%s': sign on to it first (SIGNON Pgame password, or OBSERVE game password).", g.Name, g.Name)
		return nil
	}
	r, ok := s.parseRange(c, c.Args[2:])
	if !ok {
		return nil
	}
	v := pressViewer{master: s.master}
	if !s.master && s.power != "" {
		i := engine.PlayerByPower(g, s.power)
		if i < 0 {
			return fmt.Errorf("game %s: no seat for %s", g.Name, s.power)
		}
		v.power, v.since = s.power, g.Players[i].Joined
	}
	type shown struct {
		p    *state.Press
		from string
	}
	// The phase each turn's press was sent in (a record of turn t is
	// the phase played while the game's Turn was t-1), to skip the turns
	// out of the range unread.
	recs, err := s.tx.Phases(g.Name)
	if err != nil {
		return err
	}
	phaseOf := map[int]string{g.Turn: s.m.PhaseOf(g)}
	for _, rec := range recs {
		phaseOf[rec.Turn-1] = rec.Phase
	}
	var picked []shown
	size, scanned, more, stopped := 0, 0, false, ""
	for turn := g.Turn; turn >= 0 && !more; turn-- {
		if ph, ok := phaseOf[turn]; ok && !r.in(ph) {
			continue
		}
		if scanned > maxPressScan {
			stopped = phaseOf[turn] // the first phase not read
			if stopped == "" {
				stopped = "?"
			}
			break
		}
		ps, err := s.tx.Press(g.Name, turn)
		if err != nil {
			return err
		}
		for i := len(ps) - 1; i >= 0; i-- {
			p := ps[i]
			scanned += len(p.Text)
			from, ok := v.sees(p)
			if !ok || !r.in(p.Phase) {
				continue
			}
			if len(picked) == maxPressMessages || size+len(p.Text) > maxPressBytes && len(picked) > 0 {
				more = true
				break
			}
			picked = append(picked, shown{p, from})
			size += len(p.Text)
		}
	}
	what := "you sent or received"
	if v.power == "" && !v.master {
		what = "everyone in it could read"
	}
	switch stopped {
	case "":
	case "?": // a turn whose phase no record names: a game rolled back
		defer s.printf("\nThe search stopped: the rest of the press of '%s' is more than one reply reads. Name the phases: HISTORY %s PRESS FROM phase TO phase.",
			g.Name, g.Name)
	default:
		defer s.printf("\nThe search stopped before %s: the press of '%s' after it is more than one reply reads. For %s and earlier send HISTORY %s PRESS TO %s.",
			stopped, g.Name, stopped, g.Name, stopped)
	}
	if len(picked) == 0 {
		s.printf("No press of '%s' that %s %s.", g.Name, what, strings.TrimSpace("was sent "+r.words()))
		return nil
	}
	slices.Reverse(picked)
	if more {
		s.printf("The press of '%s' that %s is longer than one reply: here are the last %s. For earlier ones send HISTORY %s PRESS TO %s.",
			g.Name, what, messages(len(picked)), g.Name, picked[0].p.Phase)
	} else {
		s.printf("The press of '%s' that %s: %s.", g.Name, what, messages(len(picked)))
	}
	for _, m := range picked {
		head := "Message from " + m.from + " to " + strings.Join(m.p.To, ", ")
		if len(m.p.To) == 0 {
			head = "Broadcast message from " + m.from
		}
		s.printf("\n%s, %s, %s:\n", m.p.Phase, engine.FormatDate(g, m.p.Sent), head)
		s.reply.WriteString("\n" + strings.TrimRight(m.p.Text, "\n") + "\n")
	}
	return nil
}

// messages counts messages in words: "1 message", "3 messages".
func messages(n int) string {
	return fmt.Sprintf("%d %s", n, report.Plural(n, "message", "messages"))
}

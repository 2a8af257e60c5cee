package session

import (
	"github.com/gmdjudge/gmd/internal/textsafe"
	"slices"
	"strings"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/state"
)

// pressData is the data of press.tmpl, one press message as a recipient
// sees it.
type pressData struct {
	Header    engine.Header
	Tag       string   // "GMD:dt - S1901M"
	Game      string   // "dt"
	From      string   // "France", "the Master", or "someone" for grey press
	FromTag   string   // "F", "M", or "someone" for grey press: for the subject
	To        []string // the recipients' names ("England", "Master"); empty for a broadcast
	ToTag     string   // "EG", "M": for the subject
	Broadcast bool
	Grey      bool
	Text      string
	// FakedBy is, in the master's copy of fake press (SET FAKE), the
	// power that really sent it: From is the power it claims.
	FakedBy string
}

// pressTarget is who a press message goes to.
type pressTarget struct {
	all    bool          // a broadcast
	powers []judge.Power // the powers addressed, in map order
	master bool          // the master is addressed
}

// cmdPress handles PRESS [GREY|WHITE] TO <recipients> and BROADCAST
// [GREY|WHITE], each with its text up to ENDPRESS. Press is delivered at
// once, one mail to each recipient, and kept apart from the game record
// (state.Tx.AddPress); what the game's press settings or the bounds on a
// mail's cost (cost.go) forbid is refused and nothing is sent.
func (s *session) cmdPress(c *parser.Command) error {
	g := s.game
	if g.Status != state.Active && g.Status != state.Paused {
		s.fail(c.Line, "Press is for games being played; '%s' is %s.", g.Name, g.Status)
		return nil
	}
	mp, err := engine.GameMap(g)
	if err != nil {
		return err
	}
	grey, white := false, false
	var target pressTarget
	claimed := judge.NoPower // the sender that fake press claims (AS R)
	words := c.Args
	broadcast := strings.EqualFold(c.Name, "BROADCAST")
	for len(words) > 0 {
		w := strings.ToUpper(words[0])
		if w == "GREY" || w == "GRAY" || w == "ANONYMOUS" {
			grey = true
		} else if w == "WHITE" {
			white = true
		} else if w == "FAKE" {
			s.fail(c.Line, "%s Nothing was sent.", fakeWords)
			return nil
		} else if w == "AS" && claimed == judge.NoPower {
			p, n, msg := claimedSender(mp, words[1:])
			if msg != "" {
				s.fail(c.Line, "%s Nothing was sent.", msg)
				return nil
			}
			claimed, words = p, words[n:]
		} else {
			break
		}
		words = words[1:]
	}
	if broadcast {
		if len(words) > 0 {
			s.fail(c.Line, "BROADCAST goes to everyone; for some powers use PRESS TO <powers>. Nothing was sent.")
			return nil
		}
		target.all = true
	} else {
		if len(words) > 0 && strings.EqualFold(words[0], "TO") {
			words = words[1:]
		}
		if len(words) == 0 {
			// njudge's guard: a bare PRESS sends nothing rather than guess.
			s.fail(c.Line, "PRESS needs recipients: PRESS TO EG, PRESS TO ALL, PRESS TO ALL BUT R, PRESS TO M. Nothing was sent.")
			return nil
		}
		var msg string
		if target, msg = parseRecipients(mp, words); msg != "" {
			s.fail(c.Line, "%s Nothing was sent.", msg)
			return nil
		}
	}
	// The body as the recipients would read it: a body of control
	// characters only (a NUL, say) is as empty as one of spaces.
	if strings.TrimSpace(pressText(c.Body)) == "" {
		s.fail(c.Line, "The press has no text. Nothing was sent.")
		return nil
	}

	// Who sends, and what the game allows them.
	var from judge.Power = judge.NoPower
	if !s.master && s.power != "" {
		from, _ = engine.PowerOf(mp, s.power)
	}
	// The powers as the sender addressed them, the sender included if
	// they named themselves: what grey press shows (see below).
	addressed := slices.Clone(target.powers)
	if from != judge.NoPower {
		target.powers = slices.DeleteFunc(target.powers, func(p judge.Power) bool { return p == from })
	}
	if !target.all && len(target.powers) == 0 && !target.master {
		s.fail(c.Line, "The press is addressed to nobody but you. Nothing was sent.")
		return nil
	}
	toPowers := target.all || len(target.powers) > 0 // more than the master
	st := g.Settings
	if msg := s.pressLimits(g, from, claimed, grey, toPowers, target.master); msg != "" {
		s.fail(c.Line, "%s Nothing was sent.", msg)
		return nil
	}
	switch {
	case s.master:
		if grey {
			s.fail(c.Line, "Press from the master is never grey. Nothing was sent.")
			return nil
		}
	case from == judge.NoPower && toPowers:
		s.fail(c.Line, "Observers may send press only to the master (PRESS TO M). Nothing was sent.")
		return nil
	case !toPowers:
		// Press to the master alone is always allowed, and always white.
		if grey {
			s.fail(c.Line, "Press to the master is never grey. Nothing was sent.")
			return nil
		}
	case st.Press == "none" || st.Press == "":
		s.fail(c.Line, "Game '%s' has no press between powers; press to the master (PRESS TO M) is allowed. Nothing was sent.", g.Name)
		return nil
	case !target.all && !st.Partial:
		s.fail(c.Line, "Game '%s' allows no partial press: use BROADCAST. Nothing was sent.", g.Name)
		return nil
	case grey && st.Press != "grey":
		s.fail(c.Line, "Game '%s' has white press only: every press says who sent it. Nothing was sent.", g.Name)
		return nil
	case white && st.Press == "grey":
		s.fail(c.Line, "Game '%s' has grey press only: press between powers does not say who sent it. Nothing was sent.", g.Name)
		return nil
	case st.Press == "grey":
		grey = true
	}

	d := pressData{
		Header: s.m.Header(g), Tag: s.m.SubjectTag(g), Game: g.Name,
		Broadcast: target.all, Grey: grey, Text: pressText(c.Body),
	}
	switch {
	case grey:
		d.From, d.FromTag = "someone", "someone"
	case s.master:
		d.From, d.FromTag = "the Master", "M"
	case from == judge.NoPower:
		d.From, d.FromTag = "an observer", "O"
	case claimed != judge.NoPower:
		d.From, d.FromTag = mp.Powers[claimed].Name, string(mp.Powers[claimed].Letter)
	default:
		d.From, d.FromTag = mp.Powers[from].Name, string(mp.Powers[from].Letter)
	}
	var to []string // addresses
	add := func(addr string) {
		if addr != "" && !engine.SameAddr(addr, s.in.From) && !slices.ContainsFunc(to, func(a string) bool { return engine.SameAddr(a, addr) }) {
			to = append(to, addr)
		}
	}
	if target.all {
		for _, a := range s.m.Recipients(g) {
			add(a)
		}
	} else {
		// The recipient list of grey press is the one the sender wrote.
		// Without the sender taken out of it, it names the sender no more
		// than the sender chose to: grey press to all seven powers lists
		// all seven, where the six others would point at the seventh.
		shown := target.powers
		if grey {
			shown = addressed
		}
		var tag strings.Builder
		for _, p := range shown {
			d.To = append(d.To, mp.Powers[p].Name)
			tag.WriteByte(mp.Powers[p].Letter)
		}
		for _, p := range target.powers {
			if i := engine.PlayerByPower(g, mp.Powers[p].Name); i >= 0 && g.Players[i].Status != state.Abandoned {
				add(g.Players[i].Addr)
			}
		}
		if target.master {
			d.To = append(d.To, "Master")
			tag.WriteByte('M')
			add(g.MasterAddr)
		}
		d.ToTag = engine.SubjectLetters(tag.String())
	}
	if claimed != judge.NoPower {
		// The master gets every fake press, marked, whoever it went to.
		add(g.MasterAddr)
	}
	// The record keeps who really sent grey press: the master may need it.
	sender, quota := s.power, s.power
	if sender == "" {
		sender, quota = "Observer", strings.ToLower(s.in.From)
	}
	if msg := s.pressRefusal(quota, int64(len(d.Text)), len(to)); msg != "" {
		s.fail(c.Line, "%s Nothing was sent.", msg)
		return nil
	}
	rec := &state.Press{
		Phase: s.m.PhaseOf(g), From: sender, To: d.To, Grey: grey, Text: d.Text, Sent: s.now,
	}
	if claimed != judge.NoPower {
		rec.Claimed = d.From
	}
	err = s.tx.AddPress(g.Name, g.Turn, rec)
	if err != nil {
		return err
	}
	s.notePress(quota, int64(len(d.Text)))
	s.dirty = true
	for _, a := range to {
		dd := d
		if claimed != judge.NoPower && engine.SameAddr(a, g.MasterAddr) {
			dd.FakedBy = mp.Powers[from].Name
		}
		if err := s.m.Send(s.tx, s.now, "press", dd, []string{a}, ""); err != nil {
			return err
		}
	}
	if c.Unterminated {
		// Anything meant as orders after the press went out as its text.
		s.printf("There was no ENDPRESS: the rest of the mail was taken as the text of the press.")
	}
	kind := "Press"
	if grey {
		kind = "Grey press"
	} else if claimed != judge.NoPower {
		kind = "Press as " + d.From
	}
	if target.all {
		s.printf("%s broadcast to everyone in '%s'.", kind, g.Name)
	} else {
		s.printf("%s sent to %s.", kind, strings.Join(d.To, ", "))
		botPressNote(s, g, mp, target.powers)
	}
	return nil
}

// parseRecipients reads the recipients of PRESS TO: "ALL", "ALL BUT R",
// "-R", power letters run together ("EG", "M" for the master), power names
// or adjectives, separated by spaces, commas, "AND" or "+". It returns a
// message for the player when a word names nobody.
func parseRecipients(mp *judge.Map, words []string) (pressTarget, string) {
	var t pressTarget
	text := strings.ToUpper(strings.Join(words, " "))
	text = strings.NewReplacer(",", " ", "+", " ").Replace(text)
	ws := strings.Fields(text)
	but := false
	switch {
	case len(ws) > 0 && ws[0] == "ALL":
		ws = ws[1:]
		if len(ws) == 0 {
			t.all = true
			return t, ""
		}
		if ws[0] != "BUT" && ws[0] != "EXCEPT" {
			return t, "Use PRESS TO ALL, or PRESS TO ALL BUT <powers>."
		}
		ws, but = ws[1:], true
	case len(ws) > 0 && strings.HasPrefix(ws[0], "-"):
		ws[0] = strings.TrimPrefix(ws[0], "-")
		if ws[0] == "" {
			ws = ws[1:]
		}
		but = true
	}
	in := make([]bool, len(mp.Powers))
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		if w == "AND" {
			continue
		}
		// A name or adjective, of one word or several ("NORTH
		// VIETNAM"), read as an order line's prefix is.
		if p, n := parser.MatchPower(mp, ws[i:]); n > 0 {
			in[p] = true
			i += n - 1
			continue
		}
		if w == "MASTER" || w == "GM" {
			t.master = true
			continue
		}
		if p, ok := mp.PowerByName(w); ok && (len(w) > 1 || w != "M") {
			in[p] = true
			continue
		}
		// A run of letters: "EG", "EGM".
		for i := 0; i < len(w); i++ {
			if w[i] == 'M' && engine.PowerByLetter(mp, 'M') < 0 {
				t.master = true
				continue
			}
			k := engine.PowerByLetter(mp, w[i])
			if k < 0 {
				return t, "\"" + w + "\" names no power: use letters (" + powerLetters(mp) + ", M for the master), names or ALL."
			}
			in[k] = true
		}
	}
	if but {
		if t.master {
			return t, "ALL BUT names powers only."
		}
		for k := range in {
			in[k] = !in[k]
		}
	}
	for k, ok := range in {
		if ok {
			t.powers = append(t.powers, judge.Power(k))
		}
	}
	if !but && len(t.powers) == 0 && !t.master {
		return t, "The press names no recipients."
	}
	return t, ""
}

// pressText is a press body as the recipients read it: the player's lines as
// written, without blank lines before or after them and with no run of blank
// lines longer than one, so that the judge's layout (one blank line between
// parts) holds whatever the sender typed. Characters a mail must not carry
// are taken out first (textsafe.Clean), as the mail's text would lose
// them anyway: a line of them alone is blank.
func pressText(body string) string {
	lines := strings.Split(textsafe.Clean(body), "\n")
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		blank := strings.TrimSpace(l) == ""
		if blank && (len(out) == 0 || out[len(out)-1] == "") {
			continue
		}
		if blank {
			l = ""
		}
		out = append(out, l)
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return strings.Join(out, "\n") + "\n"
}

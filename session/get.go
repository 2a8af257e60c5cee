package session

import (
	"slices"
	"strings"

	"github.com/gmdjudge/gmd/parser"
)

// GET <topic> (njudge's GET, and SEND) is HELP on one topic: a part of
// the same text, never a second copy of it. A command's topic is its
// rows of HELP, built from the command table; SET's are the SET table's;
// ORDERS, MASTER and VARIANTS are the parts of help.tmpl that HELP
// includes; INDEX is every command on a line, as njudge's index file.

func init() {
	commands["GET"] = command{run: (*session).cmdGet, output: true}
}

// helpParts are the topics that are parts of help.tmpl, by the words
// GET takes for them (njudge's file names among them: SYNTAX for its
// order syntax, INFO for HELP).
var helpParts = map[string]string{
	"ORDERS": "orders", "ORDER": "orders", "SYNTAX": "orders",
	"MASTER": "master", "MASTERS": "master",
	"VARIANTS": "variants", "VARIANT": "variants",
}

// getTopics lists the topics GET takes beside the commands, in the words
// of its replies.
const getTopics = "INDEX, ORDERS, MASTER, SET [option], VARIANTS, LENGTHS, HELP (all of it)"

// cmdGet handles GET [topic]: HELP's text on one topic.
func (s *session) cmdGet(c *parser.Command) error {
	args := c.Args
	if len(args) > 0 && strings.EqualFold(args[0], "ME") { // njudge's SEND ME file
		args = args[1:]
	}
	if len(args) == 0 {
		s.printf("GET takes one topic of the HELP text: %s, or a command: %s.", getTopics, strings.Join(commandNames(), ", "))
		return nil
	}
	topic := strings.ToUpper(args[0])
	d := newHelpData(s.m.cfg.JudgeName, s.m.cfg.JudgeAddr)
	switch {
	case topic == "HELP" || topic == "INFO":
		return s.cmdHelp(c)
	case topic == "INDEX":
		s.printf("Every command, on a line (GET <command> for its forms):\n")
		for _, h := range d.Commands {
			info, _ := parser.LookupCommand(h.Name)
			s.printf("  %-9s %-7s %s", h.Name, info.Who, usage(h))
		}
		for _, h := range d.Master {
			s.printf("  %-9s %-7s %s", h.Name, parser.Master, usage(h))
		}
		return nil
	case topic == "LENGTHS" || topic == "DEADLINE" || topic == "DEADLINES":
		s.printf("The lengths of time a master sets (72h, 3d, or 48 for hours) are bounded:\n%s", strings.TrimRight(d.Lengths, "\n"))
		return nil
	case helpParts[topic] != "":
		text, err := s.m.tmpl.RenderPart("help", helpParts[topic], d)
		if err != nil {
			return err
		}
		s.reply.WriteString(strings.TrimRight(text, "\n") + "\n")
		return nil
	case topic == "SET" && len(args) > 1:
		return s.getSetOption(c, args[1:])
	}
	name, ok := commandByWord(topic)
	if !ok {
		s.fail(c.Line, "There is no help topic %q. The topics are %s, and the commands: %s.", args[0], getTopics, strings.Join(commandNames(), ", "))
		return nil
	}
	for _, h := range append(d.Commands, d.Master...) {
		if h.Name == name {
			s.reply.WriteString(h.Lines)
		}
	}
	info, _ := parser.LookupCommand(name)
	switch info.Who {
	case parser.Anyone:
		s.printf("Anyone may send %s, signed on to a game or not.", name)
	case parser.Player:
		s.printf("%s follows a sign-on to a game (SIGNON or OBSERVE).", name)
	case parser.Master:
		s.printf("%s is for the game's master, signed on as Mgame.", name)
	}
	return nil
}

// getSetOption handles GET SET option: the option's row of HELP.
func (s *session) getSetOption(c *parser.Command, words []string) error {
	opt, word, _, ok := parser.ReadSetOption(words)
	if !ok {
		s.fail(c.Line, "Unknown option SET %s. The options are %s.", word, parser.SetList())
		return nil
	}
	if opt.Usage == "" && opt.ShortFor != "" {
		opt, _ = parser.LookupSetOption(opt.ShortFor)
	}
	if opt.Usage == "" {
		// A row HELP shows under its pair's usage: NOWAIT under WAIT.
		for _, o := range parser.SetOptions() {
			if o.Usage != "" && strings.Contains(o.Usage, "SET "+opt.Syntax) {
				opt = o
				break
			}
		}
	}
	for _, f := range parser.SetForms(opt.Who) {
		if f.Usage == opt.Usage {
			s.reply.WriteString(helpColumns(f.Usage, strings.Fields(f.Help)))
		}
	}
	who := "any player, for their own seat"
	if opt.Who == parser.Master {
		who = "the game's master"
	}
	s.printf("Set by %s.", who)
	return nil
}

// commandByWord returns the Name of the command whose keyword, or
// synonym, is word (upper case).
func commandByWord(word string) (string, bool) {
	for _, c := range parser.Commands() {
		if c.Name == word || slices.Contains(c.Synonyms, word) {
			return c.Name, true
		}
	}
	return "", false
}

// commandNames lists the Names of the command table, in its order.
func commandNames() []string {
	var out []string
	for _, c := range parser.Commands() {
		out = append(out, c.Name)
	}
	return out
}

// usage is a command's first form, as INDEX shows it.
func usage(h helpCommand) string {
	if len(h.Forms) == 0 {
		return h.Name
	}
	return h.Forms[0].Usage
}

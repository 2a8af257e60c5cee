package parser

import (
	"strings"
	"time"
)

// SetOption is one option of SET: one row of the SET table, which is all
// that the mail parser, HELP, the error messages and the mail session's
// handlers know about the options there are.
type SetOption struct {
	// Name is the option's keyword, the one that HELP and the error
	// messages show, and the key of its handler in the session. An
	// option without Words (GAMEMAP) is reached only through another
	// option's handler.
	Name string
	// Words are the option's spellings, Name's among them where the
	// reader takes it, and njudge's synonyms: "ABSENCE", "HOLIDAY",
	// "VACATION".
	Words []string
	// Who may set it: Player (anyone signed on to the game, for their own
	// seat or address) or Master (the game's master, for the whole game).
	Who Who
	// Syntax is the option as the error messages list it, after "SET":
	// "PRESS WHITE|GREY|NONE". Empty when ShortFor says which row's
	// Syntax stands for it.
	Syntax string
	// ShortFor is the Name of the row whose form this option is short
	// for ("SET WHITE" is SET PRESS WHITE); only for a row without Syntax.
	ShortFor string
	// Usage is the option's form as HELP shows it ("SET ABSENCE from TO
	// to") and Help what it does, in one line; an empty Usage is a form
	// that HELP does not show on its own (WHITE, shown by PRESS's).
	Usage, Help string
	// When is when it may be set, in words for HELP, if not at any time
	// before the game is over: "before the start".
	When string
	// For an option that sets a length of time: What is the setting in a
	// sentence ("a movement phase"), Min and Max its bounds, and Off
	// whether 0, meaning none, is allowed too. Max is 0 for any other
	// option.
	What     string
	Min, Max time.Duration
	Off      bool
}

// setTable is every option of SET, in the order the error messages and
// HELP list them. The bounds of the lengths of time are why SET MOVEMENT
// 1ns is refused (an NMR game then processed a phase, and mailed its
// results to everyone, at every run of the clock, for ever): the floors
// are what a fast game by mail still needs (a phase a player can read
// and answer), the ceilings keep a game from being parked for months by
// one setting, and a grace or a reminder of 0 turns it off, which is no
// risk.
var setTable = []SetOption{
	{Name: "PASSWORD", Words: []string{"PASSWORD", "PASSWD", "PASS", "PWD"}, Who: Player, Syntax: "PASSWORD",
		Usage: "SET PASSWORD new", Help: "change your password"},
	{Name: "WAIT", Words: []string{"WAIT"}, Who: Player, Syntax: "WAIT",
		Usage: "SET WAIT | SET NOWAIT", Help: "hold or allow early processing"},
	{Name: "NOWAIT", Words: []string{"NOWAIT"}, Who: Player, Syntax: "NOWAIT"},
	{Name: "DRAW", Words: []string{"DRAW"}, Who: Player, Syntax: "DRAW",
		Usage: "SET DRAW [powers] | SET NODRAW", Help: "vote for, or against, a draw (powers: the draw you accept, where the game is NODIAS)"},
	{Name: "NODRAW", Words: []string{"NODRAW"}, Who: Player, Syntax: "NODRAW"},
	{Name: "ABSENCE", Words: []string{"ABSENCE", "HOLIDAY", "VACATION"}, Who: Player, Syntax: "ABSENCE",
		Usage: "SET ABSENCE from TO to", Help: "deadlines will not fall inside"},
	{Name: "NOABSENCE", Words: []string{"NOABSENCE", "NOHOLIDAY", "NOVACATION"}, Who: Player, Syntax: "NOABSENCE",
		Usage: "SET NOABSENCE", Help: "take back your absences"},
	{Name: "PREFERENCE", Words: []string{"PREFERENCE", "PREFERENCES"}, Who: Player, Syntax: "PREFERENCE",
		Usage: "SET PREFERENCE letters", Help: "the powers you want", When: "before the start"},
	{Name: "MAP", Words: []string{"MAP", "MAPS"}, Who: Player, Syntax: "MAP",
		Usage: "SET NOMAP | SET MAP", Help: "your mails of the game without, or with, the map of the board"},
	{Name: "NOMAP", Words: []string{"NOMAP", "NOMAPS"}, Who: Player, Syntax: "NOMAP"},
	{Name: "NMR", Words: []string{"NMR", "CD"}, Who: Master, Syntax: "NMR",
		Usage: "SET NMR | SET NONMR", Help: "a power that misses the end of grace goes into civil disorder, or is waited for"},
	{Name: "NONMR", Words: []string{"NONMR", "NOCD"}, Who: Master, Syntax: "NONMR"},
	{Name: "PRESS", Words: []string{"PRESS"}, Who: Master, Syntax: "PRESS WHITE|GREY|NONE",
		Usage: "SET PRESS WHITE|GREY|NONE", Help: "press that says who sent it, press that does not, or no press between powers"},
	{Name: "WHITE", Words: []string{"WHITE"}, Who: Master, ShortFor: "PRESS"},
	{Name: "GREY", Words: []string{"GREY", "GRAY"}, Who: Master, ShortFor: "PRESS"},
	{Name: "NOPRESS", Words: []string{"NOPRESS", "NONE"}, Who: Master, ShortFor: "PRESS"},
	{Name: "PARTIAL", Words: []string{"PARTIAL"}, Who: Master, Syntax: "PARTIAL",
		Usage: "SET PARTIAL | SET NOPARTIAL", Help: "allow press to some powers only, or not"},
	{Name: "NOPARTIAL", Words: []string{"NOPARTIAL"}, Who: Master, Syntax: "NOPARTIAL"},
	{Name: "MULTIPLE", Words: []string{"MULTIPLE"}, Who: Master, Syntax: "MULTIPLE",
		Usage: "SET MULTIPLE | SET NOMULTIPLE", Help: "one address in several seats, or not"},
	{Name: "NOMULTIPLE", Words: []string{"NOMULTIPLE"}, Who: Master, Syntax: "NOMULTIPLE"},
	{Name: "GUNBOAT", Words: []string{"GUNBOAT"}, Who: Master, Syntax: "GUNBOAT",
		Usage: "SET GUNBOAT | SET NOGUNBOAT", Help: "anonymous players, no press unless set again; or not", When: "before the start"},
	{Name: "NOGUNBOAT", Words: []string{"NOGUNBOAT"}, Who: Master, Syntax: "NOGUNBOAT", When: "before the start"},
	// The words of SET MAP are the player's row's: with ON or OFF after
	// it, the MAP handler hands it to this row.
	{Name: "GAMEMAP", Who: Master, Syntax: "MAP ON|OFF",
		Usage: "SET MAP OFF | SET MAP ON", Help: "the results mails without, or with, the map"},
	{Name: "ZONE", Words: []string{"ZONE", "TIMEZONE"}, Who: Master, Syntax: "ZONE",
		Usage: "SET ZONE Area/City", Help: "the time zone of the game's times: Europe/Paris"},
	{Name: "DEADLINE", Words: []string{"DEADLINE"}, Who: Master, Syntax: "DEADLINE",
		Usage: "SET DEADLINE date", Help: "the deadline of the current phase", When: "once the game has started"},
	{Name: "MOVEMENT", Words: []string{"MOVEMENT", "MOVE", "MOVES"}, Who: Master, Syntax: "MOVEMENT",
		Usage: "SET MOVE length | CLOCK hh:mm | DAYS -MTWTF-", Help: "how long movement phases last, and when their deadlines fall",
		What: "a movement phase", Min: 10 * time.Minute, Max: 30 * 24 * time.Hour},
	{Name: "RETREAT", Words: []string{"RETREAT", "RETREATS"}, Who: Master, Syntax: "RETREAT",
		Usage: "SET RETREAT length | CLOCK hh:mm | DAYS -MTWTF-", Help: "the same for retreat phases",
		What: "a retreat phase", Min: 15 * time.Minute, Max: 14 * 24 * time.Hour},
	{Name: "ADJUSTMENT", Words: []string{"ADJUSTMENT", "ADJUSTMENTS", "ADJUST"}, Who: Master,
		Syntax: "ADJUSTMENT (a length, or CLOCK hh:mm and DAYS -MTWTF-)",
		Usage:  "SET ADJUST length | CLOCK hh:mm | DAYS -MTWTF-", Help: "the same for adjustment phases",
		What: "an adjustment phase", Min: 15 * time.Minute, Max: 14 * 24 * time.Hour},
	{Name: "GRACE", Words: []string{"GRACE"}, Who: Master, Syntax: "GRACE",
		Usage: "SET GRACE length", Help: "how long late orders are waited for after the deadline",
		What: "the grace", Min: 15 * time.Minute, Max: 14 * 24 * time.Hour, Off: true},
	{Name: "REMINDER", Words: []string{"REMINDER"}, Who: Master, Syntax: "REMINDER (a length)",
		Usage: "SET REMINDER length", Help: "how long before the deadline the reminder goes",
		What: "the reminder", Min: 15 * time.Minute, Max: 7 * 24 * time.Hour, Off: true},
	// The registry's (issue 23): a registered player's own, sent
	// without a sign-on to a game.
	{Name: "SHOWADDRESS", Words: []string{"SHOW"}, Who: Player, Syntax: "SHOW ADDRESS",
		Usage: "SET SHOW ADDRESS | SET HIDE ADDRESS", Help: "registered players: show your address to other players by mail, or not (no sign-on needed)"},
	{Name: "HIDEADDRESS", Words: []string{"HIDE"}, Who: Player, Syntax: "HIDE ADDRESS"},
	{Name: "ADDRESS", Words: []string{"ADDRESS"}, Who: Player, Syntax: "ADDRESS",
		Usage: "SET ADDRESS new@address", Help: "registered players: move your registration to a new address, confirmed from both"},
	// Who may join (issue 23).
	{Name: "DEDICATION", Words: []string{"DEDICATION"}, Who: Master, Syntax: "DEDICATION",
		Usage: "SET DEDICATION n | SET ONTIMERAT x | SET RESRAT x | SET MIN GAMES n", Help: "who may join or take over a seat, by their reliability figures"},
	{Name: "ONTIMERAT", Words: []string{"ONTIMERAT"}, Who: Master, Syntax: "ONTIMERAT"},
	{Name: "RESRAT", Words: []string{"RESRAT"}, Who: Master, Syntax: "RESRAT"},
	{Name: "MINGAMES", Words: []string{"MIN", "MINGAMES"}, Who: Master, Syntax: "MIN GAMES"},
	{Name: "REGISTERED", Words: []string{"REGISTERED"}, Who: Master, Syntax: "REGISTERED",
		Usage: "SET REGISTERED | SET NOREGISTERED", Help: "only registered players may join, or anyone"},
	{Name: "NOREGISTERED", Words: []string{"NOREGISTERED"}, Who: Master, Syntax: "NOREGISTERED"},
	{Name: "PRIVATE", Words: []string{"PRIVATE"}, Who: Master, Syntax: "PRIVATE",
		Usage: "SET PRIVATE | SET PUBLIC", Help: "list the game to its members only, or to everyone"},
	{Name: "PUBLIC", Words: []string{"PUBLIC", "NOPRIVATE"}, Who: Master, Syntax: "PUBLIC"},
	{Name: "JOIN", Words: []string{"JOIN"}, Who: Master, Syntax: "JOIN PASSWORD",
		Usage: "SET JOIN PASSWORD pw | SET JOIN NONE", Help: "a joiner gives the password after their own (SIGNON ?game password pw), but an invited address", When: "before the start"},
	{Name: "APPROVAL", Words: []string{"APPROVAL"}, Who: Master, Syntax: "APPROVAL",
		Usage: "SET APPROVAL | SET NOAPPROVAL", Help: "each join waits for the master's APPROVE, or not", When: "before the start"},
	{Name: "NOAPPROVAL", Words: []string{"NOAPPROVAL"}, Who: Master, Syntax: "NOAPPROVAL", When: "before the start"},
	// Press limits (issue 24): njudge's SET [NO]MINOR PRESS; fake press
	// is the issue's, a claimed sender, where njudge's FAKE is partial
	// press shown as a broadcast.
	{Name: "FAKE", Words: []string{"FAKE"}, Who: Master, Syntax: "FAKE",
		Usage: "SET FAKE | SET NOFAKE", Help: "press between powers may claim another power as its sender (PRESS AS R TO E), the master told who sent it; or not",
		When: "before the start"},
	{Name: "NOFAKE", Words: []string{"NOFAKE"}, Who: Master, Syntax: "NOFAKE", When: "before the start"},
	{Name: "MINOR", Words: []string{"MINOR"}, Who: Master, Syntax: "MINOR PRESS",
		Usage: "SET MINOR PRESS | SET NO MINOR PRESS", Help: "press between powers during retreats and adjustments too, or during movement phases only",
		When: "before the start"},
	{Name: "NOMINOR", Words: []string{"NOMINOR"}, Who: Master, Syntax: "NO MINOR PRESS", When: "before the start"},
	// Proxy orders (issue 24), njudge's SET [NO]PROXY.
	{Name: "PROXY", Words: []string{"PROXY"}, Who: Master, Syntax: "PROXY",
		Usage: "SET PROXY | SET NOPROXY", Help: "a power may hand a unit's order to another power for one movement phase (PROXY unit TO power), or not",
		When: "before the start"},
	{Name: "NOPROXY", Words: []string{"NOPROXY"}, Who: Master, Syntax: "NOPROXY", When: "before the start"},
	// SET BUILD is an adjustment length, or with HOME, ONE, ANY or CAPTURED the build rule.
	{Name: "BUILD", Words: []string{"BUILD", "BUILDS"}, Who: Master, Syntax: "BUILD HOME|ONE|ANY|CAPTURED",
		Usage: "SET BUILD HOME|ONE|ANY|CAPTURED", Help: "builds in home centres, in any owned centre while one home centre is held, in any owned centre, or in any owned home centre of any power",
		When: "before the start"},
	// The end of a game and the players' own clock (issue 24).
	{Name: "CONCEDE", Words: []string{"CONCEDE"}, Who: Player, Syntax: "CONCEDE power",
		Usage: "SET CONCEDE power | SET NOCONCEDE", Help: "concede the game to the largest power: it wins when every other survivor concedes to it (secret, for this phase)"},
	{Name: "NOCONCEDE", Words: []string{"NOCONCEDE"}, Who: Player, Syntax: "NOCONCEDE"},
	{Name: "DIAS", Words: []string{"DIAS"}, Who: Master, Syntax: "DIAS",
		Usage: "SET DIAS | SET NODIAS", Help: "a draw includes all survivors, or may name some of them (SET DRAW powers)", When: "before the start"},
	{Name: "NODIAS", Words: []string{"NODIAS"}, Who: Master, Syntax: "NODIAS", When: "before the start"},
	{Name: "VICTORY", Words: []string{"VICTORY", "CENTERS", "CENTRES"}, Who: Master, Syntax: "VICTORY n",
		Usage: "SET VICTORY n", Help: "the supply centres a power needs to win (0: the variant's)", When: "before the start"},
	{Name: "ENDYEAR", Words: []string{"END"}, Who: Master, Syntax: "END YEAR y [DRAW|RANK]",
		Usage: "SET END YEAR y [DRAW|RANK] | SET END YEAR NONE", Help: "the game ends after year y's adjustments: drawn among the survivors, or ranked by centres"},
	{Name: "PLAYERPAUSE", Words: []string{"PLAYER"}, Who: Master, Syntax: "PLAYER PAUSE",
		Usage: "SET PLAYER PAUSE | SET NOPLAYER PAUSE", Help: "the players may pause the game, all of them asking (PAUSE), or not"},
	{Name: "NOPLAYERPAUSE", Words: []string{"NOPLAYER"}, Who: Master, Syntax: "NOPLAYER PAUSE"},
	{Name: "EXTENSIONS", Words: []string{"EXTENSIONS", "EXTENSION"}, Who: Master, Syntax: "EXTENSIONS n",
		Usage: "SET EXTENSIONS n", Help: "each power may EXTEND a deadline n times in the game, once a phase (0: never)"},
	// The judge's bot in the seats nobody plays (issue 25).
	{Name: "BOT", Words: []string{"BOT", "BOTS"}, Who: Master, Syntax: "BOT OFF|ABANDONED|FILL [AGREE]",
		Usage: "SET BOT OFF|ABANDONED|FILL [AGREE]", Help: "the judge's bot plays abandoned seats and seats in civil disorder until a replacement comes; FILL also the seats FORCE BEGIN leaves empty; AGREE: its seats accept the draws and concessions the other players agree on, which they otherwise hold back",
		When: "before the start"},
	// Fog of war (issue 27): vDiplomacy's Fog of War, njudge's Blind.
	{Name: "FOG", Words: []string{"FOG", "BLIND"}, Who: Master, Syntax: "FOG",
		Usage: "SET FOG | SET NOFOG", Help: "fog of war (njudge's Blind): until the game ends each power sees only the provinces its units and centres touch, the master everything, observers nothing of the board; or not",
		When: "before the start"},
	{Name: "NOFOG", Words: []string{"NOFOG", "NOBLIND"}, Who: Master, Syntax: "NOFOG", When: "before the start"},
}

// setWords maps every word of every SET option, in upper case, to its
// row of setTable; a word in two rows is a mistake in the table, and a
// panic when the program starts.
var setWords = indexSetWords(setTable)

// indexSetWords builds setWords from the table.
func indexSetWords(table []SetOption) map[string]int {
	words := make(map[string]int)
	for i, o := range table {
		for _, w := range o.Words {
			if _, dup := words[w]; dup {
				panic("parser: SET " + w + " twice in the SET table")
			}
			words[w] = i
		}
	}
	return words
}

// SetOptions returns the SET table: every option of SET, in the order
// HELP and the error messages list them. The slice is the caller's.
func SetOptions() []SetOption {
	out := make([]SetOption, len(setTable))
	copy(out, setTable)
	return out
}

// LookupSetOption returns the row of the SET table named name.
func LookupSetOption(name string) (SetOption, bool) {
	for _, o := range setTable {
		if o.Name == name {
			return o, true
		}
	}
	return SetOption{}, false
}

// ReadSetOption reads the words of a SET: the option they name (ok false
// when there is no such option), the option as written, in upper case
// ("NOWAIT", "DEADLINE"), and the words after it. "SET NO WAIT" is SET
// NOWAIT; an option may be followed by a colon or an equals sign, spaced
// or not ("PASSWORD: new", "PASSWORD=new"), and what is glued after that
// is its first argument.
func ReadSetOption(args []string) (opt SetOption, word string, rest []string, ok bool) {
	if len(args) == 0 {
		return SetOption{}, "", nil, false
	}
	word, rest = args[0], args[1:]
	if i := strings.IndexAny(word, ":="); i >= 0 {
		if glued := word[i+1:]; glued != "" {
			rest = append([]string{glued}, rest...)
		}
		word = word[:i]
	}
	word = strings.ToUpper(word)
	if word == "NO" && len(rest) > 0 { // "SET NO WAIT"
		word, rest = "NO"+strings.ToUpper(rest[0]), rest[1:]
	}
	i, ok := setWords[word]
	if !ok {
		return SetOption{}, word, rest, false
	}
	return setTable[i], word, rest, true
}

// SetList is the list of SET options that the error messages give:
// every row's Syntax, the players' first, then "; for the master: " and
// the master's.
func SetList() string {
	var player, master []string
	for _, o := range setTable {
		switch {
		case o.Syntax == "":
		case o.Who == Master:
			master = append(master, o.Syntax)
		default:
			player = append(player, o.Syntax)
		}
	}
	return strings.Join(player, ", ") + "; for the master: " + strings.Join(master, ", ")
}

// SetForms returns HELP's forms of the SET options that who may set:
// each row with a Usage, its When after its help.
func SetForms(who Who) []Form {
	var out []Form
	for _, o := range setTable {
		if o.Usage == "" || o.Who != who {
			continue
		}
		help := o.Help
		if o.When != "" {
			help += " (" + o.When + ")"
		}
		out = append(out, Form{Usage: o.Usage, Help: help})
	}
	return out
}

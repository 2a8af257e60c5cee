package parser

import (
	"slices"
	"strings"
)

// Who says who may send a command.
type Who uint8

// Who may send a command. Whoever is signed on to a game as its master
// (a judge admin included, who signs on as the master of any game) may
// also send everything a player may, and a player everything anyone may.
const (
	// Anyone may send the command, signed on to a game or not.
	Anyone Who = iota
	// Player commands need a sign-on to a game earlier in the mail: as a
	// player, an observer or the master.
	Player
	// Master commands are for the game's master only.
	Master
)

// String names w as HELP and docs/players.md do: "anyone", "player", "master".
func (w Who) String() string {
	switch w {
	case Anyone:
		return "anyone"
	case Player:
		return "player"
	case Master:
		return "master"
	}
	return "nobody"
}

// Form is one way of writing a command, as HELP shows it.
type Form struct {
	Usage string // the words as written, placeholders in lower case: "SIGNON Pgame password"
	Help  string // what it does, short: "sign on as power P (its initial)"
}

// CommandInfo is one command of the mail language: one row of the
// command table, which is all that the parser, the game master and HELP
// know about the commands there are.
type CommandInfo struct {
	// Name is the keyword, and the Command.Name that ParseMail gives
	// whichever of the command's keywords a line uses.
	Name string
	// Synonyms are the other keywords for it, most of them njudge's. A
	// synonym of two words ("SIGN ON") is written with one space, and
	// is found with any spacing between its words.
	Synonyms []string
	Who      Who
	// Forms are the command's forms, as HELP lists them; the first is
	// its usage.
	Forms []Form
}

// commandTable is every command of the mail language, in the order HELP
// lists them. No keyword is a province of the standard map (a line "Pres
// A Lon" must stay an order), nor the first word of an order.
var commandTable = []CommandInfo{
	{Name: "CREATE", Who: Anyone, Forms: []Form{
		{"CREATE ?game password [variant] [rules] [gunboat]", "start a game; you are its master; gunboat: the players are anonymous"}}},
	{Name: "SIGNON", Synonyms: []string{"SIGN ON", "HELLO", "LOGIN"}, Who: Anyone, Forms: []Form{
		{"SIGNON ?game password [preferences]", "join a game that is forming; preferences are power letters, the power you want most first: FGE"},
		{"SIGNON Pgame password", "sign on as power P (its initial), or as the master: Mgame"}}},
	{Name: "OBSERVE", Synonyms: []string{"WATCH"}, Who: Anyone, Forms: []Form{
		{"OBSERVE game password", "watch a game"}}},
	{Name: "CONFIRM", Who: Anyone, Forms: []Form{
		{"CONFIRM code", "with a command the judge asked you to confirm (creating or joining a game, observing, a takeover, a sign-on during a lockout): the code it sent you"}}},
	{Name: "REGISTER", Who: Anyone, Forms: []Form{
		{"REGISTER name[, country[, time zone[, level]]]", "register as a player across games under a public name (the judge mails a code to confirm)"}}},
	{Name: "WHOIS", Who: Anyone, Forms: []Form{
		{"WHOIS name", "the registered players whose names begin so"}}},
	{Name: "INFO", Who: Anyone, Forms: []Form{
		{"INFO PLAYER name", "a registered player's games and reliability figures"}}},
	{Name: "WHO", Who: Anyone, Forms: []Form{
		{"WHO GAME game", "who plays each power (a gunboat game: its master only, until it ends and is revealed)"}}},
	{Name: "FORGET", Who: Anyone, Forms: []Form{
		{"FORGET ME", "remove your registration and its address from the registry"}}},
	{Name: "LIST", Who: Anyone, Forms: []Form{
		{"LIST [game]", "list the games, or one game"}}},
	{Name: "HISTORY", Who: Anyone, Forms: []Form{
		{"HISTORY game [phase]", "results of past phases, or of one phase with its orders as written and its map"},
		{"HISTORY game FROM phase TO phase", "the results of the phases between, at most 12 (3 with their maps) a reply; FROM or TO alone runs to the end or from the start"},
		{"HISTORY game PRESS [FROM phase] [TO phase]", "after your sign-on to the game: the press you sent or received in it, and its broadcasts, as you read them"},
		{"HISTORY game REPLAY", "a finished game's whole course as an animated picture (GIF), to the addresses that get the game's mail"}}},
	{Name: "SUMMARY", Synonyms: []string{"STATUS"}, Who: Anyone, Forms: []Form{
		{"SUMMARY game", "a game's course so far"}}},
	{Name: "PRESS", Who: Player, Forms: []Form{
		{"PRESS TO <powers> ... ENDPRESS", "press to some powers: PRESS TO EG"},
		{"PRESS AS <power> TO <powers> ...", "fake press, where the master allows it (SET FAKE): it claims that power as its sender; BROADCAST AS <power> too"}}},
	{Name: "BROADCAST", Who: Player, Forms: []Form{
		{"BROADCAST ... ENDPRESS", "press to everyone"}}},
	{Name: "ENDPRESS", Synonyms: []string{"ENDBROADCAST", "END PRESS", "END BROADCAST"}, Who: Anyone, Forms: []Form{
		{"ENDPRESS", "the end of a PRESS or BROADCAST"}}},
	{Name: "PHASE", Who: Player, Forms: []Form{
		{"PHASE season year phase", "the order lines after it are for that later phase, up to 5 years ahead (PHASE Fall 1902 Movement, or PHASE F1902M), entered when it begins; " +
			"order lines here or there may be conditional: IF condition [THEN] ... ELSE IF ... ELSE ... ENDIF, a condition being [power] [type] place, power OWNS place, with NOT, AND, OR and parentheses"}}},
	{Name: "CLEAR", Who: Player, Forms: []Form{
		{"CLEAR", "drop your orders written ahead (after PHASE: only those for that phase)"}}},
	{Name: "PREVIEW", Who: Player, Forms: []Form{
		{"PREVIEW", "the results, with the map, if the phase were processed now with your orders and every other unit holding; nothing is stored"},
		{"PREVIEW + order lines below it", "the same with the orders written below it, yours or any power's, for this mail only: a sandbox"}}},
	{Name: "PROXY", Who: Player, Forms: []Form{
		{"PROXY unit TO power", "where the game allows it (SET PROXY): that power orders your unit in this movement phase; order the unit yourself, or PROXY it TO your own power, to take it back"}}},
	// SET's forms are the SET table's (settable.go): the players' here,
	// the master's after the master's commands in HELP.
	{Name: "SET", Who: Player, Forms: SetForms(Player)},
	{Name: "RESIGN", Synonyms: []string{"WITHDRAW"}, Who: Player, Forms: []Form{
		{"RESIGN", "give up your power"}}},
	{Name: "HELP", Who: Anyone, Forms: []Form{
		{"HELP", "this text"}}},
	{Name: "GET", Synonyms: []string{"SEND"}, Who: Anyone, Forms: []Form{
		{"GET [topic]", "one topic of this text: a command (GET PRESS), SET [option], ORDERS, MASTER, VARIANTS, LENGTHS, INDEX (every command on a line); alone: the topics"}}},
	{Name: "VERSION", Who: Anyone, Forms: []Form{
		{"VERSION", "the version of the judge's program"}}},
	{Name: "SIGNOFF", Synonyms: []string{"SIGN OFF", "END"}, Who: Anyone, Forms: []Form{
		{"SIGNOFF", `end of commands; a signature line ("-- ") ends them too`}}},
	{Name: "PROCESS", Who: Master, Forms: []Form{
		{"PROCESS [phase]", "process the phase now (if named, it must be the current one)"}}},
	{Name: "PREDICT", Who: Master, Forms: []Form{
		{"PREDICT", "the results if the phase were processed now, to you alone"}}},
	// PAUSE and RESUME are the master's, and the players' where the
	// master allows it (SET PLAYER PAUSE): HELP lists them with the
	// players' commands, their forms saying whose is which.
	{Name: "PAUSE", Synonyms: []string{"SUSPEND"}, Who: Player, Forms: []Form{
		{"PAUSE", "the master: stop the clock; a player, where the master allows it: ask for a pause, which comes when every active player asks"}}},
	{Name: "RESUME", Who: Player, Forms: []Form{
		{"RESUME", "start the clock again, with a fresh deadline (a player may resume a game its players paused)"}}},
	{Name: "EXTEND", Who: Player, Forms: []Form{
		{"EXTEND hours", "move the deadline on, where the master allows it (SET EXTENSIONS): once a phase, at most 48 hours"}}},
	{Name: "TERMINATE", Who: Master, Forms: []Form{
		{"TERMINATE", "end the game as it stands"}}},
	{Name: "EJECT", Who: Master, Forms: []Form{
		{"EJECT power", "take the seat from its player: it is free for takeover"},
		{"EJECT address", "remove an observer, who may not observe again"}}},
	{Name: "ADMIT", Who: Master, Forms: []Form{
		{"ADMIT address", "let an address that EJECT removed take a seat again (a takeover, with a new password) or observe"}}},
	{Name: "BECOME", Who: Master, Forms: []Form{
		{"BECOME power", "the order lines after it are that power's"}}},
	{Name: "ROLLBACK", Who: Master, Forms: []Form{
		{"ROLLBACK [phase]", "go back to the start of a processed phase (the last one if none is named)"}}},
	{Name: "APPROVE", Who: Master, Forms: []Form{
		{"APPROVE [address]", "let a join (SET APPROVAL), or an observer of a fogged game (SET FOG), that waits for your approval in; alone: list those waiting"}}},
	{Name: "INVITE", Who: Master, Forms: []Form{
		{"INVITE address ...", "only the addresses invited may join the game"}}},
	{Name: "FORCE", Who: Master, Forms: []Form{
		{"FORCE BEGIN", "start the game with the players it has: the empty seats are abandoned, free for takeover"}}},
	{Name: "PROMOTE", Who: Master, Forms: []Form{
		{"PROMOTE address", "the creator only: make an observer a co-master, once they confirm"}}},
	{Name: "DEMOTE", Who: Master, Forms: []Form{
		{"DEMOTE address", "the creator only: a co-master becomes an observer again"}}},
	{Name: "REVEAL", Who: Master, Forms: []Form{
		{"REVEAL", "after a gunboat game: tell everyone who played which power"}}},
	{Name: "EXPORT", Who: Master, Forms: []Form{
		{"EXPORT", "the master's export of the game (JSON), in a mail to the master's own address: every phase so far with its orders, the orders given for the phase being played, the registered players' names (a gunboat game's once revealed); no address, password or partial press"}}},
}

// Commands returns the command table: every command of the mail
// language, with its synonyms, who may send it and its forms, in the
// order HELP lists them. The slice is the caller's.
func Commands() []CommandInfo {
	return slices.Clone(commandTable)
}

// LookupCommand returns the table's row for the command Name name.
func LookupCommand(name string) (CommandInfo, bool) {
	i := slices.IndexFunc(commandTable, func(c CommandInfo) bool { return c.Name == name })
	if i < 0 {
		return CommandInfo{}, false
	}
	return commandTable[i], true
}

// commandKeywords maps every keyword of one word, in upper case, to its
// command's Name; commandPairs maps the first word of every keyword of two
// words to the second words it takes and their Names ("SIGN": "ON":
// "SIGNON"). Both are built from commandTable.
var commandKeywords, commandPairs = indexKeywords(commandTable)

// maxKeywordLen bounds the length of a keyword word, so that keyword can
// upper-case a word in a buffer on the stack; maxKeyword is the length of
// the longest word of a keyword, at most maxKeywordLen.
const maxKeywordLen = 16

var maxKeyword = longestWord(commandTable)

// indexKeywords builds commandKeywords and commandPairs from the table.
// A keyword in two rows is a mistake in the table, and a panic when the
// program starts.
func indexKeywords(table []CommandInfo) (map[string]string, map[string]map[string]string) {
	one := make(map[string]string)
	two := make(map[string]map[string]string)
	for _, c := range table {
		for _, k := range append([]string{c.Name}, c.Synonyms...) {
			first, second, ok := strings.Cut(k, " ")
			if !ok {
				if _, dup := one[k]; dup {
					panic("parser: keyword " + k + " twice in the command table")
				}
				one[k] = c.Name
				continue
			}
			if two[first] == nil {
				two[first] = make(map[string]string)
			}
			if _, dup := two[first][second]; dup {
				panic("parser: keyword " + k + " twice in the command table")
			}
			two[first][second] = c.Name
		}
	}
	return one, two
}

// longestWord returns the length of the longest word of a keyword of the
// table. A word longer than maxKeywordLen is a mistake in the table, and
// a panic when the program starts.
func longestWord(table []CommandInfo) int {
	n := 0
	for _, c := range table {
		for _, k := range append([]string{c.Name}, c.Synonyms...) {
			for _, w := range strings.Fields(k) {
				n = max(n, len(w))
			}
		}
	}
	if n > maxKeywordLen {
		panic("parser: a keyword of the command table is longer than maxKeywordLen")
	}
	return n
}

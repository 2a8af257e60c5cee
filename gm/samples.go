package gm

import (
	"time"

	"github.com/gmdjudge/gmd/templates"
)

// CheckTemplates runs every mail template of set on sample data of the
// shapes the master gives it (templateSamples), so that a mistake in an
// operator's template (a misspelt field) stops the judge at start-up,
// naming the file and line, instead of stopping the mail queue when the
// template is first needed.
func CheckTemplates(set *templates.Set) error {
	return set.Check(templateSamples())
}

// templateSamples returns, for each template the master uses, data of the
// type the master gives it, with values that take each branch of the
// built-in template: with and without a game, one power and several,
// NMR and NoNMR, and so on. A new template, or a new field, needs its
// sample here (TestTemplateSamples fails until it has one).
func templateSamples() map[string][]any {
	when := time.Date(2026, time.January, 6, 23, 30, 0, 0, time.UTC)
	hdr := Header{Judge: "GMD", Game: "dt", Variant: "Standard", Phase: "S1901M", Deadline: "Tue Jan 06 2026 23:30:00 +0000"}
	head := headLines{Header: hdr, Tag: "GMD:dt - S1901M", Game: "dt", Deadline: when, Zone: "UTC"}
	// The longest game name there may be, for the lines that hold it.
	long := head
	long.Game, long.Tag = "twelveletter", "GMD:twelveletter - S1901M"
	france := powerRef{Name: "France", Letter: "F", Late: 2}
	russia := powerRef{Name: "Russia", Letter: "R", Late: 1, Abandoned: true}
	results := "Movement results for Spring of 1901. (dt.001)\n\n" +
		"England: Army London -> North Sea -> Norway.\n\n" +
		"The next phase of 'dt' will be Movement for Fall of 1901.\n"
	seats := []seatSummary{
		{Power: "England", Addr: "e@example.org", Status: "playing", Centers: 18, Units: 17},
		{Power: "France", Addr: "f@example.org", Status: "cd", Late: 3},
		{Power: "Russia", Addr: "r@example.org", Status: "abandoned"},
		{Power: "Turkey", Addr: "t@example.org", Status: "eliminated"},
	}
	settings := gameSettings{Press: "white", Partial: true, Zone: "UTC", Movement: "72 hours", Retreat: "24 hours",
		Adjustment: "24 hours", Grace: "48 hours", Reminder: "24 hours", Reminders: "1 day before movement deadlines, 8 hours before retreat and adjustment deadlines"}
	start := startData{Header: hdr, Tag: head.Tag, Game: "dt", Power: "France", Letter: "F", PowerWidth: 10,
		Players:  []seatLine{{Power: "Austria", Addr: "a@example.org"}, {Power: "France", Addr: "f@example.org"}},
		Units:    []string{"Austria: Army Vienna.", "", "France: Army Paris."},
		Season:   "Spring of 1901",
		Deadline: hdr.Deadline, Settings: settings}
	observers := start
	observers.Power, observers.Letter = "", ""
	chaos := start // a variant that starts with builds: no units
	chaos.Units, chaos.Season = nil, "Winter of 1900"
	return map[string][]any{
		"reply": {
			replyData{Header: &hdr, Tag: head.Tag, Subject: "orders", Text: "Signed on as France in game 'dt'.\n", Errors: 1},
			replyData{Tag: "GMD", Subject: "", Text: "Your mail had no commands in it.\n", Errors: 2},
			replyData{Tag: "GMD", Subject: "hello", Text: "Game list.\n"},
		},
		"help":    {newHelpData("GMD", "judge@example.org")},
		"refused": {refusedData{Judge: "GMD", Addr: "judge@example.org", Subject: "orders", Reason: "It is 3.2 MB long."}, refusedData{Judge: "GMD", Addr: "judge@example.org"}},
		"start":   {start, observers, chaos},
		"press": {
			pressData{Header: hdr, Tag: head.Tag, Game: "dt", From: "France", FromTag: "F", To: []string{"England", "Germany"}, ToTag: "EG", Text: "Hello."},
			pressData{Header: hdr, Tag: head.Tag, Game: "dt", From: "someone", FromTag: "someone", Broadcast: true, Grey: true, Text: "Hello."},
		},
		"resign":  {resignData{Header: hdr, Tag: head.Tag, Game: "dt", Power: "France", Letter: "F", Phase: "S1901M"}},
		"setting": {settingData{Header: hdr, Tag: head.Tag, Game: "dt", Change: "Grey press: press between powers may be sent without saying who sent it."}},
		"results": {resultsData{headLines: head, Results: results}, resultsData{headLines: head, Results: results, Over: true}},
		"reminder": {
			reminderData{headLines: head, Power: "France", Hours: 1},
			reminderData{headLines: head, Power: "France", Hours: 8, Orders: []string{"A par - bur"}},
		},
		"late": {
			lateData{headLines: head, Powers: []powerRef{france}, Letters: "F", Grace: when.Add(48 * time.Hour)},
			lateData{headLines: head, Powers: []powerRef{france, russia}, Letters: "FR", Grace: when, NMR: true, YouAreLate: true},
			lateData{headLines: head, Powers: []powerRef{france}, Letters: "F", Grace: when, NMR: true},
			lateData{headLines: long, Powers: []powerRef{france, russia}, Letters: "FR", Grace: when},
		},
		"abandoned": {
			abandonedData{headLines: head, Powers: []powerRef{france, russia}, Letters: "FR", Waiting: true},
			abandonedData{headLines: long, Powers: []powerRef{france}, Letters: "F", Ejected: true},
			abandonedData{headLines: long, Powers: []powerRef{russia}, Letters: "R", Waiting: true},
		},
		"takeover": {
			takeoverData{headLines: head, Power: "France", Addr: "new@example.org", Restarted: true},
			takeoverData{headLines: long, Power: "France", Addr: "francois.dupont@example.org", Returned: true, Waiting: []string{"Russia", "Turkey"}},
			takeoverData{headLines: long, Power: "France", Addr: "francois.dupont@example.org", Waiting: []string{"Russia", "Turkey"}},
		},
		"draw": {endData{headLines: head, How: "draw", Winners: []string{"England", "France"}, Letters: "EF",
			Text: "The game was declared a draw between England and France.", Seats: seats, PowerWidth: 11, Turns: 12, Started: when, Ended: when}},
		"gameover": {
			endData{headLines: head, How: "victory", Winners: []string{"England"}, Text: "England has won.", Seats: seats, PowerWidth: 11,
				Master: "m@example.org", Turns: 30, Started: when, Ended: when},
			endData{headLines: head, How: "terminated", Text: "The master terminated it.", Seats: seats, PowerWidth: 15, Started: when, Ended: when},
		},
		"paused":     {controlData{headLines: head}},
		"resumed":    {controlData{headLines: head}},
		"terminated": {controlData{headLines: head}},
		"rollback":   {controlData{headLines: head, Back: "S1901M", Title: "Spring of 1901", What: "Movement"}},
		"deadline": {
			controlData{headLines: head, What: "Deadline", When: when},
			controlData{headLines: head, What: "Grace", When: when, Len: "2 days"},
		},
		"confirm": {
			confirmData{Judge: "judge@example.org", Addr: "francois.dupont@example.org", Kind: "observe", What: "observe game 'twelveletter'",
				Code: "7JKS2BA992", Command: "OBSERVE twelveletter <your password>", Wrong: true},
			confirmData{Judge: "judge@example.org", Addr: "francois.dupont@example.org", Kind: "unlock", Code: "7JKS2BA992"},
			confirmData{Judge: "judge@example.org", Addr: "francois.dupont@example.org", Kind: "create", What: "create game 'twelveletter'",
				Code: "7JKS2BA992", Command: "CREATE ?twelveletter <your password> 34-35-36 datc-2.4"},
			confirmData{Judge: "judge@example.org", Addr: "francois.dupont@example.org", Kind: "join", What: "join game 'twelveletter'",
				Code: "7JKS2BA992", Command: "SIGNON ?twelveletter <your password> AEFGIRT"},
		},
		"ejected": {ejectedData{headLines: long, Addr: "francois.dupont@example.org"}},
		"held": {
			heldData{Judge: "GMD", Addr: "judge@example.org", Subject: "orders", Reason: "The record of a game it names is damaged.", ID: 12},
			heldData{Judge: "GMD", Addr: "judge@example.org", ID: 1},
		},
		"reveal": {revealData{headLines: long, Master: "francois.dupont@example.org", PowerWidth: 15, Players: []seatLine{
			{Power: "Constantinople", Addr: "francois.dupont@example.org"}, {Power: "France", Addr: "f@example.org", Status: "eliminated"},
		}}},
		"predict": {
			predictData{headLines: head, Results: results, Missing: []string{"France", "Russia"}},
			predictData{headLines: head, Results: results},
		},
	}
}

package session

import (
	"time"

	"github.com/gmdjudge/gmd/engine"
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
	hdr := engine.Header{Judge: "GMD", Game: "dt", Variant: "Standard", Phase: "S1901M", Deadline: "Tue Jan 06 2026 23:30:00 +0000"}
	head := engine.HeadLines{Header: hdr, Tag: "GMD:dt - S1901M", Game: "dt", Deadline: when, Zone: "UTC"}
	// The longest game name there may be, for the lines that hold it.
	long := head
	long.Game, long.Tag = "twelveletter", "GMD:twelveletter - S1901M"
	france := engine.PowerRef{Name: "France", Letter: "F", Late: 2}
	russia := engine.PowerRef{Name: "Russia", Letter: "R", Late: 1, Abandoned: true}
	results := "Movement results for Spring of 1901. (dt.001)\n\n" +
		"England: Army London -> North Sea -> Norway.\n\n" +
		"The next phase of 'dt' will be Movement for Fall of 1901.\n"
	seats := []engine.SeatSummary{
		{Power: "England", Addr: "e@example.org", Status: "playing", Centers: 18, Units: 17},
		{Power: "France", Addr: "f@example.org", Status: "cd", Late: 3},
		{Power: "Russia", Addr: "r@example.org", Status: "abandoned"},
		{Power: "Turkey", Addr: "t@example.org", Status: "eliminated"},
	}
	settings := engine.GameSettings{Press: "white", Partial: true, Zone: "UTC", Movement: "72 hours", Retreat: "24 hours",
		Adjustment: "24 hours", Grace: "48 hours", Reminder: "24 hours", Reminders: "1 day before movement deadlines, 8 hours before retreat and adjustment deadlines"}
	start := engine.StartData{Header: hdr, Tag: head.Tag, Game: "dt", Power: "France", Letter: "F", PowerWidth: 10,
		Players:  []engine.SeatLine{{Power: "Austria", Addr: "a@example.org"}, {Power: "France", Addr: "f@example.org"}},
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
			pressData{Header: hdr, Tag: head.Tag, Game: "dt", From: "Russia", FromTag: "R", To: []string{"England"}, ToTag: "E", Text: "Hello.", FakedBy: "France"},
		},
		"resign":  {resignData{Header: hdr, Tag: head.Tag, Game: "dt", Power: "France", Letter: "F", Phase: "S1901M"}},
		"setting": {settingData{Header: hdr, Tag: head.Tag, Game: "dt", Change: "Grey press: press between powers may be sent without saying who sent it."}},
		"results": {engine.ResultsData{HeadLines: head, Results: results}, engine.ResultsData{HeadLines: head, Results: results, Over: true},
			engine.ResultsData{HeadLines: head, Results: results, Link: "https://judge.example.org/games/dt/as/Hh0c3Fq1Yb9rWm2kT8xZpA/S1901M"}},
		"reminder": {
			engine.ReminderData{HeadLines: head, Power: "France", Hours: 1},
			engine.ReminderData{HeadLines: head, Power: "France", Hours: 8, Orders: []string{"A par - bur"}},
		},
		"late": {
			engine.LateData{HeadLines: head, Powers: []engine.PowerRef{france}, Letters: "F", Grace: when.Add(48 * time.Hour)},
			engine.LateData{HeadLines: head, Powers: []engine.PowerRef{france, russia}, Letters: "FR", Grace: when, NMR: true, YouAreLate: true},
			engine.LateData{HeadLines: head, Powers: []engine.PowerRef{france}, Letters: "F", Grace: when, NMR: true},
			engine.LateData{HeadLines: long, Powers: []engine.PowerRef{france, russia}, Letters: "FR", Grace: when},
		},
		"abandoned": {
			engine.AbandonedData{HeadLines: head, Powers: []engine.PowerRef{france, russia}, Letters: "FR", Waiting: true},
			engine.AbandonedData{HeadLines: long, Powers: []engine.PowerRef{france}, Letters: "F", Ejected: true},
			engine.AbandonedData{HeadLines: long, Powers: []engine.PowerRef{russia}, Letters: "R", Waiting: true},
		},
		"takeover": {
			engine.TakeoverData{HeadLines: head, Power: "France", Addr: "new@example.org", Restarted: true},
			engine.TakeoverData{HeadLines: long, Power: "France", Addr: "francois.dupont@example.org", Returned: true, Waiting: []string{"Russia", "Turkey"}},
			engine.TakeoverData{HeadLines: long, Power: "France", Addr: "francois.dupont@example.org", Waiting: []string{"Russia", "Turkey"}},
		},
		"draw": {engine.EndData{HeadLines: head, How: "draw", Winners: []string{"England", "France"}, Letters: "EF",
			Text: "The game was declared a draw between England and France.", Seats: seats, PowerWidth: 11, Turns: 12, Started: when, Ended: when}},
		"gameover": {
			engine.EndData{HeadLines: head, How: "victory", Winners: []string{"England"}, Text: "England has won.", Seats: seats, PowerWidth: 11,
				Master: "m@example.org", Turns: 30, Started: when, Ended: when},
			engine.EndData{HeadLines: head, How: "terminated", Text: "The master terminated it.", Seats: seats, PowerWidth: 15, Started: when, Ended: when},
			engine.EndData{HeadLines: head, How: "concession", Winners: []string{"England"}, Seats: seats, PowerWidth: 11, Started: when, Ended: when,
				Text: "England has won the game by concession: every other surviving power conceded."},
			engine.EndData{HeadLines: head, How: "ranked", Winners: []string{"England", "France"}, Seats: seats, PowerWidth: 11, Started: when, Ended: when,
				Text: "The game reached the end of 1910, its last year, and is ranked by supply centres:", Ranking: []string{" 1. England      18", " 2. France       16"}},
		},
		"paused":     {engine.ControlData{HeadLines: head}, engine.ControlData{HeadLines: head, By: "its players"}},
		"resumed":    {engine.ControlData{HeadLines: head}, engine.ControlData{HeadLines: head, By: "France"}},
		"terminated": {engine.ControlData{HeadLines: head}},
		"rollback":   {engine.ControlData{HeadLines: head, Back: "S1901M", Title: "Spring of 1901", What: "Movement"}},
		"deadline": {
			engine.ControlData{HeadLines: head, What: "Deadline", When: when},
			engine.ControlData{HeadLines: head, What: "Grace", When: when, Len: "2 days"},
			engine.ControlData{HeadLines: head, What: "Deadline", When: when, Len: "1 day", By: "France"},
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
		"ejected": {ejectedData{HeadLines: long, Addr: "francois.dupont@example.org"}},
		"approval": {
			approvalData{HeadLines: long, Kind: "waits", Addr: "francois.dupont@example.org"},
			approvalData{HeadLines: long, Kind: "approved", Addr: "francois.dupont@example.org"},
		},
		"promote": {
			promoteData{HeadLines: long, Kind: "offer", Addr: "francois.dupont@example.org", Judge: "judge@example.org", Code: "7JKS2BA992"},
			promoteData{HeadLines: long, Kind: "accepted", Addr: "francois.dupont@example.org"},
			promoteData{HeadLines: long, Kind: "demoted", Addr: "francois.dupont@example.org"},
		},
		"held": {
			heldData{Judge: "GMD", Addr: "judge@example.org", Subject: "orders", Reason: "The record of a game it names is damaged.", ID: 12},
			heldData{Judge: "GMD", Addr: "judge@example.org", ID: 1},
		},
		"reveal": {engine.RevealData{HeadLines: long, Master: "francois.dupont@example.org", PowerWidth: 15, Players: []engine.SeatLine{
			{Power: "Constantinople", Addr: "francois.dupont@example.org"}, {Power: "France", Addr: "f@example.org", Status: "eliminated"},
		}}},
		"future": {
			engine.FutureData{HeadLines: head, Power: "France", Season: "Fall of 1902 (F1902M)",
				Branches: []string{"IF A Bur: false", "ELSE: taken"}, Entered: []string{"A Par - Pic"},
				Refused: []string{"A Mar - Spa: France has no unit in Marseilles."}, Missed: []string{"S1902R (2 lines)"}},
			engine.FutureData{HeadLines: head, Power: "France", Missed: []string{"S1902R (1 line)"}},
		},
		"predict": {
			engine.PredictData{HeadLines: head, Results: results, Missing: []string{"France", "Russia"}},
			engine.PredictData{HeadLines: head, Results: results},
		},
		"export": {
			exportData{HeadLines: long, File: "twelveletter-master.json", Phases: 58, Running: true, Gunboat: true},
			exportData{HeadLines: head, File: "dt-master.json", Phases: 1, Named: true},
			exportData{HeadLines: head, File: "dt-master.json", Phases: 3},
		},
	}
}

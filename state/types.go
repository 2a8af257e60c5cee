// Package state keeps everything gmd knows in one bbolt file: judge-wide
// settings, games with their players and pending orders, the press, the
// history of every processed phase, the ledger of mails already handled
// and the outbox of mails to send.
//
// All changes go through a transaction (DB.Update), so that one incoming
// mail, or one phase processing, changes the games and queues its replies
// together or not at all. Records are stored as JSON: readable with
// standard tools, and tolerant of fields added by later versions.
package state

import (
	"encoding/json"
	"time"
)

// GameStatus is where a game is in its life.
type GameStatus string

// The game statuses.
const (
	Forming  GameStatus = "forming"  // waiting for players to sign on
	Active   GameStatus = "active"   // being played
	Paused   GameStatus = "paused"   // the master stopped the clock
	Finished GameStatus = "finished" // won, drawn or terminated
)

// PlayerStatus says how a seat is held.
type PlayerStatus string

// The player statuses.
const (
	Playing    PlayerStatus = "playing"
	Abandoned  PlayerStatus = "abandoned" // free for takeover (NoNMR after grace, EJECT, RESIGN)
	Disorder   PlayerStatus = "cd"        // civil disorder (NMR after grace): orders default
	Eliminated PlayerStatus = "eliminated"
)

// User is a mail address the judge knows.
type User struct {
	Addr    string    `json:"addr"`
	Created time.Time `json:"created"`
	Games   []string  `json:"games,omitempty"` // games played, observed or mastered
}

// Settings are the judge-wide settings kept in the database.
type Settings struct {
	SchemaVersion int       `json:"schema_version"`
	Created       time.Time `json:"created"`
}

// GameSettings are a game's rules and policies, set at creation and by the
// master.
type GameSettings struct {
	Press   string `json:"press"`   // "white" (the judge creates games so), "grey", "none"; "" is none, as the session enforces it
	Partial bool   `json:"partial"` // partial press (to some powers) allowed; default true
	NMR     bool   `json:"nmr"`     // true: process civil disorder after grace; false (default): wait for a replacement
	Zone    string `json:"zone"`    // IANA time zone for showing times, default "UTC"
	// Multiple lets one address hold more than one seat, the master's
	// included (SET MULTIPLE); off by default, and in games stored
	// before it existed.
	Multiple bool `json:"multiple,omitempty"`
	// Builds is where powers may build when the master chose it before
	// the start (SET BUILD): "home", "one" or "any"; "" keeps the
	// variant's rule.
	Builds string `json:"builds,omitempty"`

	// Gunboat makes play anonymous (SET GUNBOAT, or "gunboat" at
	// CREATE): no mail shows a player's address to anyone but the
	// master, and each game mail goes to each address on its own.
	Gunboat bool `json:"gunboat,omitempty"`

	// Fog hides from each power what its units and centres do not
	// touch while the game runs (SET FOG, before the start; vDiplomacy's
	// Fog of War, njudge's Blind): view.Fog is what a power sees.
	Fog bool `json:"fog,omitempty"`

	// NoMap stops the picture of the board that results mails carry
	// (SET MAP OFF); off by default, so that the games stored before it
	// existed get the map too.
	NoMap bool `json:"no_map,omitempty"`

	// NoDIAS lets a draw name some of the survivors (SET NODIAS,
	// njudge's): a vote names the powers it accepts. Off (DIAS, the
	// default) a draw includes every surviving power.
	NoDIAS bool `json:"nodias,omitempty"`
	// Victory is the number of supply centres a power needs to win (SET
	// VICTORY, before the start); 0 keeps the variant's.
	Victory int `json:"victory,omitempty"`
	// EndYear is the last year of the game (SET END YEAR): it ends after
	// that year's adjustments, drawn among the survivors or ranked by
	// centres as EndRank says; 0 for no last year.
	EndYear int  `json:"end_year,omitempty"`
	EndRank bool `json:"end_rank,omitempty"`
	// PlayerPause lets the players pause the game when every active
	// player asks for it (SET PLAYER PAUSE); off by default.
	PlayerPause bool `json:"player_pause,omitempty"`
	// Extensions is how many times each power may move a deadline on by
	// EXTEND in the whole game (SET EXTENSIONS n), once a phase at most;
	// 0, the default, allows none.
	Extensions int `json:"extensions,omitempty"`

	// Phase lengths: the time from a phase's start to its deadline.
	Movement   Duration `json:"movement"`   // default 72h
	Retreat    Duration `json:"retreat"`    // default 24h
	Adjustment Duration `json:"adjustment"` // default 24h
	Grace      Duration `json:"grace"`      // after the deadline, before abandonment or civil disorder; default 48h
	Reminder   Duration `json:"reminder"`   // before the deadline, to players still missing orders; default 24h

	// Fake lets press between powers claim another power as its sender
	// (PRESS AS R TO E; SET FAKE, before the start): the recipients see
	// the claimed sender, the master a copy that names the real one.
	// Off by default, and in games stored before it existed.
	Fake bool `json:"fake,omitempty"`
	// NoMinorPress keeps press between powers to movement phases
	// (njudge's SET NO MINOR PRESS, before the start): in retreats and
	// adjustments only press to and from the master goes.
	NoMinorPress bool `json:"no_minor_press,omitempty"`
	// Proxy lets a power hand a unit's order to another power for one
	// phase (PROXY unit TO power; njudge's SET PROXY, before the start).
	Proxy bool `json:"proxy,omitempty"`
	// Bot is who plays a seat nobody plays (SET BOT, before the start):
	// "" (OFF) nobody, civil disorder as always; "abandoned" the judge's
	// bot, for every seat abandoned or in civil disorder, from the next
	// phase until a replacement takes it; "fill" that, and the seats a
	// FORCE BEGIN leaves empty from the first phase.
	Bot string `json:"bot,omitempty"`
	// BotAgrees lets the bot's seats accept any draw or concession the
	// players agree on (SET BOT ... AGREE); without it a seat the bot
	// plays never votes for a draw nor concedes, and so holds both back.
	BotAgrees bool `json:"bot_agrees,omitempty"`

	// When the deadlines of each phase type may fall (njudge's SET MOVE
	// CLOCK and SET MOVE DAYS); the zero value allows any time.
	MovementTimes   DeadlineTimes `json:"movement_times,omitzero"`
	RetreatTimes    DeadlineTimes `json:"retreat_times,omitzero"`
	AdjustmentTimes DeadlineTimes `json:"adjustment_times,omitzero"`
}

// Entry is who may join a game: the master's gates (SET DEDICATION,
// ONTIMERAT, RESRAT, MIN GAMES, REGISTERED) and private game settings
// (SET PRIVATE, JOIN PASSWORD, APPROVAL, INVITE). Package players
// decides a join by it.
type Entry struct {
	// Dedication is the least dedication a joiner may have, when
	// HasDedication (njudge's figure may be below 0, so 0 is a gate).
	Dedication    int  `json:"dedication,omitempty"`
	HasDedication bool `json:"has_dedication,omitempty"`
	// OnTime is the least on-time ratio, 0 for none.
	OnTime float64 `json:"ontime,omitempty"`
	// Resign is the greatest resignation ratio, when HasResign.
	Resign    float64 `json:"resign,omitempty"`
	HasResign bool    `json:"has_resign,omitempty"`
	// MinGames is the least number of games a joiner has finished.
	MinGames int `json:"min_games,omitempty"`
	// Registered lets only registered players join.
	Registered bool `json:"registered,omitempty"`

	// Private keeps the game out of LIST and the web pages for
	// whoever is not in it.
	Private bool `json:"private,omitempty"`
	// JoinHash is the bcrypt hash of the join password (SET JOIN
	// PASSWORD): a joiner gives it, or is invited.
	JoinHash []byte `json:"join_hash,omitempty"`
	// Invited are the addresses, lower case, the master invited: they
	// join without the join password, with the usual confirmation.
	Invited []string `json:"invited,omitempty"`
	// Approval makes each join wait for the master's approval
	// (APPROVE), but an invited address's.
	Approval bool `json:"approval,omitempty"`
	// Pending are the joins that wait for it: confirmed, with their
	// password hashes, as they will join.
	Pending []Player `json:"pending,omitempty"`
}

// DeadlineTimes restricts the deadlines of one phase type to a time of
// day and to some weekdays, in the game's zone.
type DeadlineTimes struct {
	// Clock is the time of day of every deadline, "21:00"; "" for none.
	Clock string `json:"clock,omitempty"`
	// Days are the weekdays a deadline may fall on, njudge's way: seven
	// places from Sunday to Saturday, each the day's letter (the day is
	// allowed), its lower-case letter (allowed after noon) or '-' (not
	// allowed), as "-MTWTF-"; "" allows every day.
	Days string `json:"days,omitempty"`
}

// Duration is a time.Duration that reads and writes as "72h0m0s" in JSON.
type Duration time.Duration

// MarshalJSON writes the duration as a Go duration string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// UnmarshalJSON reads a Go duration string.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := time.ParseDuration(s)
	*d = Duration(v)
	return err
}

// Absence is a period a player said they would be away; deadlines that
// fall inside it move to its end.
type Absence struct {
	From time.Time `json:"from"`
	To   time.Time `json:"to"`
}

// Player is one seat of a game, or one player waiting in a forming game.
type Player struct {
	Power      string       `json:"power"` // power name, "" while the game forms
	Addr       string       `json:"addr"`  // mail address
	PassHash   []byte       `json:"pass_hash"`
	Status     PlayerStatus `json:"status"`
	Preference string       `json:"preference,omitempty"` // power letters in order of preference, while forming
	Wait       bool         `json:"wait,omitempty"`       // SET WAIT: no early processing
	Draw       bool         `json:"draw,omitempty"`       // SET DRAW: votes for the draw (cleared each phase)
	Absences   []Absence    `json:"absences,omitempty"`
	Late       int          `json:"late,omitempty"` // times late
	Joined     time.Time    `json:"joined"`
	// ClockTurn is Game.Turn+1 when a takeover of this seat last gave
	// the phase a fresh deadline (0: never): a seat gets one a phase, so
	// that taking it in turns cannot hold a phase open.
	ClockTurn int `json:"clock_turn,omitempty"`
	// Concede is the power this seat concedes the game to (SET
	// CONCEDE), cleared each phase like a draw vote; "" for none.
	Concede string `json:"concede,omitempty"`
	// DrawWith are the powers a vote for a draw accepts in a game
	// without DIAS (SET DRAW powers): any draw among them, and with this
	// seat's power if it is among them. Nil, with Draw, is every
	// survivor. Cleared with Draw.
	DrawWith []string `json:"draw_with,omitempty"`
	// Empty marks a seat nobody has held since a FORCE BEGIN started the
	// game without a player for it: abandoned from the start, with no
	// address, and open to a replacement (or a bot). A takeover clears
	// it.
	Empty bool `json:"empty,omitempty"`
	// Pause is set when the seat's player asked for a pause (PAUSE in a
	// game with SET PLAYER PAUSE); cleared each phase and when the game
	// pauses.
	Pause bool `json:"pause,omitempty"`
	// Extended counts the seat's EXTENDs in the game, and ExtendTurn is
	// Game.Turn+1 of the phase it last extended (0: never): one a phase.
	Extended   int `json:"extended,omitempty"`
	ExtendTurn int `json:"extend_turn,omitempty"`
	// Former marks the seat of a finished game whose holder has since
	// left the registry (FORGET ME): the game keeps the seat and its
	// record, and names its holder "a former player".
	Former bool `json:"former,omitempty"`
	// Bot marks a seat the judge's bot plays (SET BOT): set when the
	// bot first writes its orders, cleared when a player takes the seat.
	Bot bool `json:"bot,omitempty"`
}

// Observer receives a game's results and broadcasts.
type Observer struct {
	Addr     string `json:"addr"`
	PassHash []byte `json:"pass_hash"`
	// CoMaster is set for an observer the creator promoted, who
	// confirmed it (PROMOTE): they sign on as the master with their own
	// password (SIGNON Mgame) and have the master's commands but
	// PROMOTE and DEMOTE.
	CoMaster bool `json:"co_master,omitempty"`
	// Promoted is set while the creator's PROMOTE waits for the
	// observer's confirmation.
	Promoted bool `json:"promoted,omitempty"`
	// Approved is set when the master let the observer see a game under
	// fog of war (APPROVE address): until then it waits, and is mailed
	// nothing of the game while the fog lasts, since anyone may observe,
	// a player from a second address too.
	Approved bool `json:"approved,omitempty"`
}

// Press is one press message as sent, kept for the master and history
// (Tx.AddPress, Tx.Press).
type Press struct {
	Phase string    `json:"phase"`
	From  string    `json:"from"` // power name, or "Master"
	To    []string  `json:"to"`   // power names; empty for a broadcast
	Grey  bool      `json:"grey,omitempty"`
	Text  string    `json:"text"`
	Sent  time.Time `json:"sent"`
	// Claimed is the power that fake press claimed as its sender (SET
	// FAKE), as its recipients read it; From is who really sent it.
	Claimed string `json:"claimed,omitempty"`
}

// Game is everything about one game but its history.
type Game struct {
	Name     string       `json:"name"` // lower case, as in SIGNON Fname
	Variant  string       `json:"variant"`
	Rules    string       `json:"rules"`
	Status   GameStatus   `json:"status"`
	Created  time.Time    `json:"created"`
	Settings GameSettings `json:"settings"`

	// Entry is who may join the game (issue 23): the gates on the
	// joiner's figures, and the private game's conditions. The zero
	// value lets anyone in, as before it existed. It is kept beside the
	// settings rather than in them, which are compared whole to tell a
	// SET that changes nothing.
	Entry Entry `json:"entry,omitzero"`

	MasterAddr string `json:"master_addr"`
	MasterHash []byte `json:"master_hash"`

	Players   []Player   `json:"players"`
	Observers []Observer `json:"observers,omitempty"`

	// Position is the current position in the gmd adjudicate JSON contract
	// (package jsonpos); empty while the game forms.
	Position json.RawMessage `json:"position,omitempty"`
	Turn     int             `json:"turn"` // phases processed so far

	// Orders holds each power's pending orders for the current phase, as
	// canonical order lines (judge.Order.Canonical), keyed by power name.
	Orders map[string][]string `json:"orders,omitempty"`
	// Written keeps how each pending order was written in the mail that
	// gave it ("a lvp supports a yor" for "A lvp S A yor"), keyed by power
	// name and then by the order's line in Orders, so that the history can
	// show the orders as written as well as read. It follows Orders
	// exactly: an order replaced or pushed out takes its text with it. An
	// order the master gave for a power (BECOME) has the master's text.
	// Two identical lines (two waived builds) share the text of the later.
	// Orders stored by a gmd older than this field have no text.
	Written map[string]map[string]string `json:"written,omitempty"`
	// Future holds each power's orders for later phases (PHASE), keyed by
	// power name, as written, in the order they came: the engine enters
	// them when their phase begins, as if they were mailed then.
	Future map[string][]FutureOrders `json:"future,omitempty"`
	// Proxies holds the units handed for this phase to another power to
	// order (PROXY, where GameSettings.Proxy allows it): the unit's
	// province, canonical ("mun"), to the power's name. The order that
	// power gives is in its own Orders. Cleared with Orders.
	Proxies map[string]string `json:"proxies,omitempty"`

	Deadline time.Time `json:"deadline"` // of the current phase, UTC
	Reminded bool      `json:"reminded,omitempty"`
	// LateNoticed is when the last late notice went out (zero: none yet).
	LateNoticed time.Time `json:"late_noticed,omitempty"`
	// LateNamed are the powers that notice named, as everyone in the game
	// read it: the web pages show these late, and not who has sent orders
	// since, which no observer learns by mail before the next notice.
	LateNamed []string `json:"late_named,omitempty"`

	// Wake is the next time Tick must look at the game (a reminder, the
	// deadline, the end of grace, a late notice); zero for never. The
	// database keeps an index on it, so Tick reads only the games due.
	Wake time.Time `json:"wake,omitempty"`

	// PressSent is how many bytes of press text each sender sent in the
	// current phase, keyed by power name, "Master", or an observer's
	// lower-case address: the game master's limit on press per phase.
	// The press itself is kept apart (Tx.AddPress), so that the record
	// every mail reads does not grow with it. Processing clears it.
	PressSent map[string]int64 `json:"press_sent,omitempty"`

	// SeatLogged is Turn+1 of the last phase whose on-time and late
	// seats the seat log has recorded (0: none yet): a phase counts once
	// for each seat, though a takeover may give it a second deadline,
	// and a ROLLBACK may play it again.
	SeatLogged int `json:"seat_logged,omitempty"`
	// EndLogged is set once the seat log has recorded the game's end: a
	// finished game that a ROLLBACK brought back, and that ends again,
	// counts as finished once for each seat.
	EndLogged bool `json:"end_logged,omitempty"`

	// PlayersPaused is set when the players paused the game (PAUSE,
	// every active player asking): a player may then RESUME it, as the
	// master may.
	PlayersPaused bool `json:"players_paused,omitempty"`

	// Revealed is set when the master of a finished gunboat game has
	// revealed who played which power (REVEAL): the listings show the
	// players' addresses from then on.
	Revealed bool `json:"revealed,omitempty"`

	// Result says how a finished game ended: "victory England", "draw
	// Austria England France", "terminated"; and since issue 24
	// "concession England" (SET CONCEDE) and "ranked Russia England ..."
	// (SET END YEAR with RANK: the survivors, most centres first).
	Result string `json:"result,omitempty"`

	// FailedSignons are the wrong passwords given for the game's seats
	// within the last hour: the game master's limits on password
	// guessing count them. Kept in the game record so that they hold
	// across processes (gmd process runs one per mail) and change in the
	// same transaction as the sign-on. (Judges before the limits were
	// sliding windows also kept "signon_locks", which are now ignored.)
	FailedSignons []SignonFailure `json:"failed_signons,omitempty"`

	// ConfirmKey is the game's secret for the confirmation codes the
	// judge mails to an address to prove that whoever asks for something
	// in its name reads its mail (joining, observing, taking over a seat,
	// signing on past a lockout). Codes are derived from it, so that none has to
	// be stored until it is used; made on first need, never shown.
	ConfirmKey []byte `json:"confirm_key,omitempty"`
	// CodesUsed counts, per request, the confirmation codes used: a
	// code is good once, and the next code for the same request is
	// another. Entries go two days after their last use, when no code
	// they count is good any more.
	CodesUsed []CodeUse `json:"codes_used,omitempty"`
	// Barred lists the addresses, lower case, that the master ejected
	// (an observer, or a power's player): they may neither observe the
	// game nor take a seat of it until the master lets them back (ADMIT).
	Barred []string `json:"barred,omitempty"`
	// NoMap lists the addresses, lower case, that asked for the game's
	// mails without the map (SET NOMAP): players, observers or the
	// master. It is kept by address rather than by seat because the map
	// goes to addresses, and one address may hold several seats.
	NoMap []string `json:"no_map,omitempty"`
}

// CodeUse counts the confirmation codes used for one request.
type CodeUse struct {
	Of   string    `json:"of"` // what they confirm: kind, address (lower case) and seat
	N    int       `json:"n"`  // how many were used
	Last time.Time `json:"last"`
}

// SignonFailure is one wrong password given for a seat of a game.
type SignonFailure struct {
	Addr string    `json:"addr"` // the sender, lower case
	At   time.Time `json:"at"`
}

// PhaseRecord is one processed phase, kept for HISTORY, SUMMARY and
// ROLLBACK.
type PhaseRecord struct {
	Phase     string          `json:"phase"` // "S1901M"
	Turn      int             `json:"turn"`
	Processed time.Time       `json:"processed"`
	Position  json.RawMessage `json:"position"` // as it was before processing
	// Orders are the orders as adjudicated, per power, canonical lines.
	// The orders the judge supplied itself (holds for units without
	// orders, civil-disorder removals) are not among them.
	Orders map[string][]string `json:"orders"`
	// Written are the same orders as written in the mails that gave them,
	// per power and in the order of Orders: Written[p][i] is how
	// Orders[p][i] was written. An entry is "" where no text was kept (an
	// order stored by a gmd older than this field); a power none of whose
	// orders has a text is left out, and records made before this field
	// have none at all.
	Written map[string][]string `json:"written,omitempty"`
	// Results is the text results block (package report), as mailed.
	Results string `json:"results"`
}

// OutMail is a mail waiting in the outbox.
type OutMail struct {
	ID        uint64    `json:"id"`         // assigned by Enqueue, increasing
	MessageID string    `json:"message_id"` // fixed at enqueue, so a resend is the same mail
	To        []string  `json:"to"`
	Subject   string    `json:"subject"`
	Body      string    `json:"body"`
	InReplyTo string    `json:"in_reply_to,omitempty"`
	Created   time.Time `json:"created"`
	// Attempts and NextTry are kept by the sender for its backoff.
	Attempts int       `json:"attempts,omitempty"`
	NextTry  time.Time `json:"next_try,omitempty"`
	// Failed holds the last permanent error; such a mail waits for the admin.
	Failed string `json:"failed,omitempty"`
	// LastError is why the last attempt failed for now ("2026-01-02T15:04:05Z:
	// 451 ..."), for the admin's listing; empty before any failure.
	LastError string `json:"last_error,omitempty"`
	// Maps are the pictures of the board the mail carries, as
	// attachments after its text. Only a reference is kept: the sender
	// draws each one when it sends the mail, from the game's history, so
	// that the outbox stays as small as the text (a results mail goes to
	// every player). Records written before this field have none.
	Maps []MapRef `json:"maps,omitempty"`
	// Files are files the mail carries whole after its maps, their bytes
	// kept here: the master's export (EXPORT), which is of the moment it
	// was asked for and could not be made again as it was.
	Files []File `json:"files,omitempty"`
}

// File is a file an outgoing mail carries whole.
type File struct {
	Name string `json:"name"` // what a mail client offers to save it as: "dt-master.json"
	Type string `json:"type"` // its MIME type: "application/json"
	Data []byte `json:"data"`
}

// Attaches reports whether m carries anything after its text: maps to
// draw or files.
func (m *OutMail) Attaches() bool { return len(m.Maps) > 0 || len(m.Files) > 0 }

// MapRef names the processed phase whose board a mail carries: the
// history record of Game at Turn, which must still be the one processed
// at Processed from the position and orders of Digest (a ROLLBACK and a
// new processing make another record of the same turn, whose picture
// this mail must not carry).
type MapRef struct {
	Game      string    `json:"game"`
	Turn      int       `json:"turn"`
	Phase     string    `json:"phase"` // "S1901M": the attachment is S1901M.png
	Processed time.Time `json:"processed"`
	// Digest is the record's PhaseRecord.Digest; "" in the references
	// queued before it existed, which Processed alone identifies.
	Digest string `json:"digest,omitempty"`
	// After names the board after the phase (its units where they now
	// stand, its centres as now owned) rather than the phase with its
	// orders: the attachment is S1901M-after.png.
	After bool `json:"after,omitempty"`
	// Preview, when set, names no processed phase but a player's PREVIEW
	// of the current one (Turn is the game's turn then, Processed zero):
	// these orders, by power, on the position whose digest is Digest
	// (engine.PreviewRef). The attachment is S1901M-preview.png.
	Preview map[string][]string `json:"preview,omitempty"`
	// Viewer, in a game under fog of war (SET FOG), names the power
	// whose view the picture shows (view.Fog); "" draws everything.
	Viewer string `json:"viewer,omitempty"`
	// Replay, when set, names no phase but the whole of a finished game,
	// drawn as an animated GIF (engine.ReplayRef): Turn is the game's
	// turn when it ended, Processed the time it ended, Phase empty.
	// The attachment is game.gif, or game-1.gif, game-2.gif, ... when
	// it is cut into parts.
	Replay bool `json:"replay,omitempty"`
}

// Name is the file name of the picture ref names: "S1901M.png", or
// "S1901M-after.png" for the board after the phase, or "game.gif" for
// a game's replay.
func (r MapRef) Name() string {
	if r.Replay {
		return r.Game + ".gif"
	}
	if r.Preview != nil {
		return r.Phase + "-preview.png"
	}
	if r.After {
		return r.Phase + "-after.png"
	}
	return r.Phase + ".png"
}

// FutureOrders are the lines of one block of orders a power wrote for a
// later phase, conditionals included.
type FutureOrders struct {
	Phase string `json:"phase"` // "F1902M"
	Text  string `json:"text"`  // the block as written, "\n" between lines
}

package demo

import (
	"context"
	"fmt"
	"regexp"
	"strings"
)

// The demo game: its name and its master's game password (which is not
// the master's mail password).
const (
	Game           = "demo"
	MasterGamePass = "master"
)

// Seat is one player of the demo game.
type Seat struct {
	Account
	Power    string // the power asked for at sign-on
	Letter   string // its letter, as in SIGNON Ademo
	GamePass string // the game password, chosen at sign-on
	Opening  []string
}

// Seats returns the seven players of the demo game, player1 to player7,
// each with a common opening of their power for Spring 1901. Austria and
// Russia both go for Galicia and Russia and Turkey both for the Black
// Sea, so the first results already show bounces.
func Seats() []Seat {
	seats := []Seat{
		{Power: "Austria", Letter: "A", GamePass: "vienna", Opening: []string{"A Vie - Gal", "A Bud - Ser", "F Tri - Alb"}},
		{Power: "England", Letter: "E", GamePass: "london", Opening: []string{"F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor"}},
		{Power: "France", Letter: "F", GamePass: "paris", Opening: []string{"F Bre - Mao", "A Par - Bur", "A Mar - Spa"}},
		{Power: "Germany", Letter: "G", GamePass: "berlin", Opening: []string{"F Kie - Den", "A Ber - Kie", "A Mun - Ruh"}},
		{Power: "Italy", Letter: "I", GamePass: "rome", Opening: []string{"F Nap - Ion", "A Rom - Apu", "A Ven H"}},
		{Power: "Russia", Letter: "R", GamePass: "moscow", Opening: []string{"F Stp/sc - Bot", "A Mos - Ukr", "A War - Gal", "F Sev - Bla"}},
		{Power: "Turkey", Letter: "T", GamePass: "ankara", Opening: []string{"F Ank - Bla", "A Con - Bul", "A Smy - Arm"}},
	}
	for i := range seats {
		seats[i].Account = Player(i + 1)
	}
	return seats
}

// CreateGame mails the judge at judge, through the SMTP server, as a
// master and players would: Master creates the demo game, then the seven
// players of Seats join it, each asking for their power. The judge acts
// on neither before the address confirms: each sends the command, reads
// the code in the judge's reply, and sends the code back with the
// command, as the reply says. The last one to join starts the game. The
// mails go one after the other, so the judge reads them in this order.
// It gives up when ctx ends.
func (s *Servers) CreateGame(ctx context.Context, judge string) error {
	create := fmt.Sprintf("CREATE ?%s %s\n", Game, MasterGamePass)
	if err := s.confirmed(ctx, Master, judge, "a game to show", create); err != nil {
		return fmt.Errorf("demo: CREATE: %w", err)
	}
	for _, p := range Seats() {
		join := fmt.Sprintf("SIGNON ?%s %s %s\n", Game, p.GamePass, p.Letter)
		if err := s.confirmed(ctx, p.Account, judge, "joining", join); err != nil {
			return fmt.Errorf("demo: %s joining: %w", p.Addr, err)
		}
	}
	return nil
}

// codeLine is the line of a judge's reply that gives a confirmation code.
var codeLine = regexp.MustCompile(`(?m)^  CONFIRM ([A-Z0-9]+)$`)

// confirmed mails body from from to judge, waits for the reply with a
// confirmation code, and mails the code back with body.
func (s *Servers) confirmed(ctx context.Context, from Account, judge, subject, body string) error {
	before := s.Delivered(from.Addr)
	if err := s.Send(from, []string{judge}, subject, body); err != nil {
		return err
	}
	code, err := s.WaitForText(ctx, from.Addr, before, func(text string) string {
		if m := codeLine.FindStringSubmatch(text); m != nil {
			return m[1]
		}
		return ""
	})
	if err != nil {
		return err
	}
	return s.Send(from, []string{judge}, subject, "CONFIRM "+code+"\n"+body)
}

// SendOpenings has every player of Seats sign on to the demo game as
// their power and send their opening: once the judge has read all seven,
// the phase is complete and is processed at its next clock tick, without
// waiting for the deadline.
func (s *Servers) SendOpenings(judge string) error {
	for _, p := range Seats() {
		if err := s.Send(p.Account, []string{judge}, "orders", p.OrdersMail(p.Opening...)); err != nil {
			return fmt.Errorf("demo: %s's orders: %w", p.Addr, err)
		}
	}
	return nil
}

// OrdersMail returns the body of a mail in which p signs on to the demo
// game and gives orders.
func (p Seat) OrdersMail(orders ...string) string {
	return fmt.Sprintf("SIGNON %s%s %s\n%s\n", p.Letter, Game, p.GamePass, strings.Join(orders, "\n"))
}

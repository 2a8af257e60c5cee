package engine

import (
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"time"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/state"
)

// maxSteps bounds the clock events one Tick handles for one game. A step
// that processes a phase can leave the next phase due at once (when only
// powers in civil disorder have something to do in it), so a Tick takes a
// few steps; the bound keeps a game whose every step is due from running
// away inside one transaction. What is left waits for the next Tick.
const maxSteps = 5

// TickBatch is how many due games Tick handles in one transaction. A
// commit waits for the disk (an fsync or two, some milliseconds), and a
// popular deadline can make a thousand games due in the same minute: one
// commit each would take seconds of waiting. Batches of 50 make that 20
// commits, and hold up the mail waiting for the database no longer than
// 50 games take to process.
const TickBatch = 50

// Tick runs the deadlines of every game due at now: reminders, early and
// deadline processing, late notices, grace, civil disorder. The games are
// handled tickBatch to a transaction. A batch that fails is rolled back
// and its games handled again each in a transaction of its own, so that
// one game's trouble holds up no other; the errors of all games are
// returned together, each naming its game.
func (m *Engine) Tick(now time.Time) error {
	var names []string
	err := m.db.View(func(tx *state.Tx) error {
		var err error
		names, err = tx.Due(now)
		return err
	})
	if err != nil {
		return err
	}
	var errs []error
	for len(names) > 0 {
		batch := names[:min(TickBatch, len(names))]
		names = names[len(batch):]
		err := m.Update(func(tx *state.Tx) error {
			for _, name := range batch {
				if err := m.tickGame(tx, name, now); err != nil {
					return err
				}
			}
			return nil
		})
		switch {
		case err == nil:
			continue
		case len(batch) == 1:
			errs = append(errs, fmt.Errorf("game %s: %w", batch[0], err))
			continue
		}
		for _, name := range batch {
			err := m.Update(func(tx *state.Tx) error { return m.tickGame(tx, name, now) })
			if err != nil {
				errs = append(errs, fmt.Errorf("game %s: %w", name, err))
			}
		}
	}
	return errors.Join(errs...)
}

// Update is the database's Update for Tick, with a panic in fn turned
// into an error, so that a game that trips a bug is one more game that
// failed, as a game on a damaged page is (state returns that as an
// error): the games after it in the clock still run, and the daemon's
// clock too.
func (m *Engine) Update(fn func(*state.Tx) error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("panic: %v\n%s", v, debug.Stack())
		}
	}()
	return m.db.Update(fn)
}

// tickGame runs the clock events of one game that are due at now.
func (m *Engine) tickGame(tx *state.Tx, name string, now time.Time) error {
	g, err := tx.Game(name)
	if errors.Is(err, state.ErrNotFound) {
		return nil // deleted since Due listed it
	}
	if err != nil {
		return err
	}
	// Another process may have handled the game since Due was read: look
	// at the wake time again inside this transaction.
	if g.Wake.IsZero() || g.Wake.After(now) {
		return nil
	}
	for step := 0; step < maxSteps && !g.Wake.IsZero() && !g.Wake.After(now); step++ {
		if err := m.step(tx, g, now); err != nil {
			return err
		}
	}
	return tx.PutGame(g)
}

// step handles the clock event of g that is due at now, and sets the wake
// time of the next one.
func (m *Engine) step(tx *state.Tx, g *state.Game, now time.Time) error {
	if g.Status != state.Active {
		g.Wake = time.Time{}
		return nil
	}
	pos, rules, err := m.Position(g)
	if err != nil {
		return err
	}
	sv := m.Survey(g, pos)
	switch {
	case sv.due(g, now):
		return m.Process(tx, g, pos, rules, now)
	case now.Before(g.Deadline):
		if err := m.remind(tx, g, pos, sv, now); err != nil {
			return err
		}
	case now.Before(GraceEnd(g)):
		if err := m.lateNotice(tx, g, sv, now); err != nil {
			return err
		}
	default:
		return m.graceOver(tx, g, pos, rules, sv, now)
	}
	Schedule(g, now)
	return nil
}

// remind sends the reminder, once a phase, to every player still missing
// orders when the reminder time (ReminderBefore the deadline) has come.
func (m *Engine) remind(tx *state.Tx, g *state.Game, pos *judge.Position, sv survey, now time.Time) error {
	rem := ReminderBefore(g)
	if g.Reminded || rem <= 0 || now.Before(g.Deadline.Add(-rem)) {
		return nil
	}
	g.Reminded = true
	h := m.HeadFor(g, pos.Phase)
	left := g.Deadline.Sub(now)
	hours := int((left + time.Hour - 1) / time.Hour)
	spelt := SpellLeft(left)
	for _, i := range sv.Missing {
		p := &g.Players[i]
		if p.Status != state.Playing {
			continue // nobody to remind at an abandoned seat
		}
		data := ReminderData{HeadLines: h, Power: p.Power, Hours: hours, Left: spelt, Orders: g.Orders[p.Power]}
		if err := m.Send(tx, now, "reminder", data, []string{p.Addr}, ""); err != nil {
			return err
		}
	}
	return nil
}

// lateNotice tells everyone, once every lateEvery during the grace, which
// powers the game waits for. The first notice of a phase counts the
// phase against each late player.
func (m *Engine) lateNotice(tx *state.Tx, g *state.Game, sv survey, now time.Time) error {
	if !g.LateNoticed.IsZero() && now.Before(g.LateNoticed.Add(lateEvery)) {
		return nil
	}
	if g.LateNoticed.IsZero() {
		if err := m.noteLate(tx, g, sv.Missing, now); err != nil {
			return err
		}
	}
	g.LateNoticed = now
	refs, letters := PowerRefs(MapOrNil(g), g, sv.Missing)
	g.LateNamed = nil
	for _, r := range refs {
		g.LateNamed = append(g.LateNamed, r.Name)
	}
	data := LateData{HeadLines: m.Head(g), Powers: refs, Letters: letters, Grace: GraceEnd(g), NMR: g.Settings.NMR}
	// The late players get their own copy, whose subject starts with
	// "[You are late!]" as njudge's does.
	var late []string
	for _, i := range sv.Missing {
		if p := &g.Players[i]; p.Status == state.Playing {
			late = append(late, p.Addr)
		}
	}
	others := slices.DeleteFunc(m.Recipients(g), func(a string) bool {
		return slices.ContainsFunc(late, func(l string) bool { return SameAddr(a, l) })
	})
	if err := m.SendGame(tx, now, g, "late", data, others); err != nil {
		return err
	}
	data.YouAreLate = true
	return m.SendGame(tx, now, g, "late", data, late)
}

// countLate adds one to the late count of the players of the given seats.
func countLate(g *state.Game, seats []int) {
	for _, i := range seats {
		if g.Players[i].Status == state.Playing {
			g.Players[i].Late++
		}
	}
}

// graceOver handles a phase whose grace has run out with orders missing.
// In an NMR game the late seats fall into civil disorder and the phase is
// processed with the orders there are (the judge holds units without
// orders, disbands dislodged units without retreats and removes units by
// the civil-disorder rule). In a NoNMR game the late players lose their
// seats, which become free for takeover, and the game waits, calling for
// replacements every replaceEvery.
func (m *Engine) graceOver(tx *state.Tx, g *state.Game, pos *judge.Position, rules judge.Rules, sv survey, now time.Time) error {
	if g.LateNoticed.IsZero() {
		if err := m.noteLate(tx, g, sv.Missing, now); err != nil {
			return err
		}
	}
	if g.Settings.NMR {
		for _, i := range sv.Missing {
			if g.Players[i].Status == state.Playing {
				// An abandoned seat's player was charged when they left it.
				if err := LogSeat(tx, g, &g.Players[i], state.SeatDisorder, pos.Phase.String(), now); err != nil {
					return err
				}
			}
			g.Players[i].Status = state.Disorder
			ClearVotes(&g.Players[i])
			m.Event(tx, g, pos.Phase.String(), eventDisorder, "power", g.Players[i].Power)
		}
		return m.Process(tx, g, pos, rules, now)
	}
	// The players who lose their seats now are told too, as njudge tells
	// them, though an abandoned seat gets the game's mail no more.
	var fresh []string
	for _, i := range sv.Missing {
		if p := &g.Players[i]; p.Status == state.Playing {
			p.Status = state.Abandoned
			ClearVotes(p)
			fresh = append(fresh, p.Addr)
			m.Event(tx, g, pos.Phase.String(), EventAbandoned, "power", p.Power, "why", "late")
			if err := LogSeat(tx, g, p, state.SeatAbandoned, pos.Phase.String(), now); err != nil {
				return err
			}
		}
	}
	if len(fresh) > 0 {
		// The draw may now pass without the late players' votes.
		if err := m.CheckDraw(tx, g, now); err != nil || g.Status != state.Active {
			return err
		}
	}
	if g.Settings.Bot != "" {
		// With a bot the game does not wait for replacements: the bot
		// plays the seats abandoned now (and those abandoned before,
		// which the phase waited for) from this phase on; the
		// replacements are still called for.
		m.EnterBots(g, pos, rules)
		if len(m.Survey(g, pos).Missing) == 0 {
			if len(fresh) > 0 {
				refs, letters := PowerRefs(MapOrNil(g), g, sv.Missing)
				data := AbandonedData{HeadLines: m.Head(g), Powers: refs, Letters: letters, Bot: true}
				if err := m.SendGame(tx, now, g, "abandoned", data, append(m.Recipients(g), fresh...)); err != nil {
					return err
				}
			}
			return m.Process(tx, g, pos, rules, now)
		}
	}
	if len(fresh) > 0 || g.LateNoticed.Before(GraceEnd(g)) || !now.Before(g.LateNoticed.Add(replaceEvery)) {
		g.LateNoticed = now
		refs, letters := PowerRefs(MapOrNil(g), g, sv.Missing)
		data := AbandonedData{HeadLines: m.Head(g), Powers: refs, Letters: letters, Waiting: true}
		if err := m.SendGame(tx, now, g, "abandoned", data, append(m.Recipients(g), fresh...)); err != nil {
			return err
		}
	}
	Schedule(g, now)
	return nil
}

package judge

import (
	"fmt"
	"strconv"
)

// UnitType is army or fleet.
type UnitType uint8

// The unit types. NoUnit marks an empty place, or an order that did not
// name the type.
const (
	NoUnit UnitType = iota
	Army
	Fleet
)

// String returns "A", "F" or "?".
func (t UnitType) String() string {
	switch t {
	case Army:
		return "A"
	case Fleet:
		return "F"
	}
	return "?"
}

// Word returns "Army", "Fleet" or "Unit", as in results mails.
func (t UnitType) Word() string {
	switch t {
	case Army:
		return "Army"
	case Fleet:
		return "Fleet"
	}
	return "Unit"
}

// Season of a phase.
type Season uint8

// The seasons. Adjustments happen in Winter.
const (
	Spring Season = iota + 1
	Fall
	Winter
)

// String returns "Spring", "Fall" or "Winter".
func (s Season) String() string {
	switch s {
	case Spring:
		return "Spring"
	case Fall:
		return "Fall"
	case Winter:
		return "Winter"
	}
	return "?"
}

// PhaseType is movement, retreat or adjustment.
type PhaseType uint8

// The phase types.
const (
	Movement PhaseType = iota + 1
	Retreat
	Adjustment
)

// String returns "Movement", "Retreat" or "Adjustment".
func (t PhaseType) String() string {
	switch t {
	case Movement:
		return "Movement"
	case Retreat:
		return "Retreat"
	case Adjustment:
		return "Adjustment"
	}
	return "?"
}

// Phase names one phase of a game: "S1901M", "F1901R", "W1901A".
type Phase struct {
	Season Season
	Year   int
	Type   PhaseType
}

// String returns the judge-style phase id, like "S1901M".
func (p Phase) String() string {
	s := "?"
	switch p.Season {
	case Spring:
		s = "S"
	case Fall:
		s = "F"
	case Winter:
		s = "W"
	}
	t := "?"
	switch p.Type {
	case Movement:
		t = "M"
	case Retreat:
		t = "R"
	case Adjustment:
		t = "A"
	}
	return s + strconv.Itoa(p.Year) + t
}

// ParsePhase reads a phase id like "S1901M", "F1901R" or "W1901A" (the
// njudge spelling "F1901B" for Winter adjustments is accepted too).
func ParsePhase(s string) (Phase, error) {
	if len(s) < 3 {
		return Phase{}, fmt.Errorf("phase %q: want a season letter, a year and a type letter, like S1901M", s)
	}
	var p Phase
	switch s[0] | 0x20 {
	case 's':
		p.Season = Spring
	case 'f':
		p.Season = Fall
	case 'w':
		p.Season = Winter
	default:
		return Phase{}, fmt.Errorf("phase %q: season must be S, F or W", s)
	}
	y, err := strconv.Atoi(s[1 : len(s)-1])
	// Year 0 is a year: North Sea Wars starts in the Spring of 0 (S0M).
	if err != nil || y < 0 || y > 99999 || s[1] == '-' || s[1] == '+' {
		return Phase{}, fmt.Errorf("phase %q: bad year", s)
	}
	p.Year = y
	switch s[len(s)-1] | 0x20 {
	case 'm':
		p.Type = Movement
	case 'r':
		p.Type = Retreat
	case 'a', 'b':
		p.Type = Adjustment
		if p.Season == Fall {
			p.Season = Winter
		}
	default:
		return Phase{}, fmt.Errorf("phase %q: type must be M, R or A", s)
	}
	if p.Season == Winter && p.Type != Adjustment || p.Season != Winter && p.Type == Adjustment {
		return Phase{}, fmt.Errorf("phase %q: adjustments happen in Winter, and only adjustments", s)
	}
	return p, nil
}

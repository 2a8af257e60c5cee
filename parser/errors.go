package parser

import (
	"fmt"
	"strconv"
)

// An Error is a problem with one order, at a place in the text. Line and
// Col are 1-based; Col counts characters and points at the offending token.
// An Error from ParseLoc has no place (Line and Col are 0), because the
// name it was given is a field, not a line of text.
type Error struct {
	Line, Col int
	Msg       string
}

// Error returns "line 3 col 9: unknown province "Burg" (did you mean
// Burgundy?)", or just the message when the error has no place.
func (e *Error) Error() string {
	if e.Line <= 0 {
		return e.Msg
	}
	return "line " + strconv.Itoa(e.Line) + " col " + strconv.Itoa(e.Col) + ": " + e.Msg
}

// ErrorList is the list of errors of one text, in the order of the text.
// Like go/scanner's ErrorList, it is itself an error.
type ErrorList []*Error

// Error returns the first error, and how many more there are.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	case 2:
		return l[0].Error() + " (and 1 more error)"
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0].Error(), len(l)-1)
}

// Err returns l as an error, or nil if l is empty: a nil ErrorList stored in
// an error interface would not compare equal to nil.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

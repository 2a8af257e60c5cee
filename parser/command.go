package parser

// Command is one command of a mail body in the judge's command language,
// or a block of order lines.
type Command struct {
	Line int    // line of the command in the mail body, from 1
	Name string // the keyword in upper case: "SIGNON", "SET", "PRESS", ...; "ORDERS" for order lines
	// Args are the words after the keyword as written. For SET the option
	// is Args[0], upper-cased ("WAIT", "DEADLINE", "PASSWORD").
	Args []string
	Text string // the line as written, trimmed
	// Body is the text of a PRESS or BROADCAST (the lines up to ENDPRESS)
	// or, for ORDERS, the order lines themselves, one per line.
	Body string
	// BodyLine is the mail line of Body's first line: line N of Body is
	// mail line BodyLine+N-1.
	BodyLine int
}

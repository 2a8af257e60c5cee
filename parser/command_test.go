package parser_test

import (
	"fmt"
	"github.com/gmdjudge/gmd/internal/racetest"
	"reflect"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/parser"
)

// cmd is shorthand for a Command without a body.
func cmd(line int, name, text string, args ...string) parser.Command {
	if len(args) == 0 {
		args = nil
	}
	return parser.Command{Line: line, Name: name, Args: args, Text: text}
}

// orders is shorthand for an ORDERS command whose body starts at line.
func orders(line int, body ...string) parser.Command {
	return parser.Command{
		Line: line, Name: "ORDERS", Text: strings.TrimSpace(body[0]),
		Body: strings.Join(body, "\n"), BodyLine: line,
	}
}

// press is shorthand for a PRESS or BROADCAST command with its body.
func press(line int, name, text string, args []string, body ...string) parser.Command {
	return parser.Command{
		Line: line, Name: name, Args: args, Text: text,
		Body: strings.Join(body, "\n"), BodyLine: line + 1,
	}
}

func unterminated(c parser.Command) parser.Command {
	c.Unterminated = true
	return c
}

var mailTests = []struct {
	name string
	mail string
	want []parser.Command
}{
	{
		name: "njudge style",
		mail: `SIGNON Fdt secret
A Par - Bur
A Mar S A Par - Bur

F Bre - Mao
PRESS TO EG
Shall we share the Channel?
SIGNOFF is not read in press
> nor are quotes
-- 
ENDPRESS
SIGNOFF
-- 
Jean Dupont
A Par - Pic
`,
		want: []parser.Command{
			cmd(1, "SIGNON", "SIGNON Fdt secret", "Fdt", "secret"),
			orders(2, "A Par - Bur", "A Mar S A Par - Bur", "", "F Bre - Mao"),
			press(6, "PRESS", "PRESS TO EG", []string{"TO", "EG"},
				"Shall we share the Channel?", "SIGNOFF is not read in press", "> nor are quotes", "-- "),
			cmd(12, "SIGNOFF", "SIGNOFF"),
		},
	},
	{
		name: "reply quoting the judge",
		mail: `signon fdt secret
a par - bur

On Tue, Jan 6, 2004 at 11:30 PM, GMD Judge <judge@example.org> wrote:

> Orders received for France:
> SIGNON Fdt secret
>
>   Army Paris -> Burgundy.
`,
		want: []parser.Command{
			cmd(1, "SIGNON", "signon fdt secret", "fdt", "secret"),
			orders(2, "a par - bur"),
		},
	},
	{
		name: "quotes between orders split the block",
		mail: "SIGNON Adt pw\nA Vie - Gal\n  > A Bud - Ser\nA Bud - Ser\n\n\nF Tri H\n\n",
		want: []parser.Command{
			cmd(1, "SIGNON", "SIGNON Adt pw", "Adt", "pw"),
			orders(2, "A Vie - Gal"),
			orders(4, "A Bud - Ser", "", "", "F Tri H"),
		},
	},
	{
		name: "windows line ends",
		mail: "SIGNON Edt pw\r\n\r\n  F Lon - Nth  \r\nF Edi - Nrg\r\n\r\nA Lvp - Yor\r\nset wait\r\nPRESS TO F\r\nHi\r\n\r\nthere\r\nENDPRESS\r\n",
		want: []parser.Command{
			cmd(1, "SIGNON", "SIGNON Edt pw", "Edt", "pw"),
			orders(3, "  F Lon - Nth  ", "F Edi - Nrg", "", "A Lvp - Yor"),
			cmd(7, "SET", "set wait", "WAIT"),
			press(8, "PRESS", "PRESS TO F", []string{"TO", "F"}, "Hi", "", "there"),
		},
	},
	{
		name: "a value glued to a SET option keeps its case",
		mail: "set password:Hunter2\nSet passwd=Hunter2\nset PassWord: Hunter2",
		want: []parser.Command{
			cmd(1, "SET", "set password:Hunter2", "PASSWORD:Hunter2"),
			cmd(2, "SET", "Set passwd=Hunter2", "PASSWD=Hunter2"),
			cmd(3, "SET", "set PassWord: Hunter2", "PASSWORD:", "Hunter2"),
		},
	},
	{
		name: "old Mac line ends",
		mail: "SIGNON Tdt pw\rF Ank - Bla\rA Con - Bul\r\rA Smy - Con",
		want: []parser.Command{
			cmd(1, "SIGNON", "SIGNON Tdt pw", "Tdt", "pw"),
			orders(2, "F Ank - Bla", "A Con - Bul", "", "A Smy - Con"),
		},
	},
	{
		name: "lower case commands",
		mail: `signon mdt masterpw
set deadline Mon Jan 12 2004 23:30
Set nmr
press to all but r
ok
endpress
broadcast
all of you
end press
process s1901m
become f
list
history dt S1901M
summary dt
`,
		want: []parser.Command{
			cmd(1, "SIGNON", "signon mdt masterpw", "mdt", "masterpw"),
			cmd(2, "SET", "set deadline Mon Jan 12 2004 23:30", "DEADLINE", "Mon", "Jan", "12", "2004", "23:30"),
			cmd(3, "SET", "Set nmr", "NMR"),
			press(4, "PRESS", "press to all but r", []string{"to", "all", "but", "r"}, "ok"),
			press(7, "BROADCAST", "broadcast", nil, "all of you"),
			cmd(10, "PROCESS", "process s1901m", "s1901m"),
			cmd(11, "BECOME", "become f", "f"),
			cmd(12, "LIST", "list"),
			cmd(13, "HISTORY", "history dt S1901M", "dt", "S1901M"),
			cmd(14, "SUMMARY", "summary dt", "dt"),
		},
	},
	{
		name: "unterminated press",
		mail: "SIGNON Gdt pw\nA Mun - Ruh\nPRESS GREY TO F\nHello France.\n\n-- \nHans\n",
		want: []parser.Command{
			cmd(1, "SIGNON", "SIGNON Gdt pw", "Gdt", "pw"),
			orders(2, "A Mun - Ruh"),
			unterminated(press(3, "PRESS", "PRESS GREY TO F", []string{"GREY", "TO", "F"},
				"Hello France.", "", "-- ", "Hans")),
		},
	},
	{
		name: "empty and unterminated press at the end",
		mail: "BROADCAST\nENDBROADCAST\nPRESS TO E",
		want: []parser.Command{
			press(1, "BROADCAST", "BROADCAST", nil),
			unterminated(press(3, "PRESS", "PRESS TO E", []string{"TO", "E"})),
		},
	},
	{
		name: "signature with commands after it",
		mail: "SIGNON Rdt pw\nA Mos - Ukr\n-- \nSIGNON Xfoo bar\nA War - Gal\nPRESS TO ALL\n",
		want: []parser.Command{
			cmd(1, "SIGNON", "SIGNON Rdt pw", "Rdt", "pw"),
			orders(2, "A Mos - Ukr"),
		},
	},
	{
		name: "signature without its space",
		mail: "SIGNON Rdt pw\nA Mos - Ukr\n--\nA War - Gal\n",
		want: []parser.Command{
			cmd(1, "SIGNON", "SIGNON Rdt pw", "Rdt", "pw"),
			orders(2, "A Mos - Ukr"),
		},
	},
	{
		name: "dashes that are not a signature",
		mail: "A Mos - Ukr\n --\n---\n-- x\n",
		want: []parser.Command{orders(1, "A Mos - Ukr", " --", "---", "-- x")},
	},
	{
		name: "outlook reply",
		mail: "SIGNON Idt pw\r\nA Ven H\r\n\r\n-----Original Message-----\r\nFrom: GMD Judge\r\nSIGNON Idt pw\r\nArmy Venice HOLD.\r\n",
		want: []parser.Command{
			cmd(1, "SIGNON", "SIGNON Idt pw", "Idt", "pw"),
			orders(2, "A Ven H"),
		},
	},
	{
		name: "END and SIGNOFF end the mail",
		mail: "SIGNON Idt pw\nA Rom - Apu\nEnd of my orders\nA Nap - Ion\nSIGNOFF\n",
		want: []parser.Command{
			cmd(1, "SIGNON", "SIGNON Idt pw", "Idt", "pw"),
			orders(2, "A Rom - Apu"),
			cmd(3, "SIGNOFF", "End of my orders", "of", "my", "orders"),
		},
	},
	{
		name: "sign on and sign off in two words",
		mail: "sign on Fdt pw\nA Par H\nSign  Off now\nA Mar H\n",
		want: []parser.Command{
			cmd(1, "SIGNON", "sign on Fdt pw", "Fdt", "pw"),
			orders(2, "A Par H"),
			cmd(3, "SIGNOFF", "Sign  Off now", "now"),
		},
	},
	{
		name: "order lines that look like commands",
		mail: `SIGNON Edt pw
England:
Build A Lvp
Remove F Lon
Waive
Disband A Yor
Pres A Lon
Pressure is high
SETTLE
Sign here
Listen
Processing
END.
I wrote:
A Wal - Lon
`,
		want: []parser.Command{
			cmd(1, "SIGNON", "SIGNON Edt pw", "Edt", "pw"),
			orders(2, "England:", "Build A Lvp", "Remove F Lon", "Waive", "Disband A Yor", "Pres A Lon",
				"Pressure is high", "SETTLE", "Sign here", "Listen", "Processing", "END.", "I wrote:", "A Wal - Lon"),
		},
	},
	{
		name: "master commands and synonyms",
		mail: `CREATE ?dt secret standard
OBSERVE dt pw
WATCH dt pw
PAUSE
SUSPEND
RESUME
TERMINATE
EJECT E
ROLLBACK S1901M
PREDICT
STATUS dt
WITHDRAW
RESIGN
HELP
SET
`,
		want: []parser.Command{
			cmd(1, "CREATE", "CREATE ?dt secret standard", "?dt", "secret", "standard"),
			cmd(2, "OBSERVE", "OBSERVE dt pw", "dt", "pw"),
			cmd(3, "OBSERVE", "WATCH dt pw", "dt", "pw"),
			cmd(4, "PAUSE", "PAUSE"),
			cmd(5, "PAUSE", "SUSPEND"),
			cmd(6, "RESUME", "RESUME"),
			cmd(7, "TERMINATE", "TERMINATE"),
			cmd(8, "EJECT", "EJECT E", "E"),
			cmd(9, "ROLLBACK", "ROLLBACK S1901M", "S1901M"),
			cmd(10, "PREDICT", "PREDICT"),
			cmd(11, "SUMMARY", "STATUS dt", "dt"),
			cmd(12, "RESIGN", "WITHDRAW"),
			cmd(13, "RESIGN", "RESIGN"),
			cmd(14, "HELP", "HELP"),
			cmd(15, "SET", "SET"),
		},
	},
	{
		name: "njudge's synonyms of SIGNON, and VERSION",
		mail: "HELLO Fdt pw\nA Par H\nlogin Edt pw\nVersion\nSign\tOn Gdt pw\n",
		want: []parser.Command{
			cmd(1, "SIGNON", "HELLO Fdt pw", "Fdt", "pw"),
			orders(2, "A Par H"),
			cmd(3, "SIGNON", "login Edt pw", "Edt", "pw"),
			cmd(4, "VERSION", "Version"),
			cmd(5, "SIGNON", "Sign\tOn Gdt pw", "Gdt", "pw"),
		},
	},
	{
		name: "ENDPRESS outside a press is a command, not the end of the mail",
		mail: "ENDPRESS\nEND PRESS\nendbroadcast\nEnd Broadcast now\nA Par H\nEND\nA Mar H\n",
		want: []parser.Command{
			cmd(1, "ENDPRESS", "ENDPRESS"),
			cmd(2, "ENDPRESS", "END PRESS"),
			cmd(3, "ENDPRESS", "endbroadcast"),
			cmd(4, "ENDPRESS", "End Broadcast now", "now"),
			orders(5, "A Par H"),
			cmd(6, "SIGNOFF", "END"),
		},
	},
	{
		name: "a press ends at ENDPRESS alone, in any spelling",
		mail: "BROADCAST\nend press now\nENDPRESS.\nEnd  Broadcast\nPRESS TO E\nx\nENDBROADCAST\n",
		want: []parser.Command{
			press(1, "BROADCAST", "BROADCAST", nil, "end press now", "ENDPRESS."),
			press(5, "PRESS", "PRESS TO E", []string{"TO", "E"}, "x"),
		},
	},
	{
		name: "spacing",
		mail: "\ufeff\t SIGNON\u00a0Fdt   pw \n\u3000A Par - Bur\u3000\n\tset password\tNew Pw\n",
		want: []parser.Command{
			cmd(1, "SIGNON", "SIGNON\u00a0Fdt   pw", "Fdt", "pw"),
			orders(2, "\u3000A Par - Bur\u3000"),
			cmd(3, "SET", "set password\tNew Pw", "PASSWORD", "New", "Pw"),
		},
	},
	{
		name: "attribution not followed by a quote",
		mail: "On Monday Bob wrote:\nA Par - Bur\nBob wrote:\n\n\n> quoted\nOn Tuesday X WROTE:",
		want: []parser.Command{orders(1, "On Monday Bob wrote:", "A Par - Bur"), orders(7, "On Tuesday X WROTE:")},
	},
	{
		name: "press is read as written",
		mail: "PRESS TO T\n  SIGNON Xyy pw\n> >\nOn X wrote:\n> hi\n-----Original Message-----\n END   PRESS \nA Con H",
		want: []parser.Command{
			press(1, "PRESS", "PRESS TO T", []string{"TO", "T"},
				"  SIGNON Xyy pw", "> >", "On X wrote:", "> hi", "-----Original Message-----"),
			orders(8, "A Con H"),
		},
	},
	{name: "empty", mail: "", want: nil},
	{name: "blank", mail: "\n \r\n\t\r\r\n", want: nil},
	{name: "only quotes", mail: "> SIGNON Fdt pw\n> A Par - Bur", want: nil},
}

func TestParseMail(t *testing.T) {
	for _, tt := range mailTests {
		t.Run(tt.name, func(t *testing.T) {
			got := parser.ParseMail(tt.mail)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseMail(%q):\n%s\nwant\n%s", tt.mail, dumpCommands(got), dumpCommands(tt.want))
			}
			checkMail(t, tt.mail, got)
		})
	}
}

func dumpCommands(cmds []parser.Command) string {
	var b strings.Builder
	for _, c := range cmds {
		fmt.Fprintf(&b, "\t%#v\n", c)
	}
	return b.String()
}

// TestParseMailLongLine checks that a line longer than any sensible order
// is returned whole, for the caller to report.
func TestParseMailLongLine(t *testing.T) {
	long := "A Par - Bur" + strings.Repeat(" x", 2000)
	got := parser.ParseMail("SIGNON Fdt pw\n" + long + "\nSET " + long)
	if len(got) != 3 || got[1].Body != long || got[2].Name != "SET" || len(got[2].Args) != 2004 {
		t.Fatalf("got %d commands", len(got))
	}
}

// TestParseMailOrderLines checks that the errors of the orders of a mail,
// read by ParseOrders, point at the mail's lines through BodyLine.
func TestParseMailOrderLines(t *testing.T) {
	mail := "SIGNON Fdt pw\r\n\r\nOn Mon, Judge wrote:\r\n> x\r\nA Par - Bur\r\n\r\nA Mar - Xyz\rF Bre - Mao\r\n"
	cmds := parser.ParseMail(mail)
	if len(cmds) != 2 || cmds[1].Name != "ORDERS" {
		t.Fatalf("got %#v", cmds)
	}
	c := cmds[1]
	opt := parser.Options{Map: variants.Standard(), Power: judge.NoPower}
	got, errs := parser.ParseOrders(c.Body, opt)
	if len(got) != 2 || len(errs) != 1 {
		t.Fatalf("ParseOrders(%q) = %v, %v", c.Body, got, errs)
	}
	if line := c.BodyLine + errs[0].Line - 1; line != 7 {
		t.Errorf("error %v is at mail line %d, want 7", errs[0], line)
	}
	if line := c.BodyLine + got[1].Line - 1; line != 8 {
		t.Errorf("order %q is at mail line %d, want 8", got[1].Text, line)
	}
}

// TestParseMailLinear feeds ParseMail mails made to make a careless
// splitter quadratic; they must be read, and read right, in a blink.
func TestParseMailLinear(t *testing.T) {
	racetest.Sequential(t)
	const n = 50000
	mails := []string{
		strings.Repeat("x wrote:\n\n\n", n),
		strings.Repeat("\r", 3*n),
		strings.Repeat("PRESS\n", n),
		strings.Repeat("A Par H\n\n", n),
		strings.Repeat("x wrote:\n", n) + "> q",
	}
	for i, mail := range mails {
		got := parser.ParseMail(mail)
		var want int
		switch i {
		case 0, 3:
			want = 1
		case 2:
			want = 1 // the first PRESS takes all the rest as its body
		case 4:
			want = 1 // the last attribution is ignored, the rest are orders
		}
		if len(got) != want {
			t.Fatalf("mail %d: %d commands, want %d", i, len(got), want)
		}
		checkMail(t, mail, got)
	}
}

// FuzzParseMail checks, on any text, that ParseMail does not panic, that
// its commands come in the order of the mail, that every body is the mail's
// own lines at the lines it says, and that every line it leaves out is one
// it may ignore.
func FuzzParseMail(f *testing.F) {
	for _, tt := range mailTests {
		f.Add(tt.mail)
	}
	f.Add("\xff\xfe>\r\r\n--\n-- \r\nPRESS\rENDPRESS\r\nEND\n")
	f.Add("PRESS\n\n")
	// Whole mails as clients write them: the corpus in testdata/mail.
	for _, body := range corpusBodies(f) {
		f.Add(body)
	}
	f.Fuzz(func(t *testing.T, mail string) {
		checkMail(t, mail, parser.ParseMail(mail))
	})
}

// mailLines returns the lines of a mail as ParseMail numbers them:
// lines[0] is line 1.
func mailLines(mail string) []string {
	mail = strings.TrimPrefix(mail, "\ufeff")
	mail = strings.ReplaceAll(mail, "\r\n", "\n")
	mail = strings.ReplaceAll(mail, "\r", "\n")
	return strings.Split(mail, "\n")
}

// lineCommand returns the name and the number of keyword words of the
// command on line, or "" if it is not a command line: a keyword of the
// command table, of two words first.
func lineCommand(line string) (string, int) {
	w := strings.Fields(line)
	if len(w) == 0 {
		return "", 0
	}
	for _, c := range parser.Commands() {
		for _, k := range append([]string{c.Name}, c.Synonyms...) {
			kw := strings.Fields(k)
			if len(kw) == 2 && len(w) >= 2 && upper(w[0]) == kw[0] && upper(w[1]) == kw[1] {
				return c.Name, 2
			}
		}
	}
	for _, c := range parser.Commands() {
		for _, k := range append([]string{c.Name}, c.Synonyms...) {
			if upper(w[0]) == k {
				return c.Name, 1
			}
		}
	}
	return "", 0
}

// upper returns s with its ASCII letters in upper case: keywords are
// ASCII, and "ſet" is not SET.
func upper(s string) string {
	return strings.Map(func(r rune) rune {
		if 'a' <= r && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	}, s)
}

func isQuoted(line string) bool {
	return strings.HasPrefix(strings.TrimSpace(line), ">")
}

func isEndMail(line string) bool {
	t := strings.TrimSpace(line)
	return line == "-- " || line == "--" ||
		strings.HasPrefix(t, "--") && strings.HasSuffix(t, "--") &&
			upper(strings.TrimSpace(strings.Trim(t, "-"))) == "ORIGINAL MESSAGE"
}

func isEndPress(line string) bool {
	name, n := lineCommand(line)
	return name == "ENDPRESS" && n == len(strings.Fields(line))
}

// checkMail checks the commands ParseMail returned for mail against the
// mail's lines.
func checkMail(t *testing.T, mail string, cmds []parser.Command) {
	t.Helper()
	lines := mailLines(mail)
	covered := make([]bool, len(lines)+1) // by line number
	last := 0
	cover := func(c parser.Command, body string) {
		n := strings.Count(body, "\n") + 1
		if body == "" {
			return
		}
		for i := 0; i < n; i++ {
			l := c.BodyLine + i
			if l > len(lines) {
				t.Fatalf("%#v: body runs past the end of the mail (%d lines)", c, len(lines))
			}
			covered[l] = true
		}
		if got, want := body, strings.Join(lines[c.BodyLine-1:c.BodyLine-1+n], "\n"); got != want {
			t.Fatalf("%#v: body is not the mail's lines %d-%d: %q", c, c.BodyLine, c.BodyLine+n-1, want)
		}
	}
	for i, c := range cmds {
		if c.Line <= last || c.Line > len(lines) {
			t.Fatalf("command %d %#v: line %d after line %d, of %d", i, c, c.Line, last, len(lines))
		}
		last = c.Line
		covered[c.Line] = true
		if c.Text != strings.TrimSpace(lines[c.Line-1]) {
			t.Fatalf("command %d %#v: text is not line %d %q", i, c, c.Line, lines[c.Line-1])
		}
		if c.Unterminated != (c.Unterminated && (c.Name == "PRESS" || c.Name == "BROADCAST")) {
			t.Fatalf("command %d %#v: only a press may be unterminated", i, c)
		}
		if c.Name == "ORDERS" {
			if c.BodyLine != c.Line || c.Body == "" || c.Args != nil {
				t.Fatalf("command %d %#v: bad order block", i, c)
			}
			cover(c, c.Body)
			body := strings.Split(c.Body, "\n")
			if strings.TrimSpace(body[0]) == "" || strings.TrimSpace(body[len(body)-1]) == "" {
				t.Fatalf("command %d %#v: order block begins or ends with a blank line", i, c)
			}
			for _, l := range body {
				if name, _ := lineCommand(l); name != "" || isQuoted(l) || isEndMail(l) {
					t.Fatalf("command %d %#v: line %q is not an order line", i, c, l)
				}
			}
			if i > 0 && cmds[i-1].Name == "ORDERS" {
				// Something ignored, not blank, must separate the blocks.
				prev := cmds[i-1]
				sep := false
				for l := prev.BodyLine + strings.Count(prev.Body, "\n") + 1; l < c.Line; l++ {
					sep = sep || strings.TrimSpace(lines[l-1]) != ""
				}
				if !sep {
					t.Fatalf("command %d %#v: order blocks %#v and %#v not split", i, c, prev, c)
				}
			}
			last = c.BodyLine + strings.Count(c.Body, "\n")
			continue
		}
		name, nw := lineCommand(c.Text)
		if name != c.Name {
			t.Fatalf("command %d %#v: line %q is command %q", i, c, c.Text, name)
		}
		args := strings.Fields(c.Text)[nw:]
		if len(args) == 0 {
			args = nil
		} else if c.Name == "SET" {
			// The option need not be ASCII; a value glued after ':' or
			// '=' keeps its case.
			i := strings.IndexAny(args[0], ":=")
			if i < 0 {
				i = len(args[0])
			}
			args[0] = strings.ToUpper(args[0][:i]) + args[0][i:]
		}
		if !reflect.DeepEqual(c.Args, args) {
			t.Fatalf("command %d %#v: args are not %q", i, c, args)
		}
		if c.Name != "PRESS" && c.Name != "BROADCAST" {
			if c.Body != "" || c.BodyLine != 0 {
				t.Fatalf("command %d %#v: a body", i, c)
			}
			if c.Name == "SIGNOFF" && i != len(cmds)-1 {
				t.Fatalf("command %d %#v: commands after it", i, c)
			}
			continue
		}
		if c.BodyLine != c.Line+1 {
			t.Fatalf("command %d %#v: body not on the next line", i, c)
		}
		cover(c, c.Body)
		n := 0
		if c.Body != "" {
			n = strings.Count(c.Body, "\n") + 1
		} else if c.BodyLine <= len(lines) && !isEndPress(lines[c.BodyLine-1]) {
			n = 1 // one blank line
			if lines[c.BodyLine-1] != "" {
				t.Fatalf("command %d %#v: empty body, but line %d is %q", i, c, c.BodyLine, lines[c.BodyLine-1])
			}
		}
		for _, l := range lines[c.BodyLine-1 : c.BodyLine-1+n] {
			if isEndPress(l) {
				t.Fatalf("command %d %#v: the body goes on past %q", i, c, l)
			}
		}
		end := c.BodyLine + n // the ENDPRESS line
		if c.Unterminated {
			// The body runs to the end of the mail, but for the
			// empty line after its last line break.
			if i != len(cmds)-1 || end <= len(lines) && !(end == len(lines) && lines[end-1] == "") {
				t.Fatalf("command %d %#v: unterminated, yet the mail goes on at line %d of %d", i, c, end, len(lines))
			}
			last = len(lines)
			continue
		}
		if end > len(lines) || !isEndPress(lines[end-1]) {
			t.Fatalf("command %d %#v: does not end with ENDPRESS on line %d", i, c, end)
		}
		covered[end] = true
		last = end
	}
	// Lines after the end of the mail are not read; lines before it are read
	// or ignored.
	stop := len(lines) + 1
	if k := len(cmds); k > 0 && (cmds[k-1].Name == "SIGNOFF" || cmds[k-1].Name == "END") {
		stop = cmds[k-1].Line
	} else {
		for l := 1; l <= len(lines); l++ {
			if !covered[l] && isEndMail(lines[l-1]) {
				stop = l
				break
			}
		}
	}
	for l := 1; l <= len(lines); l++ {
		text := lines[l-1]
		switch {
		case l > stop && covered[l]:
			t.Fatalf("line %d %q read after the end of the mail at line %d", l, text, stop)
		case l >= stop || covered[l]:
		case strings.TrimSpace(text) == "" || isQuoted(text):
		case strings.HasSuffix(upper(strings.TrimSpace(text)), "WROTE:"):
			next := l + 1
			for next <= len(lines) && strings.TrimSpace(lines[next-1]) == "" {
				next++
			}
			if next > len(lines) || !isQuoted(lines[next-1]) {
				t.Fatalf("line %d %q ignored, but no quote follows", l, text)
			}
		default:
			t.Fatalf("line %d %q neither read nor ignored", l, text)
		}
	}
}

func BenchmarkParseMail(b *testing.B) {
	var mail strings.Builder
	mail.WriteString("SIGNON Fdt secret\r\n")
	for _, l := range typicalLines {
		mail.WriteString(l + "\r\n")
	}
	mail.WriteString("PRESS TO EG\r\nHello.\r\nENDPRESS\r\nSIGNOFF\r\n-- \r\nsig\r\n")
	src := mail.String()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		parser.ParseMail(src)
	}
}

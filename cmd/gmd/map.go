package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gmdjudge/gmd/daemon"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/picture"
	"github.com/gmdjudge/gmd/view"
)

func init() {
	commands["map"] = command{
		summary: "draw the board of one phase, with its orders, as PNG or SVG; gmd map check FILE checks a map file",
		run:     runMap,
	}
}

// pictures are the drawers of the board by format: package picture's,
// which the results mails use too ("png"); tests put their own.
var pictures = map[string]view.Drawer{
	"png": picture.PNG,
	"svg": picture.SVG,
}

const drawMapUsage = `usage: gmd map -position pos.json [-orders orders.txt] [-format png|svg] [-o board.png]
       gmd map check FILE

Draws the board of one phase: the position (JSON, as gmd adjudicate reads
it) and, with -orders, the orders of the phase drawn as arrows with their
outcomes (the phase is adjudicated as gmd adjudicate would). Either file
may be "-" for standard input, not both.

The picture goes to the -o file, or to standard output. The format is
-format's, else the -o file's extension (.png or .svg), else png. The PNG
is 1000 pixels wide.

An order line that does not parse is reported on standard error as
"orders.txt: line N col M: message" and dropped: its unit is drawn
without an order.

Exit status: 0 when everything was read; 1 when some order lines were
bad, the picture having been written; 2 when nothing could be done: bad
flags, an unreadable file, or a malformed position, with the message gmd
adjudicate gives (nothing is written then).

gmd map check FILE checks a map file instead (see gmd map check -h).

Flags:
`

func runMap(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "check" {
		return runMapCheck(args, stdin, stdout, stderr)
	}
	fs := flag.NewFlagSet("map", flag.ContinueOnError)
	fs.SetOutput(stderr)
	posFile := fs.String("position", "", "position `file` (JSON); - for standard input")
	ordFile := fs.String("orders", "", "orders `file` (judge text); - for standard input")
	format := fs.String("format", "", "picture format: png or svg (default: from -o, else png)")
	outFile := fs.String("o", "", "write the picture to `file` rather than standard output")
	fs.Usage = func() {
		fmt.Fprint(stderr, drawMapUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	fail := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "gmd map: "+format+"\n", args...)
		return 2
	}
	if fs.NArg() > 0 {
		// Perhaps a mistyped "gmd map check".
		fmt.Fprint(stderr, mapUsage)
		return fail("unexpected argument %q (see gmd map -h)", fs.Arg(0))
	}
	f := strings.ToLower(*format)
	if f == "" {
		f = "png"
		if ext := strings.ToLower(filepath.Ext(*outFile)); ext == ".svg" {
			f = "svg"
		}
	}
	draw, known := pictures[f]
	if !known {
		return fail("-format %q: want png or svg", *format)
	}
	ph, err := readPhase("map", *posFile, *ordFile, stdin, stderr)
	if err != nil {
		return fail("%v", err)
	}
	var res *judge.Resolution
	if *ordFile != "" {
		res = judge.Adjudicate(ph.pos, ph.orders, ph.rules)
	}
	var b bytes.Buffer
	if err := draw(&b, ph.pos, res); err != nil {
		return fail("drawing: %v", err)
	}
	if *outFile != "" {
		err = os.WriteFile(*outFile, b.Bytes(), 0o644)
	} else {
		_, err = stdout.Write(b.Bytes())
	}
	if err != nil {
		return fail("%v", err)
	}
	if len(ph.errs) > 0 {
		return 1
	}
	return 0
}

// mapPictures is how the judge draws the maps of its mails and pages:
// with pictures["png"], in the size a mail may carry, and the replays of
// finished games.
func mapPictures() daemon.Pictures {
	return daemon.Pictures{Draw: pictures["png"], MaxBytes: picture.MaxPNGBytes, Animate: animate, Replay: mailReplay}
}

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"

	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/report"
)

func init() {
	commands["adjudicate"] = command{
		summary: "adjudicate one phase offline (or a batch of phases as JSON lines)",
		run:     runAdjudicate,
	}
}

const adjudicateUsage = `usage: gmd adjudicate -position pos.json [-orders orders.txt] [-format json|text]
       gmd adjudicate -batch < phases.jsonl > results.jsonl

Adjudicates one phase: the position (JSON, see DESIGN.md §9) and the
orders (judge text, "England: F Lon - Nth" lines or blocks under a line
naming the power). Either file may be "-" for standard input, not both.
Without -orders every unit is left without orders.

Output: -format json (the default) writes {"orders": [...], "next": {...}};
-format text writes the results as a judge mails them.

An order line that does not parse is reported on standard error as
"orders.txt: line N col M: message" and dropped: its unit gets no order,
as in a game. The phase is still adjudicated and written.

-batch reads JSON lines {"position": {...}, "orders": "..."} from standard
input and writes one JSON line per input line, in order: the result, or
{"error": "line N: ..."} for a line that cannot be read, after which the
batch goes on. Blank lines are skipped. Order lines that do not parse are
reported on standard error as "line N: orders: line M col C: message".

Exit status: 0 when everything was read; 1 when some order lines (or, with
-batch, some input lines) were bad, the rest having been written; 2 when
nothing could be done: bad flags, an unreadable file, or a malformed
position, whose message names the field at fault (nothing is written to
standard output then).

Flags:
`

func runAdjudicate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("adjudicate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	posFile := fs.String("position", "", "position `file` (JSON); - for standard input")
	ordFile := fs.String("orders", "", "orders `file` (judge text); - for standard input")
	format := fs.String("format", "json", "output format: json or text")
	batch := fs.Bool("batch", false, "read JSON lines of {\"position\", \"orders\"} from standard input")
	fs.Usage = func() {
		fmt.Fprint(stderr, adjudicateUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	fail := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "gmd adjudicate: "+format+"\n", args...)
		return 2
	}
	switch {
	case fs.NArg() > 0:
		return fail("unexpected argument %q (see gmd adjudicate -h)", fs.Arg(0))
	case *format != "json" && *format != "text":
		return fail("-format %q: want json or text", *format)
	case *batch && (*posFile != "" || *ordFile != ""):
		return fail("-batch reads positions and orders from standard input; drop -position and -orders")
	case *batch && *format != "json":
		return fail("-batch writes JSON lines only")
	case *batch:
		return runBatch(stdin, stdout, stderr)
	}
	ph, err := readPhase("adjudicate", *posFile, *ordFile, stdin, stderr)
	if err != nil {
		return fail("%v", err)
	}
	pos, rules, errs := ph.pos, ph.rules, ph.errs
	res := judge.Adjudicate(pos, ph.orders, rules)

	var out bytes.Buffer
	if *format == "text" {
		if err := report.WriteResults(&out, pos, res); err != nil {
			return fail("%v", err)
		}
	} else {
		// One phase is read by people too: indent it. Batch output stays
		// one line per phase.
		out.Write(indentJSON(jsonpos.EncodeResult(pos, res, rules)))
		out.WriteByte('\n')
	}
	if _, err := stdout.Write(out.Bytes()); err != nil {
		return fail("%v", err)
	}
	if len(errs) > 0 {
		return 1
	}
	return 0
}

// indentJSON lays out compact JSON for reading: an object or array that
// holds other objects or arrays gets one member per line, indented by two
// spaces; one that holds only strings stays on one line, so that each unit
// and each order result reads as one line.
func indentJSON(src []byte) []byte {
	// First pass: which containers hold containers.
	nested := map[int]bool{}
	var stack []int
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '"':
			i = skipString(src, i)
		case '{', '[':
			if len(stack) > 0 {
				nested[stack[len(stack)-1]] = true
			}
			stack = append(stack, i)
		case '}', ']':
			stack = stack[:len(stack)-1]
		}
	}
	out := make([]byte, 0, len(src)+len(src)/4)
	var open []bool // for each open container: is it laid out over lines
	newline := func() {
		out = append(out, '\n')
		for range len(open) {
			out = append(out, ' ', ' ')
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '"':
			j := skipString(src, i)
			out = append(out, src[i:j+1]...)
			i = j
			continue
		case '{', '[':
			out = append(out, c)
			broken := nested[i] && src[i+1] != '}' && src[i+1] != ']'
			if broken {
				open = append(open, true)
				newline()
			} else {
				open = append(open, false)
			}
			continue
		case '}', ']':
			broken := open[len(open)-1]
			open = open[:len(open)-1]
			if broken {
				newline()
			}
		}
		out = append(out, c)
		if len(open) > 0 && open[len(open)-1] {
			switch c {
			case ',':
				newline()
			case ':':
				out = append(out, ' ')
			}
		}
	}
	return out
}

// skipString returns the index of the quote that closes the string
// opened at src[i].
func skipString(src []byte, i int) int {
	for i++; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return len(src) - 1
}

// phaseInput is one phase as gmd adjudicate and gmd map read it: the
// position, with the rules it names, and the orders that parsed.
type phaseInput struct {
	pos    *judge.Position
	rules  judge.Rules
	orders []judge.Order
	errs   parser.ErrorList // the order lines that did not parse
}

// readPhase reads the -position and -orders files of gmd cmd, either of
// them "-" for stdin. Order lines that do not parse are reported on
// stderr and dropped, their units left without orders (ph.errs). The
// error, for "gmd cmd: " to start, says why nothing can be done: no
// position, an unreadable file, a malformed position.
func readPhase(cmd, posFile, ordFile string, stdin io.Reader, stderr io.Writer) (*phaseInput, error) {
	switch {
	case posFile == "":
		return nil, fmt.Errorf("-position is required (see gmd %s -h)", cmd)
	case posFile == "-" && ordFile == "-":
		return nil, errors.New("-position and -orders cannot both read standard input")
	}
	posData, err := readInput(posFile, stdin)
	if err != nil {
		return nil, err
	}
	ph := new(phaseInput)
	if ph.pos, ph.rules, err = jsonpos.DecodePosition(posData); err != nil {
		return nil, fmt.Errorf("%s: %v", inputName(posFile), err)
	}
	var src string
	if ordFile != "" {
		b, err := readInput(ordFile, stdin)
		if err != nil {
			return nil, err
		}
		src = string(b)
	}
	ph.orders, ph.errs = parseOrders(ph.pos, src, nil)
	for _, e := range ph.errs {
		fmt.Fprintf(stderr, "%s: %v\n", inputName(ordFile), e)
	}
	return ph, nil
}

func inputName(file string) string {
	if file == "-" {
		return "<stdin>"
	}
	return file
}

func readInput(file string, stdin io.Reader) ([]byte, error) {
	if file == "-" {
		return io.ReadAll(stdin)
	}
	return os.ReadFile(file)
}

// parseOrders reads the orders text of pos's phase, appending to dst.
// Orders name their powers, so none is assumed.
func parseOrders(pos *judge.Position, src string, dst []judge.Order) ([]judge.Order, parser.ErrorList) {
	parsed, errs := parser.ParseOrders(src, parser.Options{Map: pos.Map, Phase: pos.Phase.Type, Power: judge.NoPower})
	for i := range parsed {
		dst = append(dst, parsed[i].Order)
	}
	return dst, errs
}

// maxBatchLine bounds one line of -batch input: a whole game's position
// is a few kilobytes, so this only stops runaway input.
const maxBatchLine = 16 << 20

// A batch is a run of consecutive input lines, the unit of work of
// runBatch: lines are read in batches, adjudicated by several workers at
// once, and written in input order.
type batch struct {
	data   []byte // the lines, back to back
	ends   []int  // end of each line in data
	nums   []int  // each line's number in the input
	out    []byte // the output lines, each ending in a newline
	errs   []byte // what goes to standard error, in line order
	failed bool
	done   chan struct{} // closed when out and errs are ready
}

const (
	batchLines = 64        // lines per batch: enough to make handing over cheap
	batchBytes = 256 << 10 // or fewer, if they are long
)

var batchPool = sync.Pool{New: func() any { return new(batch) }}

// runBatch adjudicates JSON lines from stdin, writing one result line per
// input line, in input order. Phases are independent, so a worker per CPU
// adjudicates batches of lines side by side.
func runBatch(stdin io.Reader, stdout, stderr io.Writer) int {
	workers := runtime.GOMAXPROCS(0)
	jobs := make(chan *batch, workers)
	queue := make(chan *batch, 2*workers) // the same batches, in input order
	quit := make(chan struct{})           // the writer gave up
	var scanErr error
	var scanLine int

	go func() { // the reader
		defer close(queue)
		defer close(jobs)
		sc := bufio.NewScanner(stdin)
		sc.Buffer(make([]byte, 0, 64<<10), maxBatchLine)
		n := 0
		b := newBatch()
		send := func() bool {
			select {
			case queue <- b:
			case <-quit:
				return false
			}
			jobs <- b
			b = newBatch()
			return true
		}
		for sc.Scan() {
			n++
			line := sc.Bytes()
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			b.data = append(b.data, line...)
			b.ends = append(b.ends, len(b.data))
			b.nums = append(b.nums, n)
			if len(b.ends) == batchLines || len(b.data) >= batchBytes {
				if !send() {
					return
				}
			}
		}
		if len(b.ends) > 0 && !send() {
			return
		}
		// Read by the writer only after queue is closed.
		scanErr, scanLine = sc.Err(), n+1
	}()

	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var w batchWorker
			for b := range jobs {
				w.run(b)
				close(b.done)
			}
		}()
	}
	defer wg.Wait()

	w := bufio.NewWriterSize(stdout, 64<<10)
	failed, broken := false, false
	for b := range queue {
		<-b.done
		if !broken {
			stderr.Write(b.errs)
			if _, err := w.Write(b.out); err != nil {
				fmt.Fprintf(stderr, "gmd adjudicate: %v\n", err)
				broken = true
				close(quit) // stop reading; drain what is under way
			}
		}
		failed = failed || b.failed
		batchPool.Put(b)
	}
	if broken {
		return 2
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintf(stderr, "gmd adjudicate: %v\n", err)
		return 2
	}
	if scanErr != nil {
		if errors.Is(scanErr, bufio.ErrTooLong) {
			scanErr = fmt.Errorf("longer than %d MB", maxBatchLine>>20)
		}
		fmt.Fprintf(stderr, "gmd adjudicate: line %d: %v\n", scanLine, scanErr)
		return 2
	}
	if failed {
		return 1
	}
	return 0
}

func newBatch() *batch {
	b := batchPool.Get().(*batch)
	b.data, b.ends, b.nums, b.out, b.errs = b.data[:0], b.ends[:0], b.nums[:0], b.out[:0], b.errs[:0]
	b.failed = false
	b.done = make(chan struct{})
	return b
}

// batchWorker holds one worker's reusable state.
type batchWorker struct {
	dec    jsonpos.Decoder
	orders []judge.Order
}

// run adjudicates every line of b.
func (w *batchWorker) run(b *batch) {
	start := 0
	for i, end := range b.ends {
		if !w.line(b, b.data[start:end], b.nums[i]) {
			b.failed = true
		}
		b.out = append(b.out, '\n')
		start = end
	}
}

// line adjudicates one input line, appending its output line (without the
// newline) to b.out and any order errors to b.errs; it reports whether
// the line was clean.
func (w *batchWorker) line(b *batch, data []byte, n int) (ok bool) {
	start := len(b.out)
	defer func() {
		// One broken phase must not stop a batch of thousands: a panic in
		// the adjudicator becomes that line's error, like a bad input.
		if r := recover(); r != nil {
			b.out = appendError(b.out[:start], fmt.Sprintf("line %d: internal error: %v", n, r))
			w.orders, ok = nil, false
		}
	}()
	pos, rules, src, err := w.dec.Request(data)
	if err != nil {
		b.out = appendError(b.out, fmt.Sprintf("line %d: %v", n, err))
		return false
	}
	var errs parser.ErrorList
	w.orders, errs = parseOrders(pos, src, w.orders[:0])
	for _, e := range errs {
		b.errs = fmt.Appendf(b.errs, "line %d: orders: %v\n", n, e)
	}
	res := judge.Adjudicate(pos, w.orders, rules)
	b.out = jsonpos.AppendResult(b.out, pos, res, rules)
	return len(errs) == 0
}

func appendError(out []byte, msg string) []byte {
	b, _ := json.Marshal(struct {
		Error string `json:"error"`
	}{msg})
	return append(out, b...)
}

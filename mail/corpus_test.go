package mail

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

// The corpus: mails of the shapes the judge meets, one file each in
// testdata/mail at the top of the repository, written in the manner of
// the common clients (Thunderbird, Outlook, Gmail, Apple Mail, phones),
// in every transfer encoding and the usual charsets, and broken in the
// usual ways (missing, doubled or garbled headers, cut-off multiparts,
// undeclared or wrong charsets, 60 levels of nesting). The files have LF
// line ends; each is read as is and with CRLF line ends, the way IMAP
// servers hand mail over. FuzzDecode starts from them, and so do the
// parser's FuzzParseMail and FuzzParseOrders.

// corpusDir is the corpus directory, from this package's directory.
const corpusDir = "../testdata/mail"

// readCorpus returns the corpus mails by file name.
func readCorpus(t testing.TB) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(corpusDir, "*.eml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus in %s: %v", corpusDir, err)
	}
	out := make(map[string][]byte, len(files))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = b
	}
	return out
}

// corpusWant is what each corpus mail decodes to. Every file of the
// corpus must have an entry, so that a new file comes with what it tests.
var corpusWant = map[string]struct {
	err     string   // the error Decode returns, if any (a substring)
	from    string   // In.From
	subject string   // In.Subject
	auto    bool     // In.AutoReply
	body    []string // substrings of In.Body
	notBody []string // what must not be in In.Body (attachments, HTML, the wrong part)
}{
	"apple-mail.eml": {from: "tom@example.co.uk", subject: "Orders – England",
		body: []string{"SIGNON Edt rule-britannia\nF Lon – Nth\nF Edi – Nwg\nA Lvp – Yor\n"}, notBody: []string{"<div>", "&#8211;"}},
	"base64-utf8.eml": {from: "webmail-user@example.com", subject: "Builds 🏰️",
		body: []string{"BUILD F Lon\nBuild A Lvp\nWAIVE\n", "Καλή χρονιά — 新年快乐 — С Новым годом\nENDPRESS\n"}, notBody: []string{"\r"}},
	"bounce-report.eml": {from: "MAILER-DAEMON@mx.example.org", auto: true, subject: "Undelivered Mail Returned to Sender",
		body: []string{"550 5.1.1 User unknown"}, notBody: []string{"Reporting-MTA", "results"}},
	"deep-nesting-60.eml":             {err: "nested deeper than 16 levels"},
	"duplicate-headers.eml":           {from: "dup@example.org", subject: "first subject", body: []string{"HELP\n"}},
	"empty.eml":                       {err: "no valid From address"},
	"forwarded-rfc822.eml":            {from: "fwd@example.org", subject: "Fwd: my orders", body: []string{"SIGNON Tdt bosphorus\nF Ank - Con\n"}, notBody: []string{"not-my-password"}},
	"from-list.eml":                   {from: "first@example.org", subject: "two authors", body: []string{"LIST\n"}},
	"gmail-alternative.eml":           {from: "anna.rossi@gmail.example", subject: "orders", body: []string{"F Nap - Ion\n\nPRESS TO AT\nLepanto? I’m in if you are.\nENDPRESS\n"}, notBody: []string{"<div", "=E2"}},
	"gmail-attachment.eml":            {from: "anna.rossi@gmail.example", subject: "my map, and orders", body: []string{"SIGNON Idt forza-italia\nA Ven H\nA Rom - Apu\nF Nap - Ion\n"}, notBody: []string{"SIGNOFF", "PDF", "<div"}},
	"header-continuation-garbage.eml": {err: "malformed MIME header line"},
	"headers-only.eml":                {from: "headers-only@example.org", subject: "nothing below"},
	"html-only-latin1.eml": {from: "jose.garcia@hotmail.example", subject: "órdenes",
		body:    []string{"SIGNON Rdt tsar-nicholas\nA Mos - Ukr\nA War - Gal\nF Sev - Bla\nF Stp/sc - Bot\n\nPRESS TO T\n¡Hola! Señor Sultán, seré breve: Mar Negro desmilitarizado.\nENDPRESS\n"},
		notBody: []string{"margin", "<div", "=\n"}},
	"long-lines.eml":            {from: "verbose@example.org", body: []string{strings.Repeat("x", 20000) + "\nENDPRESS\n", "F Bre - Mao, A Par - Bur, A Mar S A Par - Bur"}},
	"mobile-plain.eml":          {from: "sam@example.net", subject: "Re: GMD:dt - S1902M Reminder", body: []string{"Signon edt rule-britannia\nf lon-nth\n", "> F Lon - Eng\n"}},
	"multipart-no-boundary.eml": {err: "boundary"},
	"nested-12.eml":             {from: "nested@example.org", subject: "nested", body: []string{"SIGNON Fdt s3cr3t-f\nA Par - Bur\n"}},
	"no-date-no-message-id.eml": {from: "minimal@example.org", subject: "list", body: []string{"LIST\n"}},
	"no-from.eml":               {err: "no valid From address"},
	"not-a-mail.eml":            {err: "mail: "},
	"outlook-alternative.eml": {from: "Robert.Smith@contoso.example", subject: "RE: GMD:dt - F1901M Results",
		body:    []string{"SIGNON Adt habsburg-1867\nA Vie – Gal\nA Bud – Ser\nF Tri – Alb\n\n“Bella gerant alii, tu felix Austria nube.”\n", "-----Original Message-----\n"},
		notBody: []string{"MsoNormal", "\x96"}},
	"outlook-related-attachment.eml": {from: "mehmet@example.com.tr", subject: "Emirler - Türkiye",
		body: []string{"SIGNON Tdt bosphorus\nA Con - Bul\nA Smy - Arm\nF Ank - Bla\n\nSaygılarımla,\n"}, notBody: []string{"MsoNormal", "UEsDB", "iVBOR"}},
	"qp-latin1.eml": {from: "francois@example.fr", subject: "ordres d'été",
		body: []string{"PRESS TO ALL\nUne très longue ligne que le client a coupée avec des sauts de ligne doux, pour que chaque ligne tienne en soixante-seize caractères, comme le veut la norme: café, crème, naïve, à bientôt.\nENDPRESS\n"}},
	"raw-8bit-header.eml": {from: "juergen@example.de", subject: "Befehle für „dt“ \uFFFD", body: []string{"SIGNON Gdt kaiser1914\nA Mun H\n"}},
	"thunderbird-alternative.eml": {from: "karl@example.de", subject: "Befehle / orders",
		body: []string{"SIGNON Gdt kaiser1914\nA Ber - Kie\nA Mun - Ruh\nF Kie - Den\n\nGrüße, Karl\n"}, notBody: []string{"<p>", "This is a multi-part message"}},
	"thunderbird-flowed.eml": {from: "jeanne.martin@example.net", subject: "Re: GMD:dt - S1901M Results",
		body: []string{"SIGNON Fdt s3cr3t-f\nA Par - Bur\nA Mar S A Par - Bur\nF Bre - Mao\n",
			"I will not move there if you don't — promise. Réponse avant vendredi s'il te plaît.\nENDPRESS\n\n-- \nJeanne\n"}},
	"two-from.eml":        {from: "victim@example.org", subject: "orders", body: []string{"SIGNON Fdt guess\n"}},
	"undeclared-8bit.eml": {from: "old-client@example.net", body: []string{"Grüße aus München, „Prosit“!\n"}},
	"unknown-encoding.eml": {from: "enc@example.org", subject: "uuencoded", body: []string{"LIST\n"},
		notBody: []string{"begin 644"}},
	"unterminated-multipart.eml": {from: "cut@example.org", subject: "cut off", body: []string{"SIGNON Fdt s3cr3t-f\nA Par H\n"}, notBody: []string{"preamble"}},
	"utf8-odd-bytes.eml": {from: "odd@example.org",
		// The stray bytes become U+FFFD, and nothing else changes: read as
		// Windows-1252, the byte-order mark would spoil SIGNON.
		body: []string{"\ufeffSIGNON Adt habsburg-1867\nA Vie - Gal\x00\nA Bud \uFFFD- Ser\n"}, notBody: []string{"ï»¿"}},
	"vacation.eml": {from: "away@example.org", auto: true, subject: "Out of office: GMD:dt - S1901M Results", body: []string{"I am away"}},
	"windows-1252-8bit.eml": {from: "pierre@example.fr", subject: "ordres",
		body: []string{"A Par – Bur\nA Mar – Spa\nF Bre – Mao\n\nPRESS TO E\n“Entente cordiale” … coût: 5€.\nENDPRESS\n"}},
}

func TestDecodeCorpus(t *testing.T) {
	corpus := readCorpus(t)
	for name := range corpus {
		if _, ok := corpusWant[name]; !ok {
			t.Errorf("%s: the corpus file has no entry in corpusWant", name)
		}
	}
	for name, want := range corpusWant {
		raw, ok := corpus[name]
		if !ok {
			t.Errorf("%s: no such corpus file", name)
			continue
		}
		for _, form := range []struct {
			name string
			data []byte
		}{{"LF", raw}, {"CRLF", toCRLF(raw)}} {
			in, err := Decode(bytes.NewReader(form.data), 1<<20)
			where := name + " (" + form.name + ")"
			if want.err != "" {
				if err == nil || !strings.Contains(err.Error(), want.err) {
					t.Errorf("%s: error %v, want one with %q", where, err, want.err)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s: %v", where, err)
				continue
			}
			if in.From != want.from {
				t.Errorf("%s: From %q, want %q", where, in.From, want.from)
			}
			if want.subject != "" && in.Subject != want.subject {
				t.Errorf("%s: Subject %q, want %q", where, in.Subject, want.subject)
			}
			if in.AutoReply != want.auto {
				t.Errorf("%s: AutoReply %v (%s), want %v", where, in.AutoReply, in.AutoReason, want.auto)
			}
			for _, s := range want.body {
				if !strings.Contains(in.Body, s) {
					t.Errorf("%s: body lacks %q; body:\n%q", where, s, in.Body)
				}
			}
			for _, s := range want.notBody {
				if strings.Contains(in.Body, s) {
					t.Errorf("%s: body holds %q; body:\n%q", where, s, in.Body)
				}
			}
			checkIncoming(t, form.data, in)
		}
	}
}

// checkIncoming checks what holds of every mail Decode reads, whatever
// the input: headers on one clean line, a body of valid UTF-8 with LF
// line ends, and no larger than the input allows.
func checkIncoming(t *testing.T, data []byte, in *Incoming) {
	t.Helper()
	if in.From == "" || strings.ContainsFunc(in.From+in.Subject+in.MessageID, isControl) {
		t.Fatalf("%.200q: header fields with control characters: %+v", data, in)
	}
	if in.MessageID != "" && !validMsgID(in.MessageID) {
		t.Fatalf("%.200q: bad Message-ID %q", data, in.MessageID)
	}
	if !utf8.ValidString(in.Body) || strings.Contains(in.Body, "\r") {
		t.Fatalf("%.200q: body not UTF-8 with LF line ends: %.200q", data, in.Body)
	}
	// Each input byte gives at most one character of text, and a
	// character of the Basic Multilingual Plane (every single-byte
	// charset maps there, and so does U+FFFD for a stray byte) takes at
	// most 3 bytes of UTF-8; a last line end may be added. Transfer
	// encodings and HTML only shrink the text.
	if limit := 3*len(data) + 1; len(in.Body) > limit {
		t.Fatalf("%.200q: body of %d bytes from an input of %d", data, len(in.Body), len(data))
	}
}

func isControl(r rune) bool { return r < ' ' || r == 0x7f }

// bigMail returns a mail of a little over size bytes: a header, then
// lines of orders and press.
func bigMail(size int) []byte {
	var b bytes.Buffer
	b.WriteString("From: big@example.org\r\nSubject: a very long mail\r\nMessage-ID: <big.1@example.org>\r\n" +
		"Content-Type: text/plain; charset=utf-8\r\n\r\nSIGNON Fdt s3cr3t-f\r\nPRESS TO ALL\r\n")
	line := "A Par - Bur; A Mar S A Par - Bur; F Bre - Mao; Grüße, “quoted” — €\r\n"
	for b.Len() < size {
		b.WriteString(line)
	}
	b.WriteString("ENDPRESS\r\n")
	return b.Bytes()
}

// fuzzing reports whether the test binary runs with -test.fuzz.
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}

// FuzzDecode checks, on any input, that Decode does not panic, that what
// it returns holds what checkIncoming checks, that a limit below the
// size gives ErrTooLarge (with the same header, when there is one) after
// reading the input to its end, and that a limit of exactly the size
// changes nothing.
//
// A crash the fuzzer finds is written by go test to
// testdata/fuzz/FuzzDecode/<hash> in this package's directory, and from
// then on runs as a seed in every go test: commit that file with the fix,
// and the case is tested forever.
func FuzzDecode(f *testing.F) {
	for _, raw := range readCorpus(f) {
		f.Add(raw)
		f.Add(toCRLF(raw))
	}
	if !fuzzing() {
		// A 10 MB mail, made here rather than committed. Only as a seed
		// of go test: the fuzzer would spend its time copying it around.
		f.Add(bigMail(10 << 20))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := Decode(bytes.NewReader(data), 0)
		if errors.Is(err, ErrTooLarge) {
			t.Fatalf("%.200q: ErrTooLarge without a limit", data)
		}
		if err == nil {
			checkIncoming(t, data, in)
		} else if in != nil {
			t.Fatalf("%.200q: an Incoming with the error %v", data, err)
		}

		// Exactly at the limit: the same.
		in2, err2 := Decode(bytes.NewReader(data), int64(len(data)))
		if (err == nil) != (err2 == nil) || err == nil && *in != *in2 {
			t.Fatalf("%.200q: at the limit: %+v, %v; without: %+v, %v", data, in2, err2, in, err)
		}

		// One byte over: ErrTooLarge, the whole input read, and the
		// header only if it is all there.
		if len(data) < 2 {
			return
		}
		r := &countingReader{r: bytes.NewReader(data)}
		in3, err3 := Decode(r, int64(len(data)-1))
		if !errors.Is(err3, ErrTooLarge) {
			t.Fatalf("%.200q: over the limit: error %v, want ErrTooLarge", data, err3)
		}
		if r.n != int64(len(data)) {
			t.Fatalf("%.200q: over the limit: read %d of %d bytes", data, r.n, len(data))
		}
		if in3 != nil {
			if in3.Body != "" {
				t.Fatalf("%.200q: over the limit: a body %q", data, in3.Body)
			}
			if err == nil && (in3.From != in.From || in3.Subject != in.Subject || in3.MessageID != in.MessageID) {
				t.Fatalf("%.200q: over the limit, the header reads %+v; whole, %+v", data, in3, in)
			}
		}
	})
}

// TestDecodeBounded checks the memory a large mail costs: over the
// limit, not much more than the limit, however large the mail; within
// it, a small multiple of its size.
func TestDecodeBounded(t *testing.T) {
	big := bigMail(10 << 20)
	alloc := func(limit int64) (uint64, *Incoming, error) {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		in, err := Decode(bytes.NewReader(big), limit)
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc, in, err
	}
	n, in, err := alloc(1 << 20)
	if !errors.Is(err, ErrTooLarge) || in == nil || in.From != "big@example.org" {
		t.Fatalf("10 MB mail, 1 MB limit: %+v, %v", in, err)
	}
	// Reading up to the limit in a growing buffer costs about twice the
	// limit; reading the whole mail would cost twice its size.
	if n > 8<<20 {
		t.Errorf("10 MB mail, 1 MB limit: %d bytes allocated, want at most 8 MB", n)
	}
	n, in, err = alloc(0)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(in.Body, "“quoted” — €\nENDPRESS\n") {
		t.Errorf("10 MB mail: body ends %q", in.Body[len(in.Body)-50:])
	}
	if n > 12*uint64(len(big)) {
		t.Errorf("10 MB mail, no limit: %d MB allocated for %d MB", n>>20, len(big)>>20)
	}
	t.Logf("10 MB mail, no limit: %d MB allocated", n>>20)
}

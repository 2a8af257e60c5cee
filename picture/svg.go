package picture

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// svgFonts is the font list of every label: the Go fonts the PNG uses,
// then common sans-serif fonts of similar width.
const svgFonts = "Go, 'DejaVu Sans', Verdana, Arial, sans-serif"

// writeSVG writes sc as a standalone SVG document. The output depends
// only on the scene, so the same position gives the same bytes.
func writeSVG(w io.Writer, sc *scene) error {
	b := make([]byte, 0, 64<<10)
	num := func(v float64) { b = appendNum(b, v) }
	b = append(b, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"...)
	b = fmt.Appendf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 `,
		sc.pixels(), int(sc.h/sc.s+0.5))
	num(sc.w)
	b = append(b, ' ')
	num(sc.h)
	b = append(b, `" role="img" aria-labelledby="title desc" font-family="`+svgFonts+`">`+"\n"...)
	b = append(b, `<title id="title">`...)
	b = appendEscaped(b, sc.title)
	b = append(b, "</title>\n<desc id=\"desc\">"...)
	b = appendEscaped(b, sc.desc)
	b = append(b, "</desc>\n"...)

	// Patterns are defined once each, in the order first used.
	var pats []fill
	patID := func(f fill) string {
		for i, p := range pats {
			if p == f {
				return "pat" + strconv.Itoa(i)
			}
		}
		pats = append(pats, f)
		return "pat" + strconv.Itoa(len(pats)-1)
	}
	for i := range sc.elems {
		if f := sc.elems[i].fill; f.pattern != patSolid && f.c.A != 0 {
			patID(f)
		}
	}
	if len(pats) > 0 {
		b = append(b, "<defs>\n"...)
		for i, f := range pats {
			size := patternPeriod * sc.s
			b = fmt.Appendf(b, `<pattern id="pat%d" patternUnits="userSpaceOnUse" width="`, i)
			num(size)
			b = append(b, `" height="`...)
			num(size)
			b = append(b, `"><rect width="`...)
			num(size)
			b = append(b, `" height="`...)
			num(size)
			b = append(b, `" fill="`+hex(f.c)+`"/>`...)
			// The lines are two pixels wide along the tile's left and
			// top edges, as patternInk draws them.
			lw := 2 * sc.s
			z, h := size, sc.s
			var d string
			switch f.pattern {
			case patHatch:
				d = fmt.Sprintf("M%s 0 V%s", fnum(h), fnum(z))
			case patBack:
				d = fmt.Sprintf("M0 %s H%s", fnum(h), fnum(z))
			case patCross:
				d = fmt.Sprintf("M%s 0 V%s M0 %s H%s", fnum(h), fnum(z), fnum(h), fnum(z))
			}
			if d != "" {
				b = fmt.Appendf(b, `<path d="%s" stroke="%s" stroke-width="%s"/>`, d, hex(f.ink), fnum(lw))
			} else {
				b = fmt.Appendf(b, `<circle cx="%s" cy="%s" r="%s" fill="%s"/>`, fnum(z/2), fnum(z/2), fnum(1.4*sc.s), hex(f.ink))
			}
			b = append(b, "</pattern>\n"...)
		}
		b = append(b, "</defs>\n"...)
	}

	group := ""
	for i := range sc.elems {
		e := &sc.elems[i]
		if e.group != group {
			if group != "" {
				b = append(b, "</g>\n"...)
			}
			group = e.group
			b = append(b, `<g class="`...)
			b = appendEscaped(b, group)
			b = append(b, "\">\n"...)
		}
		switch e.kind {
		case kPath:
			b = append(b, `<path d="`...)
			for _, r := range e.rings {
				for j, p := range r {
					if j == 0 {
						b = append(b, 'M')
					} else {
						b = append(b, 'L')
					}
					num(p.X)
					b = append(b, ' ')
					num(p.Y)
				}
				if e.closed {
					b = append(b, 'Z')
				}
			}
			b = append(b, '"')
		case kCircle:
			b = append(b, `<circle cx="`...)
			num(e.c.X)
			b = append(b, `" cy="`...)
			num(e.c.Y)
			b = append(b, `" r="`...)
			num(e.r)
			b = append(b, '"')
		case kText:
			b = append(b, `<text x="`...)
			num(e.c.X)
			b = append(b, `" y="`...)
			num(e.c.Y + textDrop*e.size)
			b = append(b, `" font-size="`...)
			num(e.size)
			b = append(b, '"')
			if e.anchor == 'm' {
				b = append(b, ` text-anchor="middle"`...)
			}
			if e.bold {
				b = append(b, ` font-weight="bold"`...)
			}
		}
		if e.class != "" {
			b = append(b, ` class="`...)
			b = appendEscaped(b, e.class)
			b = append(b, '"')
		}
		switch {
		case e.fill.c.A == 0:
			b = append(b, ` fill="none"`...)
		case e.fill.pattern != patSolid:
			b = append(b, ` fill="url(#`+patID(e.fill)+`)"`...)
		default:
			b = append(b, ` fill="`+hex(e.fill.c)+`"`...)
		}
		stroke, width := e.stroke, e.width
		if e.kind == kText && e.halo.A != 0 {
			stroke, width = e.halo, e.haloW
			b = append(b, ` paint-order="stroke" stroke-linejoin="round"`...)
		}
		if stroke.A != 0 && width > 0 {
			b = append(b, ` stroke="`+hex(stroke)+`" stroke-width="`...)
			num(width)
			b = append(b, '"')
			// An open line has round ends and joins, as the rasteriser
			// draws them, except a dashed one: its dashes end square
			// (butt, SVG's default). Each attribute is written once: a
			// repeated attribute makes the document malformed.
			if e.kind == kPath && !e.closed {
				if len(e.dash) == 0 {
					b = append(b, ` stroke-linecap="round"`...)
				}
				b = append(b, ` stroke-linejoin="round"`...)
			}
			if len(e.dash) > 0 {
				b = append(b, ` stroke-dasharray="`...)
				for j, v := range e.dash {
					if j > 0 {
						b = append(b, ' ')
					}
					num(v)
				}
				b = append(b, '"')
			}
		}
		switch {
		case e.kind == kText:
			b = append(b, '>')
			if e.title != "" {
				b = append(b, "<title>"...)
				b = appendEscaped(b, e.title)
				b = append(b, "</title>"...)
			}
			b = appendEscaped(b, e.text)
			b = append(b, "</text>\n"...)
		case e.title != "":
			b = append(b, "><title>"...)
			b = appendEscaped(b, e.title)
			b = append(b, "</title></"...)
			if e.kind == kCircle {
				b = append(b, "circle>\n"...)
			} else {
				b = append(b, "path>\n"...)
			}
		default:
			b = append(b, "/>\n"...)
		}
	}
	if group != "" {
		b = append(b, "</g>\n"...)
	}
	b = append(b, "</svg>\n"...)
	_, err := w.Write(b)
	return err
}

// textDrop moves a label's baseline below the point it is centred on, so
// that capitals sit in the middle (the same in both backends).
const textDrop = 0.36

// appendNum writes v with at most one decimal, without a trailing ".0".
func appendNum(b []byte, v float64) []byte {
	r := float64(int64(v*10+copysignHalf(v))) / 10
	if r == float64(int64(r)) {
		return strconv.AppendInt(b, int64(r), 10)
	}
	return strconv.AppendFloat(b, r, 'f', 1, 64)
}

func copysignHalf(v float64) float64 {
	if v < 0 {
		return -0.5
	}
	return 0.5
}

func fnum(v float64) string { return string(appendNum(nil, v)) }

// appendEscaped writes s escaped for XML text and attribute values. Names
// come from map files, which may hold any bytes: a byte that is not UTF-8
// becomes U+FFFD, and the characters XML 1.0 forbids (control characters,
// U+FFFE, U+FFFF) are dropped, so the SVG always parses.
func appendEscaped(b []byte, s string) []byte {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || strings.IndexByte(`<>&"'`, c) >= 0 {
			clean = false
			break
		}
	}
	if clean {
		return append(b, s...)
	}
	for _, r := range s { // an invalid byte comes as utf8.RuneError
		switch r {
		case '\t', '\n', '\r':
			b = append(b, ' ')
		case '<':
			b = append(b, "&lt;"...)
		case '>':
			b = append(b, "&gt;"...)
		case '&':
			b = append(b, "&amp;"...)
		case '"':
			b = append(b, "&quot;"...)
		case '\'':
			b = append(b, "&apos;"...)
		default:
			if r >= 0x20 && r != 0xFFFE && r != 0xFFFF {
				b = utf8.AppendRune(b, r)
			}
		}
	}
	return b
}

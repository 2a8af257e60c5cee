package picture

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/draw"
	"io"
	"math"
	"slices"
	"sync"

	"github.com/klauspost/compress/zlib"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// The Go fonts (BSD licence, shipped with golang.org/x/image) are parsed
// once; faces are made per raster (rasterPool), since a face is not safe for
// concurrent use.
var fonts = sync.OnceValues(func() ([2]*opentype.Font, error) {
	r, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return [2]*opentype.Font{}, err
	}
	b, err := opentype.Parse(gobold.TTF)
	return [2]*opentype.Font{r, b}, err
})

var pixPool sync.Pool // of *[]uint8: RGBA pixels of past pictures

// rasterPool keeps the rasters of past pictures with their scratch (the
// rasteriser's accumulator, masks, rows of solid colour, font faces): a
// picture made them afresh for 0.8 MB of garbage on a 1500-pixel board.
// A raster is used by one picture at a time, so its faces may be kept.
var rasterPool = sync.Pool{New: func() any { return &raster{faces: map[faceKey]font.Face{}} }}

// bufPool keeps the buffers a PNG is written into (its compressed data,
// the whole file), grown to a picture's size once rather than for each.
var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// raster draws a scene onto an RGBA image.
type raster struct {
	img   *image.RGBA
	z     vector.Rasterizer
	k     float64 // pixels per map unit
	fonts [2]*opentype.Font
	faces map[faceKey]font.Face
	polys [][]pt  // scratch
	cover []uint8 // scratch: the coverage of one shape
	mask  *image.Alpha
	round *[256]uint8 // how coverage is rounded: coverHalves, coverQuarters (coverWhole for a PNG's halos)
	// rowHalves keeps a half-covered pixel of the shape being drawn half
	// only in a row of them (see rowHalves); set for a PNG's marks at
	// its own size, whose edges the board does not hide.
	rowHalves bool

	rec *[]paintOp // while set, every paint is also kept here

	line  []uint8     // scratch: a row of pixels of one solid colour (composite)
	lineC color.NRGBA // its colour
	lines map[color.NRGBA][]uint8
}

// A paintOp is one coverage mask laid over the picture in one colour of
// its shape: kept from the first picture of a board, and laid again, in
// the colours of the day, over every later one.
type paintOp struct {
	rect  image.Rectangle
	full  bool   // the whole rectangle is covered, and spans is nil
	spans []span // the covered runs of the mask, coverage rounded (raster.round)
	ink   uint8  // which colour of the shape: inkFill, inkStroke, inkHalo
}

// span is a run of covered pixels on row y, from x0 to x1 (exclusive),
// with their coverage, or fully covered when cov is nil: a kept mask
// stores only these, so laying it again skips the empty pixels for free.
type span struct {
	y, x0, x1 int32
	cov       []uint8
}

const (
	inkFill = iota
	inkStroke
	inkHalo
)

// rasterCache holds the paint operations of a board's static shapes
// (elem.static), in order, once a picture has drawn them all: one set per
// rounding of coverage (scene.quarters), since the kept masks are
// rounded.
type rasterCache struct {
	mu  sync.Mutex
	ops [2][][]paintOp // [quarters] per static shape, from index 0 (static 1)
	// rows are the same spans row by row, for each run of consecutive
	// static shapes a scene draws (the board, the labels): made once,
	// from ops, the first time a picture lays that run again.
	rows [2]map[[2]int]*keptRows // [quarters][first, end static]
}

// keptRows are the spans of a run of static shapes, row by row.
type keptRows struct {
	rows [][]rowSpan
	cov  []uint8 // the coverage of every span that has one, end to end
}

// rowSpan is a span of a kept paint operation on a row of keptRows,
// from x0 to x1, with the static shape (from 0) and the colour it is
// painted in; cov is the offset of its coverage in keptRows.cov, or -1
// where it covers its pixels fully. It is half the size of a span, which
// matters on a board of 150,000 of them.
type rowSpan struct {
	x0, x1, static, cov int32
	ink                 uint8
}

// rowsOf returns the spans of the statics first+1 .. end (as ops holds
// them), row by row, each row's in the order they are painted: painting
// rows one after the other paints every pixel in the same order as
// painting the shapes one after the other, and so the same picture.
func (c *rasterCache) rowsOf(quarters bool, ops [][]paintOp, first, end, height int) *keptRows {
	c.mu.Lock()
	defer c.mu.Unlock()
	key := [2]int{first, end}
	if kr, ok := c.rows[b2i(quarters)][key]; ok && len(kr.rows) == height {
		return kr
	}
	kr := &keptRows{rows: make([][]rowSpan, height)}
	for s := first; s < end; s++ {
		for i := range ops[s] {
			op := &ops[s][i]
			if op.full {
				for y := max(op.rect.Min.Y, 0); y < min(op.rect.Max.Y, height); y++ {
					kr.rows[y] = append(kr.rows[y], rowSpan{int32(op.rect.Min.X), int32(op.rect.Max.X), int32(s), -1, op.ink})
				}
				continue
			}
			for _, sp := range op.spans {
				y := int(sp.y)
				if y < 0 || y >= height {
					continue
				}
				rs := rowSpan{sp.x0, sp.x1, int32(s), -1, op.ink}
				if sp.cov != nil {
					rs.cov = int32(len(kr.cov))
					kr.cov = append(kr.cov, sp.cov...)
				}
				kr.rows[y] = append(kr.rows[y], rs)
			}
		}
	}
	for y := range kr.rows {
		kr.rows[y] = slices.Clip(kr.rows[y])
	}
	if c.rows[b2i(quarters)] == nil {
		c.rows[b2i(quarters)] = map[[2]int]*keptRows{}
	}
	c.rows[b2i(quarters)][key] = kr
	return kr
}

func (c *rasterCache) get(quarters bool) [][]paintOp {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ops[b2i(quarters)]
}

func (c *rasterCache) put(quarters bool, ops [][]paintOp) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ops[b2i(quarters)] == nil {
		c.ops[b2i(quarters)] = ops
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

type faceKey struct {
	bold bool
	size int // in tenths of a pixel
}

// MaxPNGBytes is the most a picture from PNG weighs: it goes by mail, to
// every player of a game, each phase (gmd hands it to engine.NewMapRenderer as its limit).
const MaxPNGBytes = 200 << 10

// TargetPNGBytes is what a picture of any board weighs at most with all
// its colours (TestPNGWeight checks every board): a picture is
// compressed harder before it goes over, and only a picture busier than
// any board's games make comes near MaxPNGBytes.
const TargetPNGBytes = 150 << 10

// errTooBusy says that a picture would weigh more than its limit even
// with the fewest colours.
var errTooBusy = errors.New("picture: the PNG is too busy to weigh less than its limit, even with 16 colours")

// writePNG rasterises sc sc.pixels() wide and writes it as a
// paletted PNG of at most MaxPNGBytes (see encodePNG).
func writePNG(w io.Writer, sc *scene) error {
	img, err := rasterise(sc)
	if err != nil {
		return err
	}
	out := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(out)
	_, err = encodeInto(out, img, MaxPNGBytes)
	pixPool.Put(&img.Pix)
	if err != nil {
		return err
	}
	_, err = w.Write(out.Bytes())
	return err
}

// encodePNG encodes img as a paletted PNG of at most limit bytes (see
// encodeInto).
func encodePNG(img *image.RGBA, limit int) ([]byte, error) {
	var out bytes.Buffer
	if _, err := encodeInto(&out, img, limit); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// encoding says how encodeInto wrote a picture: which of pngTries it
// kept, how many of them it wrote, and how many runs of one colour the
// picture has.
type encoding struct {
	try, tries, runs int
}

// encodeInto writes img into out as a paletted PNG of at most limit
// bytes, trying pngTries in turn: the first whose PNG weighs no more
// than its bound is kept; a picture that fits none is errTooBusy.
func encodeInto(out *bytes.Buffer, img *image.RGBA, limit int) (encoding, error) {
	ix := indexedPool.Get().(*indexed)
	defer indexedPool.Put(ix)
	ix.index(img)
	enc := encoding{runs: len(ix.runs)}
	var p *image.Paletted
	last := 0   // the weight of the last try
	wrote := -1 // the try whose PNG out holds
	for i, try := range pngTries {
		if try.maxRuns > 0 && len(ix.runs) > try.maxRuns {
			continue
		}
		within := limit
		if try.target {
			within = min(limit, TargetPNGBytes)
		}
		if try.gain > 0 && last*(100-try.gain) > within*100 {
			continue // it could not take enough off the last try's weight
		}
		if wrote >= 0 && pngTries[wrote].colours == try.colours && pngTries[wrote].level >= try.level {
			// The PNG written already has these colours at this level
			// or a harder one: a try within the limit after those
			// within the target takes it as it is.
			if out.Len() <= within {
				enc.try = wrote
				return enc, nil
			}
			continue
		}
		enc.try, enc.tries, wrote = i, enc.tries+1, i
		if p == nil || len(p.Palette) > try.colours {
			// A try with as many colours as the last writes the same
			// pixels harder.
			p = ix.mapTo(img.Rect, ix.top(try.colours), ix.pix)
			ix.pix = p.Pix
		}
		out.Reset()
		if err := writeIndexed(out, p, try.level); err != nil {
			return enc, err
		}
		if out.Len() <= within {
			return enc, nil
		}
		last = out.Len()
	}
	out.Reset()
	return enc, errTooBusy
}

// pngTries are the palettes and compression levels encodePNG tries, in
// order. The compressor is klauspost/compress's zlib, whose level 6
// weighs what compress/zlib's level 6 does at less than the cost of its
// level 1. Level 5 costs a fifth less than level 6 and weighs 2-7% more:
// it is tried first on a picture of few enough runs of one colour
// (lightRuns) that it fits TargetPNGBytes with room to spare, and a
// busier one starts at level 6, which fits every board's start and
// every picture of its games (TestPNGWeight: the busiest, Twenty
// Twenty's played movement, weighs 145 KB). Level 8, about twice the
// cost of level 6, takes another 2-4% off a picture just over. Past
// the target, a picture busier than any game makes is written at level
// 6 with all its colours up to the limit (the PNG of level 6 or 8
// already written, not written again), then with fewer, at level 9
// (ten times the cost of level 6 for 8%), which only such a picture
// pays. Level 9 with all colours, which World's and Twenty Twenty's
// busiest played movements needed (a quarter of a second each) before
// their marks' edges were rounded (rowHalves), is no longer tried.
var pngTries = []struct {
	colours, level int
	target         bool // within TargetPNGBytes, not only the limit
	maxRuns        int  // tried only on pictures of at most this many runs (0: any)
	// gain is the most, in percent, that this try takes off the weight
	// of the try before it, with a point to spare (level 8 took at most
	// 4.2% off level 6 on the pictures of the test corpus and the
	// played games): a try that could not bring the last weight within
	// its bound is passed over (0: never).
	gain int
}{
	{256, 5, true, lightRuns, 0},
	{256, 6, true, 0, 0},
	{256, 8, true, 0, 5},
	{256, 6, false, 0, 0},
	{64, zlib.BestCompression, false, 0, 0},
	{16, zlib.BestCompression, false, 0, 0},
}

// lightRuns is the most runs of one colour (indexed.runs) a picture may
// have for level 5 to be tried first. A picture weighs at most 1.2
// bytes a run at level 5 on every board (American Empire's start, 94
// KB of 80,500 runs; World's pictures weigh 0.92-1.03 bytes a run,
// patterned fills being runs that cost little), so every picture of at
// most lightRuns runs fits TargetPNGBytes at level 5 (TestPNGWeight
// checks the test corpus and the played games), the level-5 try rarely
// misses, and a miss costs one try. The choice is the picture's own,
// so the same picture is always the same bytes.
const lightRuns = 125_000

// zlibWriters keeps a compressor per level (about a megabyte each) from
// one picture to the next.
var zlibWriters [zlib.BestCompression + 1]sync.Pool

// writeIndexed writes p as a PNG of colour type 3 (8-bit palette indexes),
// its rows unfiltered, as image/png writes a paletted image, compressed
// at zlib's level: image/png offers neither the choice of compressor nor
// levels between its fastest and its default. Row filters would make a
// map heavier: its palette indexes do not vary smoothly along a row.
func writeIndexed(w *bytes.Buffer, p *image.Paletted, level int) error {
	width, height := p.Rect.Dx(), p.Rect.Dy()
	if len(p.Palette) == 0 || len(p.Palette) > 256 || width <= 0 || height <= 0 {
		return errors.New("picture: no paletted picture to write")
	}
	w.WriteString("\x89PNG\r\n\x1a\n")
	var hdr [13]byte
	binary.BigEndian.PutUint32(hdr[0:], uint32(width))
	binary.BigEndian.PutUint32(hdr[4:], uint32(height))
	hdr[8], hdr[9] = 8, 3 // bit depth, colour type; compression, filter and interlace 0
	writeChunk(w, "IHDR", hdr[:])
	pal := make([]byte, 0, 3*len(p.Palette))
	for _, c := range p.Palette {
		r, g, b, _ := c.RGBA()
		pal = append(pal, uint8(r>>8), uint8(g>>8), uint8(b>>8))
	}
	writeChunk(w, "PLTE", pal)
	data := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(data)
	data.Reset()
	z, _ := zlibWriters[level].Get().(*zlib.Writer)
	if z == nil {
		var err error
		if z, err = zlib.NewWriterLevel(data, level); err != nil {
			return err
		}
	} else {
		z.Reset(data)
	}
	defer zlibWriters[level].Put(z)
	row := make([]byte, 1+width) // filter type 0, then the row
	for y := range height {
		copy(row[1:], p.Pix[y*p.Stride:y*p.Stride+width])
		if _, err := z.Write(row); err != nil {
			return err
		}
	}
	if err := z.Close(); err != nil {
		return err
	}
	writeChunk(w, "IDAT", data.Bytes())
	writeChunk(w, "IEND", nil)
	return nil
}

// writeChunk writes one PNG chunk: its length, type, data and CRC.
func writeChunk(w *bytes.Buffer, typ string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	w.Write(n[:])
	crc := crc32.NewIEEE()
	crc.Write([]byte(typ))
	crc.Write(data)
	w.WriteString(typ)
	w.Write(data)
	binary.BigEndian.PutUint32(n[:], crc.Sum32())
	w.Write(n[:])
}

func rasterise(sc *scene) (*image.RGBA, error) {
	fs, err := fonts()
	if err != nil {
		return nil, err
	}
	k := 1 / sc.s
	h := int(math.Ceil(sc.h * k))
	// Its board's width in pixels, or the width of a replay
	// (scaledScene).
	w := min(sc.pixels(), int(math.Round(sc.w*k)))
	// The pixels come from a pool: a fresh 4 MB buffer costs more in page
	// faults than drawing the whole picture's ground, which wipes it.
	n := w * h * 4
	var pix []uint8
	if p, ok := pixPool.Get().(*[]uint8); ok && cap(*p) >= n {
		pix = (*p)[:n]
	} else {
		pix = make([]uint8, n)
	}
	img := &image.RGBA{Pix: pix, Stride: w * 4, Rect: image.Rect(0, 0, w, h)}
	r := rasterPool.Get().(*raster)
	defer rasterPool.Put(r)
	r.img, r.k, r.fonts, r.round, r.rec = img, k, fs, &coverHalves, nil
	// The paper goes only where the first shape, the board's ground,
	// will not cover it: a drawn board's sea is a rectangle over all but
	// the legend, and wiping those pixels twice cost 5% of a picture.
	ground := image.Rectangle{}
	if len(sc.elems) > 0 {
		ground = r.opaqueRect(&sc.elems[0])
	}
	for _, rc := range outside(img.Rect, ground) {
		draw.Draw(img, rc, image.NewUniform(colPaper), image.Point{}, draw.Src)
	}
	if sc.quarters {
		r.round = &coverQuarters
	}
	// The board's shapes are painted from the masks the first picture
	// of the board kept, in this picture's colours: their outlines have
	// thousands of points, and rasterising them is most of the drawing.
	var cached, kept [][]paintOp
	if sc.cache != nil {
		if cached = sc.cache.get(sc.quarters); len(cached) != sc.statics {
			cached, kept = nil, make([][]paintOp, sc.statics)
		}
	}
	for i := 0; i < len(sc.elems); i++ {
		e := &sc.elems[i]
		switch {
		case e.static == 0 || e.static > sc.statics || sc.cache == nil:
			r.draw(e)
		case cached != nil:
			// The run of static shapes that starts here is laid row by
			// row: a shape's spans run down the whole picture, and
			// laying them shape by shape read each row back from memory
			// for every shape that crosses it (a tenth of World's
			// picture, blending edges into rows long out of the cache).
			j := i + 1
			for j < len(sc.elems) && sc.elems[j].static == sc.elems[j-1].static+1 && sc.elems[j].static <= sc.statics {
				j++
			}
			first, end := e.static-1, sc.elems[j-1].static
			r.replayRows(sc.elems[i:j], sc.cache.rowsOf(sc.quarters, cached, first, end, img.Rect.Dy()), first)
			i = j - 1
		default:
			ops := []paintOp{}
			r.rec = &ops
			r.draw(e)
			r.rec = nil
			kept[e.static-1] = ops
		}
	}
	if kept != nil && !slices.ContainsFunc(kept, func(ops []paintOp) bool { return ops == nil }) {
		sc.cache.put(sc.quarters, kept)
	}
	r.img = nil
	return img, nil
}

// opaqueRect is the rectangle of pixels e paints over entirely, as
// fill does without rasterising: a solid, opaque fill of one rectangle
// with whole-pixel corners. It is empty for any other shape.
func (r *raster) opaqueRect(e *elem) image.Rectangle {
	if e.kind != kPath || !e.closed || len(e.rings) != 1 || e.fill.c.A != 0xff || e.fill.pattern != patSolid {
		return image.Rectangle{}
	}
	ring := make([]pt, len(e.rings[0]))
	for i, p := range e.rings[0] {
		ring[i] = r.px(p)
	}
	rc, ok := axisRect([][]pt{ring})
	if !ok {
		return image.Rectangle{}
	}
	return rc.Intersect(r.img.Rect)
}

// outside returns the rectangles of all that lie in all but not in in:
// the bands above and below in, and the sides beside it.
func outside(all, in image.Rectangle) []image.Rectangle {
	in = in.Intersect(all)
	if in.Empty() {
		return []image.Rectangle{all}
	}
	out := make([]image.Rectangle, 0, 4)
	for _, rc := range []image.Rectangle{
		image.Rect(all.Min.X, all.Min.Y, all.Max.X, in.Min.Y),
		image.Rect(all.Min.X, in.Max.Y, all.Max.X, all.Max.Y),
		image.Rect(all.Min.X, in.Min.Y, in.Min.X, in.Max.Y),
		image.Rect(in.Max.X, in.Min.Y, all.Max.X, in.Max.Y),
	} {
		if !rc.Empty() {
			out = append(out, rc)
		}
	}
	return out
}

// keep records a paint operation while a static shape is drawn.
func (r *raster) keep(rect image.Rectangle, mask []uint8, ink uint8) {
	if r.rec == nil {
		return
	}
	op := paintOp{rect: rect, ink: ink, full: mask == nil}
	w := rect.Dx()
	for y := 0; mask != nil && y < rect.Dy(); y++ {
		row := mask[y*w : y*w+w]
		for x := 0; x < w; {
			a := r.round[row[x]]
			if a == 0 {
				x++
				continue
			}
			end := x + 1
			for end < w && (r.round[row[end]] == 0xff) == (a == 0xff) && r.round[row[end]] != 0 {
				end++
			}
			sp := span{y: int32(rect.Min.Y + y), x0: int32(rect.Min.X + x), x1: int32(rect.Min.X + end)}
			if a != 0xff {
				sp.cov = make([]uint8, end-x)
				for i := range sp.cov {
					sp.cov[i] = r.round[row[x+i]]
				}
			}
			op.spans = append(op.spans, sp)
			x = end
		}
	}
	*r.rec = append(*r.rec, op)
}

// replayRows paints the kept spans of the static shapes elems (the
// first of them static number first+1, the rest in turn), row by row,
// each in its shape's colours.
func (r *raster) replayRows(elems []elem, kr *keptRows, first int) {
	// The fills of each shape's inks, and a row of each solid colour.
	fills := make([]fill, 3*len(elems))
	lines := make([][]uint8, 3*len(elems))
	for i := range elems {
		e := &elems[i]
		fills[3*i+inkFill] = e.fill
		fills[3*i+inkStroke] = fill{c: e.stroke}
		fills[3*i+inkHalo] = fill{c: e.halo}
		for k := 3 * i; k < 3*i+3; k++ {
			if f := fills[k]; f.c.A != 0 && f.pattern == patSolid {
				r.solidLine(f.c, r.img.Rect.Dx())
				lines[k] = r.line
			}
		}
	}
	for y, row := range kr.rows {
		for i := range row {
			rs := &row[i]
			k := 3*(int(rs.static)-first) + int(rs.ink)
			f := fills[k]
			if f.c.A == 0 {
				continue
			}
			if rs.cov < 0 && lines[k] != nil {
				pix := r.img.Pix[y*r.img.Stride:]
				copy(pix[4*rs.x0:4*rs.x1], lines[k])
				continue
			}
			sp := span{y: int32(y), x0: rs.x0, x1: rs.x1}
			if rs.cov >= 0 {
				sp.cov = kr.cov[rs.cov : int(rs.cov)+int(rs.x1-rs.x0)]
			}
			r.paintSpan(&sp, f)
		}
	}
}

// paintSpan lays f over one kept span, as composite would.
func (r *raster) paintSpan(sp *span, f fill) {
	row := r.img.Pix[int(sp.y)*r.img.Stride : int(sp.y+1)*r.img.Stride]
	c := f.c
	if sp.cov == nil && f.pattern == patSolid {
		if sp.x1-sp.x0 <= 8 {
			for x := sp.x0; x < sp.x1; x++ {
				d := row[x*4 : x*4+4 : x*4+4]
				d[0], d[1], d[2], d[3] = c.R, c.G, c.B, 0xff
			}
			return
		}
		r.solidLine(c, int(sp.x1-sp.x0))
		copy(row[4*sp.x0:4*sp.x1], r.line)
		return
	}
	for x := sp.x0; x < sp.x1; x++ {
		col := c
		if f.pattern != patSolid && patternInk(f.pattern, int(x), int(sp.y)) {
			col = f.ink
		}
		d := row[x*4 : x*4+4 : x*4+4]
		if sp.cov == nil {
			d[0], d[1], d[2], d[3] = col.R, col.G, col.B, 0xff
			continue
		}
		aa := uint32(sp.cov[x-sp.x0])
		na := 255 - aa
		d[0] = uint8((uint32(col.R)*aa + uint32(d[0])*na + 127) / 255)
		d[1] = uint8((uint32(col.G)*aa + uint32(d[1])*na + 127) / 255)
		d[2] = uint8((uint32(col.B)*aa + uint32(d[2])*na + 127) / 255)
		d[3] = 0xff
	}
}

func (r *raster) px(p pt) pt { return pt{p.X * r.k, p.Y * r.k} }

func (r *raster) draw(e *elem) {
	// The marks of a PNG at its own size keep half-covered edge pixels
	// only in rows of them (rowHalves); a board's shapes are rounded as
	// they are below, and a replay's frames keep their quarters.
	r.rowHalves = r.round == &coverHalves && e.group != gBoard
	defer func() { r.rowHalves = false }()
	switch e.kind {
	case kText:
		r.text(e)
		return
	case kCircle:
		pr := e.r * r.k
		ring := circleRing(r.px(e.c), pr, pr)
		if e.fill.c.A != 0 {
			r.fill([][]pt{ring}, e.fill)
		}
		if e.stroke.A != 0 && e.width > 0 {
			r.stroke([][]pt{ring}, true, e)
		}
	case kPath:
		rings := make([][]pt, len(e.rings))
		for i, ring := range e.rings {
			// Points closer than a pixel to the last one kept add work
			// and nothing that shows: geometry has thousands.
			out := make([]pt, 0, len(ring))
			for j, p := range ring {
				q := r.px(p)
				if n := len(out); n > 0 && j < len(ring)-1 && q.sub(out[n-1]).len() < 0.9 {
					continue
				}
				out = append(out, q)
			}
			rings[i] = out
		}
		if e.closed && e.fill.c.A != 0 {
			r.fill(rings, e.fill)
		}
		if e.stroke.A != 0 && e.width > 0 {
			if e.closed && e.group == gBoard && r.round == &coverHalves {
				// A board's outlines at a picture's own size: see
				// coverOutline.
				r.round = &coverOutline
				defer func() { r.round = &coverHalves }()
			}
			r.stroke(rings, e.closed, e)
		}
	}
}

// fill paints polygons (in pixels) with f, with the nonzero rule.
func (r *raster) fill(polys [][]pt, f fill) {
	if rc, ok := axisRect(polys); ok {
		// A rectangle on the pixel grid (the grounds): no rasterising.
		rc = rc.Intersect(r.img.Bounds())
		r.keep(rc, nil, inkFill)
		r.composite(rc, nil, f)
		return
	}
	r.paint(polys, f, inkFill)
}

// axisRect reports whether polys is one rectangle with whole-pixel
// corners, and returns it.
func axisRect(polys [][]pt) (image.Rectangle, bool) {
	if len(polys) != 1 || len(polys[0]) != 4 {
		return image.Rectangle{}, false
	}
	p := polys[0]
	whole := func(v float64) bool { return math.Abs(v-math.Round(v)) < 1e-6 }
	for _, q := range p {
		if !whole(q.X) || !whole(q.Y) {
			return image.Rectangle{}, false
		}
	}
	if p[0].Y != p[1].Y || p[1].X != p[2].X || p[2].Y != p[3].Y || p[3].X != p[0].X {
		return image.Rectangle{}, false
	}
	b := bounds(p)
	return image.Rect(int(math.Round(b[0])), int(math.Round(b[1])), int(math.Round(b[2])), int(math.Round(b[3]))), true
}

// paint rasterises polygons over their bounding box only, so that a small
// shape costs little on a large picture.
func (r *raster) paint(polys [][]pt, f fill, ink uint8) {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range polys {
		for _, q := range p {
			minX, maxX = math.Min(minX, q.X), math.Max(maxX, q.X)
			minY, maxY = math.Min(minY, q.Y), math.Max(maxY, q.Y)
		}
	}
	rect := image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX))+1, int(math.Ceil(maxY))+1).Intersect(r.img.Bounds())
	if rect.Empty() {
		return
	}
	ox, oy := float64(rect.Min.X), float64(rect.Min.Y)
	w, h := rect.Dx(), rect.Dy()
	r.z.Reset(w, h)
	r.z.DrawOp = draw.Src
	for _, p := range polys {
		if len(p) < 3 {
			continue
		}
		r.z.MoveTo(float32(p[0].X-ox), float32(p[0].Y-oy))
		for _, q := range p[1:] {
			r.z.LineTo(float32(q.X-ox), float32(q.Y-oy))
		}
		r.z.ClosePath()
	}
	// The coverage goes to an alpha mask the size of the box (the
	// rasteriser's fast path), and is then laid over the picture here:
	// most of a box is either empty or fully covered, which this loop
	// skips or copies without arithmetic.
	if cap(r.cover) < w*h {
		r.cover = make([]uint8, w*h)
	}
	mask := &image.Alpha{Pix: r.cover[:w*h], Stride: w, Rect: image.Rect(0, 0, w, h)}
	r.z.Draw(mask, mask.Rect, image.Opaque, image.Point{})
	if r.rowHalves {
		rowHalves(mask.Pix, w, markHalves)
	}
	r.keep(rect, mask.Pix, ink)
	r.composite(rect, mask.Pix, f)
}

// composite lays f over the picture in rect through mask (rect.Dx() by
// rect.Dy() coverage values; nil covers the whole rectangle). Most of a
// mask is either empty or fully covered, which this loop skips or copies
// without arithmetic.
func (r *raster) composite(rect image.Rectangle, mask []uint8, f fill) {
	if f.c.A == 0 {
		return
	}
	w, h := rect.Dx(), rect.Dy()
	c, ink := f.c, f.ink
	solid := f.pattern == patSolid
	// line is a row of the solid colour, copied over runs of full
	// coverage.
	if solid {
		r.solidLine(c, w)
	}
	for y := 0; y < h; y++ {
		dst := r.img.Pix[(rect.Min.Y+y)*r.img.Stride+rect.Min.X*4 : (rect.Min.Y+y)*r.img.Stride+rect.Max.X*4]
		if mask == nil && solid {
			copy(dst, r.line)
			continue
		}
		var row []uint8
		if mask != nil {
			row = mask[y*w : y*w+w]
		}
		for x := 0; x < w; x++ {
			a := uint8(0xff)
			if row != nil {
				if a = r.round[row[x]]; a == 0 {
					continue
				}
				if a == 0xff && solid {
					// A run of full coverage: one copy.
					end := x + 1
					for end < w && row[end] == 0xff {
						end++
					}
					copy(dst[4*x:4*end], r.line)
					x = end - 1
					continue
				}
			}
			col := c
			if !solid && patternInk(f.pattern, rect.Min.X+x, rect.Min.Y+y) {
				col = ink
			}
			d := dst[x*4 : x*4+4 : x*4+4]
			if a == 0xff {
				d[0], d[1], d[2], d[3] = col.R, col.G, col.B, 0xff
				continue
			}
			aa, na := uint32(a), 255-uint32(a)
			d[0] = uint8((uint32(col.R)*aa + uint32(d[0])*na + 127) / 255)
			d[1] = uint8((uint32(col.G)*aa + uint32(d[1])*na + 127) / 255)
			d[2] = uint8((uint32(col.B)*aa + uint32(d[2])*na + 127) / 255)
			d[3] = 0xff
		}
	}
}

// solidLine makes r.line at least w pixels of colour c. The rows of the
// last colours used are kept, since the board's shapes alternate between
// a few colours (a province's fill, its border).
func (r *raster) solidLine(c color.NRGBA, w int) {
	if r.lineC == c && len(r.line) >= 4*w {
		return
	}
	if l, ok := r.lines[c]; ok && len(l) >= 4*w {
		r.line, r.lineC = l, c
		return
	}
	l := make([]uint8, 4*max(w, r.img.Rect.Dx()))
	for x := 0; x < len(l); x += 4 {
		l[x], l[x+1], l[x+2], l[x+3] = c.R, c.G, c.B, 0xff
	}
	if r.lines == nil {
		r.lines = map[color.NRGBA][]uint8{}
	}
	r.lines[c] = l
	r.line, r.lineC = l, c
}

// coverHalves rounds a pixel's coverage to none, half or full: an edge
// still looks smooth at a picture's own size, and its pixels take far
// fewer colours, which is what makes a busy board weigh more as a PNG.
// Quarters weighed a fifth more (World at 1600 pixels: 188 KB against
// 152 for its busiest movement, at level 6) and looked the same but for
// the faintest quarter of a thin line's edge. The thinnest line of a
// picture at its own size is 0.8 pixels, which covers at least a
// quarter of some pixel on every row or column it crosses: it never
// breaks.
var coverHalves = coverLevels(2)

// coverQuarters rounds coverage to quarters, for a replay's frames
// (scene.quarters): a frame drawn narrower than its board may have
// borders a third of a pixel wide, which halves would break into dots.
var coverQuarters = coverLevels(4)

// coverWhole rounds coverage to none or full, for the halos of a PNG's
// labels: a halo only parts the letters from the ground, and its
// half-covered edge pixels weighed 3% of a busy picture (World at 1600
// pixels: 156 against 152 KB).
var coverWhole = coverLevels(1)

// coverOutline rounds coverage to none or full, full from 35% up, for
// the outlines of a board's provinces in a PNG at its own size. Their
// half-covered edge pixels, each a blend of the border and one of many
// fills, weighed 10% of a busy picture (Twenty Twenty's busiest played
// movement at 1700 pixels: 190 against 170 KB at level 6; World's 166
// against 148), and a border drawn in whole pixels tells the same
// provinces apart. The threshold is below a half so that a border 0.8
// pixels wide, which covers at least 40% of some pixel on every row or
// column it crosses, never breaks (TestThinLinesUnbroken).
var coverOutline = func() (t [256]uint8) {
	for i := range t {
		if i*100 >= 35*255 {
			t[i] = 0xff
		}
	}
	return t
}()

// rowHalves rounds to none or full each pixel of mask (w pixels a row)
// that coverHalves makes half-covered, unless it is one of a run of at least
// n half-covered pixels along its row: there a shape's edge runs nearly
// level, and a step of a whole pixel would show. A steeper edge crosses
// each row in fewer half-covered pixels, each a run of its own in the
// PNG, a colour between the mark's and whatever lies under it: rounded,
// the edge steps a pixel at a time, which at a picture's own size looks
// as smooth, and a busy picture weighs a tenth less. Twenty Twenty's
// busiest played movement at 1700 pixels, with the text started on
// whole pixels, weighs at level 6: 162 KB with every half kept; 151
// with the marks' halves kept in runs of 2, 148.5 with the letters'
// too; 144.5 with the marks' in runs of 3 (markHalves: every edge is
// rounded but those within about ten degrees of level, and it still
// looks smooth), 143.5 in runs of 4; 143.3 with the letters' in runs
// of 3 too, which roughens them, where runs of 2 only sharpen their
// upright strokes. World's: 140, and 127.7 as drawn. Such a pixel counts
// as covered from 35%, as an outline's does (coverOutline), so that a
// line 0.8 pixels wide, a fleet's edge, never breaks
// (TestMarkLinesUnbroken).
func rowHalves(mask []uint8, w, n int) {
	half := &halfCovered
	for y := 0; y+w <= len(mask); y += w {
		row := mask[y : y+w]
		for x := 0; x < w; x++ {
			// Most of a mask is empty: eight pixels at a time.
			for x+8 <= w && binary.LittleEndian.Uint64(row[x:]) == 0 {
				x += 8
			}
			if x == w || !half[row[x]] {
				continue
			}
			// A run of half-covered pixels from x to end: rounded
			// in place, since what lies past end is read after.
			end := x + 1
			for end < w && half[row[end]] {
				end++
			}
			if end-x < n {
				for i := x; i < end; i++ {
					if int(row[i])*100 >= 35*255 {
						row[i] = 0xff
					} else {
						row[i] = 0
					}
				}
			}
			x = end - 1
		}
	}
}

// halfCovered says which coverages coverHalves rounds to a half.
var halfCovered = func() (t [256]bool) {
	for v, c := range coverHalves {
		t[v] = c != 0 && c != 0xff
	}
	return t
}()

// markHalves and letterHalves are the runs rowHalves keeps
// half-covered pixels in, for the marks and for letters.
const (
	markHalves   = 3
	letterHalves = 2
)

// coverLevels is the table that rounds a coverage to n+1 levels.
func coverLevels(n int) (t [256]uint8) {
	for i := range t {
		t[i] = uint8((i*n + 127) / 255 * 255 / n)
	}
	return t
}

// stroke draws the outline of rings (closed) or polylines (open) with the
// element's width and dashes, as polygons: a quadrilateral per segment and
// a disc at each sharp corner and at the ends of solid lines, all wound
// the same way so that where they overlap they still paint once.
func (r *raster) stroke(lines [][]pt, closed bool, e *elem) {
	w := e.width * r.k
	var dash []float64
	for _, d := range e.dash {
		dash = append(dash, d*r.k)
	}
	polys := r.polys[:0]
	for _, l := range lines {
		if len(l) < 2 {
			continue
		}
		if closed {
			l = append(append([]pt(nil), l...), l[0])
		}
		pieces := [][]pt{l}
		if len(dash) >= 2 {
			pieces = dashes(l, dash)
		}
		for _, pc := range pieces {
			polys = strokePiece(polys, pc, w, !closed && len(dash) < 2)
		}
	}
	r.polys = polys
	r.paintBatched(polys, fill{c: e.stroke})
}

// paintBatched paints the pieces of a stroke in batches whose bounding box
// stays close to the pieces' own area: a long diagonal arrow would
// otherwise cost the whole rectangle it spans. The pieces are opaque, so
// painting overlapping ones in two batches looks the same.
func (r *raster) paintBatched(polys [][]pt, f fill) {
	const ink = inkStroke
	start := 0
	var bb, sum float64
	var box [4]float64
	for i, p := range polys {
		pb := bounds(p)
		area := (pb[2] - pb[0] + 2) * (pb[3] - pb[1] + 2)
		if i == start {
			box, sum = pb, area
			continue
		}
		nb := [4]float64{math.Min(box[0], pb[0]), math.Min(box[1], pb[1]), math.Max(box[2], pb[2]), math.Max(box[3], pb[3])}
		bb = (nb[2] - nb[0] + 2) * (nb[3] - nb[1] + 2)
		if bb > 3*(sum+area)+4096 {
			r.paint(polys[start:i], f, ink)
			start, box, sum = i, pb, area
			continue
		}
		box, sum = nb, sum+area
	}
	if start < len(polys) {
		r.paint(polys[start:], f, ink)
	}
}

func bounds(p []pt) [4]float64 {
	b := [4]float64{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	for _, q := range p {
		b[0], b[1] = math.Min(b[0], q.X), math.Min(b[1], q.Y)
		b[2], b[3] = math.Max(b[2], q.X), math.Max(b[3], q.Y)
	}
	return b
}

// strokePiece appends the polygons of one polyline stroked w wide.
func strokePiece(polys [][]pt, l []pt, w float64, caps bool) [][]pt {
	h := w / 2
	joins := w >= 1.5
	for i := 1; i < len(l); i++ {
		a, b := l[i-1], l[i]
		d := b.sub(a)
		if d.len() == 0 {
			continue
		}
		n := pt{-d.Y, d.X}.unit().mul(h)
		// A long segment is cut into pieces that overlap by a pixel, so
		// that each is rasterised over a small box (see paintBatched)
		// and no seam shows between them.
		parts := int(math.Ceil(d.len() / 48))
		step := d.mul(1 / float64(parts))
		over := d.unit().mul(0.75)
		for j := 0; j < parts; j++ {
			pa, pb := a.add(step.mul(float64(j))), a.add(step.mul(float64(j+1)))
			if j > 0 {
				pa = pa.sub(over)
			}
			if j < parts-1 {
				pb = pb.add(over)
			}
			polys = append(polys, orient([]pt{pa.add(n), pb.add(n), pb.sub(n), pa.sub(n)}))
		}
		if joins && i+1 < len(l) {
			d2 := l[i+1].sub(b)
			if d2.len() > 0 {
				cos := (d.X*d2.X + d.Y*d2.Y) / (d.len() * d2.len())
				if cos < 0.97 {
					polys = append(polys, orient(circleRing(b, h, h)))
				}
			}
		}
	}
	if caps && joins {
		polys = append(polys, orient(circleRing(l[0], h, h)), orient(circleRing(l[len(l)-1], h, h)))
	}
	return polys
}

// orient returns p wound clockwise on screen, so that all stroke pieces
// add up instead of cancelling.
func orient(p []pt) []pt {
	var a float64
	for i := range p {
		q := p[(i+1)%len(p)]
		a += p[i].X*q.Y - q.X*p[i].Y
	}
	if a < 0 {
		for i, j := 0, len(p)-1; i < j; i, j = i+1, j-1 {
			p[i], p[j] = p[j], p[i]
		}
	}
	return p
}

// dashes cuts a polyline into the "on" pieces of the dash pattern.
func dashes(l []pt, pattern []float64) [][]pt {
	var out [][]pt
	idx, left, on := 0, pattern[0], true
	cur := []pt{l[0]}
	for i := 1; i < len(l); i++ {
		a, b := l[i-1], l[i]
		seg := b.sub(a).len()
		pos := 0.0
		for seg-pos > left {
			pos += left
			p := a.lerp(b, pos/seg)
			if on {
				out = append(out, append(cur, p))
			}
			cur = []pt{p}
			on = !on
			idx = (idx + 1) % len(pattern)
			left = pattern[idx]
		}
		left -= seg - pos
		cur = append(cur, b)
	}
	if on && len(cur) >= 2 {
		out = append(out, cur)
	}
	return out
}

// patternInk reports whether pixel x, y of a hatched fill is ink (its
// power's colour) rather than ground: lines two pixels wide or dots,
// repeating every patternPeriod pixels.
func patternInk(pattern, x, y int) bool {
	const mask = patternPeriod - 1
	x, y = x&mask, y&mask
	switch pattern {
	case patHatch:
		return x < 2
	case patBack:
		return y < 2
	case patCross:
		return x < 2 || y < 2
	case patDots:
		return (x == 3 || x == 4) && (y == 3 || y == 4)
	}
	return false
}

func (r *raster) face(bold bool, size float64) font.Face {
	key := faceKey{bold, int(size*10 + 0.5)}
	if f, ok := r.faces[key]; ok {
		return f
	}
	i := 0
	if bold {
		i = 1
	}
	f, err := opentype.NewFace(r.fonts[i], &opentype.FaceOptions{Size: float64(key.size) / 10, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil
	}
	r.faces[key] = f
	return f
}

// text draws a label: the glyphs are drawn once into a mask, which, grown
// by the halo's width, also paints the halo.
func (r *raster) text(e *elem) {
	size := e.size * r.k
	f := r.face(e.bold, size)
	if f == nil || e.text == "" {
		return
	}
	adv := font.MeasureString(f, e.text)
	x := e.c.X * r.k
	if e.anchor == 'm' {
		x -= float64(adv) / 64 / 2
	}
	y := (e.c.Y + textDrop*e.size) * r.k
	// The text starts on a whole pixel: every "e" of a size is then the
	// same pixels, which deflate finds again, and a label moves by half
	// a pixel at most.
	x, y = math.Round(x), math.Round(y)
	halo := 0
	if e.halo.A != 0 {
		halo = int(math.Ceil(e.haloW * r.k / 2))
	}
	m := f.Metrics()
	pad := halo + 2
	x0, y0 := int(math.Floor(x))-pad, int(math.Floor(y-float64(m.Ascent)/64))-pad
	w := int(math.Ceil(float64(adv)/64)) + 2*pad + 2
	h := int(math.Ceil(float64(m.Ascent+m.Descent)/64)) + 2*pad + 2
	box := image.Rect(x0, y0, x0+w, y0+h)
	if r.mask == nil || r.mask.Rect.Dx() < w || r.mask.Rect.Dy() < h {
		r.mask = image.NewAlpha(image.Rect(0, 0, max(w, 256), max(h, 64)))
	}
	mask := r.mask.SubImage(image.Rect(0, 0, w, h)).(*image.Alpha)
	for i := range mask.Rect.Dy() {
		clear(mask.Pix[i*mask.Stride : i*mask.Stride+w])
	}
	dr := font.Drawer{Dst: mask, Src: image.Opaque, Face: f,
		Dot: fixed.Point26_6{X: fixed.Int26_6((x - float64(x0)) * 64), Y: fixed.Int26_6((y - float64(y0)) * 64)}}
	dr.DrawString(e.text)
	// The box, and the masks with it, are cut to the picture: a label
	// at the edge draws its part that shows.
	vis := box.Intersect(r.img.Bounds())
	if vis.Empty() {
		return
	}
	cut := func(m *image.Alpha) []uint8 {
		out := make([]uint8, 0, vis.Dx()*vis.Dy())
		for y := vis.Min.Y; y < vis.Max.Y; y++ {
			i := (y-box.Min.Y)*m.Stride + vis.Min.X - box.Min.X
			out = append(out, m.Pix[i:i+vis.Dx()]...)
		}
		return out
	}
	if halo > 0 {
		grown := cut(dilate(mask, halo))
		// A halo's edge is rounded to whole pixels in a PNG (coverWhole):
		// it only parts the letters from the ground.
		round := r.round
		if round == &coverHalves {
			r.round = &coverWhole
		}
		r.keep(vis, grown, inkHalo)
		r.composite(vis, grown, fill{c: e.halo})
		r.round = round
	}
	glyphs := cut(mask)
	if r.round == &coverHalves {
		// Letters at a PNG's own size: see rowHalves.
		rowHalves(glyphs, vis.Dx(), letterHalves)
	}
	r.keep(vis, glyphs, inkFill)
	r.composite(vis, glyphs, e.fill)
}

// dilate returns m grown by rad pixels (a round brush), for text halos.
func dilate(m *image.Alpha, rad int) *image.Alpha {
	b := m.Bounds()
	out := image.NewAlpha(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			a := m.Pix[y*m.Stride+x]
			if a == 0 {
				continue
			}
			for dy := -rad; dy <= rad; dy++ {
				yy := y + dy
				if yy < 0 || yy >= b.Dy() {
					continue
				}
				for dx := -rad; dx <= rad; dx++ {
					xx := x + dx
					if xx < 0 || xx >= b.Dx() || dx*dx+dy*dy > rad*rad+rad {
						continue
					}
					if o := &out.Pix[yy*out.Stride+xx]; *o < a {
						*o = a
					}
				}
			}
		}
	}
	return out
}

// colourTable numbers the colours of a picture: an open-addressing hash
// table from 24-bit colour to its number plus one (0: not yet met), far
// cheaper per pixel than a Go map. Keys are stored plus one, so that 0
// marks an empty slot.
type colourTable struct {
	keys []uint32
	vals []int32
	n    int
}

func (t *colourTable) reset() {
	if t.keys == nil {
		t.keys, t.vals = make([]uint32, 1<<15), make([]int32, 1<<15)
	}
	clear(t.keys)
	t.n = 0
}

// slot returns the index of c's slot, adding c with value 0 if absent.
func (t *colourTable) slot(c uint32) int {
	mask := uint32(len(t.keys) - 1)
	k := c + 1
	i := (c * 0x9E3779B1) >> 7 & mask
	for {
		switch t.keys[i] {
		case k:
			return int(i)
		case 0:
			if 4*(t.n+1) > 3*len(t.keys) {
				t.grow()
				return t.slot(c)
			}
			t.keys[i], t.vals[i] = k, 0
			t.n++
			return int(i)
		}
		i = (i + 1) & mask
	}
}

func (t *colourTable) grow() {
	keys, vals := t.keys, t.vals
	t.keys, t.vals, t.n = make([]uint32, 2*len(keys)), make([]int32, 2*len(keys)), 0
	for i, k := range keys {
		if k != 0 {
			t.vals[t.slot(k-1)] = vals[i]
		}
	}
}

// indexed is a picture as colour numbers: its pixels as runs of one
// colour, each colour numbered in the order it was first met, with how
// many pixels have it. Made once per picture, it serves every palette
// size encodePNG tries; a map is mostly flat areas, so it has far fewer
// runs than pixels, and each palette is then written a run at a time.
type indexed struct {
	runs   []colourRun
	cols   []uint32 // per number: R | G<<8 | B<<16
	counts []int32  // per number: how many pixels
	table  colourTable
	// pix is encodePNG's paletted pixels, kept for the next picture: a
	// fresh buffer (2.3 MB at 1600 pixels) costs its clearing and page
	// faults.
	pix []uint8
}

// colourRun is the pixels before end (an index into the picture's pixels,
// row after row) from the previous run's end, all of colour number id.
type colourRun struct {
	end int32
	id  uint16
}

var indexedPool = sync.Pool{New: func() any { return &indexed{} }}

// maxIDs is how many colours indexed numbers; a picture with more is
// numbered again with 5 bits a channel (at most 32768 colours), which
// only a picture far busier than any board makes needs.
const maxIDs = 1 << 16

// index numbers the colours of img (see indexed).
func (ix *indexed) index(img *image.RGBA) {
	for _, keep := range []uint32{0xffffff, 0xf8f8f8} {
		if ix.number(img.Pix, keep) {
			return
		}
	}
}

// number is one try of index, with the colour bits keep; it reports
// false when the picture has more than maxIDs colours so. A run is
// followed two pixels (eight bytes) at a time, and the table is looked
// up only where the colour changes.
func (ix *indexed) number(pix []uint8, keep uint32) bool {
	t := &ix.table
	t.reset()
	ix.cols, ix.counts, ix.runs = ix.cols[:0], ix.counts[:0], ix.runs[:0]
	n := len(pix) / 4
	for j := 0; j < n; {
		raw := binary.LittleEndian.Uint32(pix[4*j : 4*j+4])
		k := j + 1 + sameRun(pix[4*j+4:], raw)
		s := t.slot(raw & keep)
		if t.vals[s] == 0 {
			if len(ix.cols) == maxIDs {
				return false
			}
			ix.cols = append(ix.cols, raw&keep)
			ix.counts = append(ix.counts, 0)
			t.vals[s] = int32(len(ix.cols))
		}
		id := uint16(t.vals[s] - 1)
		ix.counts[id] += int32(k - j)
		ix.runs = append(ix.runs, colourRun{end: int32(k), id: id})
		j = k
	}
	return true
}

// sameRun counts the pixels at the start of pix (4 bytes each) whose
// bytes are raw's. Four pixels are compared at a time while they can
// be: the slice shrinks as it is read, which spares the bounds checks
// that indexing it would cost on every pixel of a picture.
func sameRun(pix []uint8, raw uint32) int {
	pair := uint64(raw) | uint64(raw)<<32
	p := pix
	for len(p) >= 16 && (binary.LittleEndian.Uint64(p)^pair)|(binary.LittleEndian.Uint64(p[8:])^pair) == 0 {
		p = p[16:]
	}
	for len(p) >= 4 && binary.LittleEndian.Uint32(p) == raw {
		p = p[4:]
	}
	return (len(pix) - len(p)) / 4
}

// paletted is the picture with its (at most) colours most used colours,
// every other colour, the odd antialiased edge pixel, mapped to the
// nearest of them. A flat-coloured map has few colours, so the loss is
// invisible, and the PNG is a third of the RGBA one.
func (ix *indexed) paletted(rect image.Rectangle, colours int) *image.Paletted {
	return ix.mapTo(rect, ix.top(colours), nil)
}

// top returns the (at most) colours most used colours of the picture,
// most used first, as R | G<<8 | B<<16.
func (ix *indexed) top(colours int) []uint32 {
	order := make([]int, len(ix.cols))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		if ix.counts[a] != ix.counts[b] {
			return int(ix.counts[b] - ix.counts[a])
		}
		return int(ix.cols[a]) - int(ix.cols[b])
	})
	if len(order) > colours {
		order = order[:colours]
	}
	pcols := make([]uint32, len(order))
	for i, id := range order {
		pcols[i] = ix.cols[id]
	}
	return pcols
}

// mapTo is the picture with the palette pcols (as top returns them, at
// most 256): each colour of the palette as itself, every other colour as
// the nearest of them. Its pixels are written over dst when it is large
// enough (every pixel is written), else into a new buffer.
func (ix *indexed) mapTo(rect image.Rectangle, pcols []uint32, dst []uint8) *image.Paletted {
	// remap takes a colour's number to its palette index; 0xffff: not
	// in the palette (yet).
	remap := make([]uint16, len(ix.cols))
	for i := range remap {
		remap[i] = 0xffff
	}
	in := make(map[uint32]uint16, len(pcols))
	pal := make(color.Palette, len(pcols))
	for i, c := range pcols {
		pal[i] = color.RGBA{uint8(c), uint8(c >> 8), uint8(c >> 16), 0xff}
		in[c] = uint16(i)
	}
	for id, c := range ix.cols {
		if i, ok := in[c]; ok {
			remap[id] = i
		}
	}
	nearest := func(c uint32) uint16 {
		r, g, b := int(c&0xff), int(c>>8&0xff), int(c>>16)
		best, bd := 0, math.MaxInt
		for i, p := range pcols {
			dr, dg, db := r-int(p&0xff), g-int(p>>8&0xff), b-int(p>>16)
			if d := 3*dr*dr + 4*dg*dg + 2*db*db; d < bd {
				best, bd = i, d
			}
		}
		return uint16(best)
	}
	// Colours outside the palette are looked up by their top 5 bits per
	// channel: the nearest palette colour of the first one met in each
	// such cell serves the whole cell.
	cells := make(map[uint32]uint16)
	for id, c := range ix.cols {
		if remap[id] != 0xffff {
			continue
		}
		cell := c & 0xf8f8f8
		v, ok := cells[cell]
		if !ok {
			v = nearest(c)
			cells[cell] = v
		}
		remap[id] = v
	}
	n := rect.Dx() * rect.Dy()
	if cap(dst) < n {
		dst = make([]uint8, n)
	}
	out := &image.Paletted{Pix: dst[:n], Stride: rect.Dx(), Rect: rect, Palette: pal}
	start := 0
	for _, r := range ix.runs {
		run := out.Pix[start:r.end]
		run[0] = uint8(remap[r.id])
		for f := 1; f < len(run); f *= 2 {
			copy(run[f:], run[:f])
		}
		start = int(r.end)
	}
	return out
}

// quantise turns img into a paletted image of its (at most) colours most
// used colours (see indexed.paletted).
func quantise(img *image.RGBA, colours int) *image.Paletted {
	ix := indexedPool.Get().(*indexed)
	defer indexedPool.Put(ix)
	ix.index(img)
	return ix.paletted(img.Rect, colours)
}

package picture

import (
	"bufio"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
	"sort"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// The Go fonts (BSD licence, shipped with golang.org/x/image) are parsed
// once; faces are made per picture, since a face is not safe for
// concurrent use.
var fonts = sync.OnceValues(func() ([2]*opentype.Font, error) {
	r, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return [2]*opentype.Font{}, err
	}
	b, err := opentype.Parse(gobold.TTF)
	return [2]*opentype.Font{r, b}, err
})

// raster draws a scene onto an RGBA image.
type raster struct {
	img   *image.RGBA
	z     vector.Rasterizer
	k     float64 // pixels per map unit
	fonts [2]*opentype.Font
	faces map[faceKey]font.Face
	polys [][]pt // scratch
	mask  *image.Alpha
}

type faceKey struct {
	bold bool
	size int // in tenths of a pixel
}

// writePNG rasterises sc 1000 pixels wide and writes it as a paletted PNG.
func writePNG(w io.Writer, sc *scene) error {
	img, err := rasterise(sc)
	if err != nil {
		return err
	}
	pal := quantise(img)
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := png.Encoder{CompressionLevel: png.DefaultCompression}
	if err := enc.Encode(bw, pal); err != nil {
		return err
	}
	return bw.Flush()
}

func rasterise(sc *scene) (*image.RGBA, error) {
	fs, err := fonts()
	if err != nil {
		return nil, err
	}
	k := 1 / sc.s
	h := int(math.Ceil(sc.h * k))
	r := &raster{img: image.NewRGBA(image.Rect(0, 0, outputWidth, h)), k: k, fonts: fs, faces: map[faceKey]font.Face{}}
	for i := range sc.elems {
		r.draw(&sc.elems[i])
	}
	for _, f := range r.faces {
		f.Close()
	}
	return r.img, nil
}

func (r *raster) px(p pt) pt { return pt{p.X * r.k, p.Y * r.k} }

func (r *raster) draw(e *elem) {
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
			out := make([]pt, len(ring))
			for j, p := range ring {
				out[j] = r.px(p)
			}
			rings[i] = out
		}
		if e.closed && e.fill.c.A != 0 {
			r.fill(rings, e.fill)
		}
		if e.stroke.A != 0 && e.width > 0 {
			r.stroke(rings, e.closed, e)
		}
	}
}

// fill paints polygons (in pixels) with f, with the nonzero rule.
func (r *raster) fill(polys [][]pt, f fill) {
	var src image.Image = image.NewUniform(f.c)
	if f.pattern != patSolid {
		src = &patternImage{f: f}
	}
	r.paint(polys, src)
}

// paint rasterises polygons over their bounding box only, so that a small
// shape costs little on a large picture.
func (r *raster) paint(polys [][]pt, src image.Image) {
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
	r.z.Reset(rect.Dx(), rect.Dy())
	r.z.DrawOp = draw.Over
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
	r.z.Draw(r.img, rect, src, rect.Min)
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
	r.paint(polys, image.NewUniform(e.stroke))
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
		polys = append(polys, orient([]pt{a.add(n), b.add(n), b.sub(n), a.sub(n)}))
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

// patternImage is the fill of a hatched province: ink lines on the
// colour, repeating every 8 pixels.
type patternImage struct{ f fill }

func (p *patternImage) ColorModel() color.Model { return color.NRGBAModel }
func (p *patternImage) Bounds() image.Rectangle {
	return image.Rect(-1e9, -1e9, 1e9, 1e9)
}
func (p *patternImage) At(x, y int) color.Color {
	x, y = x&7, y&7
	ink := false
	switch p.f.pattern {
	case patHatch:
		ink = (x+y)&7 < 2
	case patBack:
		ink = (x-y)&7 < 2
	case patCross:
		ink = (x+y)&7 < 2 || (x-y)&7 < 2
	case patDots:
		ink = (x == 3 || x == 4) && (y == 3 || y == 4)
	}
	if ink {
		return p.f.ink
	}
	return p.f.c
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
	if halo > 0 {
		grown := dilate(mask, halo)
		draw.DrawMask(r.img, box, image.NewUniform(e.halo), image.Point{}, grown, image.Point{}, draw.Over)
	}
	draw.DrawMask(r.img, box, image.NewUniform(e.fill.c), image.Point{}, mask, image.Point{}, draw.Over)
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

// quantise turns img into a paletted image of its (at most) 256 most used
// colours, mapping every other colour, the odd antialiased edge pixel, to
// the nearest of them. A flat-coloured map has few colours, so the loss is
// invisible, and the PNG is a third of the RGBA one.
func quantise(img *image.RGBA) *image.Paletted {
	counts := map[uint32]int{}
	pix := img.Pix
	last, run := uint32(0), 0
	for i := 0; i < len(pix); i += 4 {
		c := uint32(pix[i])<<16 | uint32(pix[i+1])<<8 | uint32(pix[i+2])
		if c == last && i > 0 {
			run++
			continue
		}
		if i > 0 {
			counts[last] += run
		}
		last, run = c, 1
	}
	counts[last] += run
	cols := make([]uint32, 0, len(counts))
	for c := range counts {
		cols = append(cols, c)
	}
	sort.Slice(cols, func(i, j int) bool {
		if counts[cols[i]] != counts[cols[j]] {
			return counts[cols[i]] > counts[cols[j]]
		}
		return cols[i] < cols[j]
	})
	if len(cols) > 256 {
		cols = cols[:256]
	}
	pal := make(color.Palette, len(cols))
	index := make(map[uint32]uint8, len(counts))
	for i, c := range cols {
		pal[i] = color.RGBA{uint8(c >> 16), uint8(c >> 8), uint8(c), 0xff}
		index[c] = uint8(i)
	}
	nearest := func(c uint32) uint8 {
		r, g, b := int(c>>16), int(c>>8&0xff), int(c&0xff)
		best, bd := 0, math.MaxInt
		for i, p := range cols {
			dr, dg, db := r-int(p>>16), g-int(p>>8&0xff), b-int(p&0xff)
			if d := 3*dr*dr + 4*dg*dg + 2*db*db; d < bd {
				best, bd = i, d
			}
		}
		return uint8(best)
	}
	out := image.NewPaletted(img.Rect, pal)
	lastC, lastI := uint32(1<<31), uint8(0)
	for i, j := 0, 0; i < len(pix); i, j = i+4, j+1 {
		c := uint32(pix[i])<<16 | uint32(pix[i+1])<<8 | uint32(pix[i+2])
		if c != lastC {
			idx, ok := index[c]
			if !ok {
				idx = nearest(c)
				index[c] = idx
			}
			lastC, lastI = c, idx
		}
		out.Pix[j] = lastI
	}
	return out
}

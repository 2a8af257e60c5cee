package picture

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"io"
	"math"
	"strings"

	"github.com/gmdjudge/gmd/internal/length"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/report"
)

// ReplayPhase is one phase of a game for a replay: the position it began
// at and its adjudication (judge.Adjudicate of that position, with the
// phase's orders).
type ReplayPhase struct {
	Pos *judge.Position
	Res *judge.Resolution
}

// ReplayGame is a whole game as Replay draws it.
type ReplayGame struct {
	Name   string          // the game's name, on the title frame
	Phases []ReplayPhase   // every phase played, in order
	Final  *judge.Position // the board after the last phase
	Result string          // the result in words ("Draw between ..."); "" for a game not yet over
}

// Frame delays of a replay, in hundredths of a second (GIF's unit): long
// enough to read a phase's orders, and the last frame, the result, longer.
const (
	ReplayDelay     = 150
	ReplayLastDelay = 600
)

// Replay writes g as an animated GIF: a title frame (the variant and the
// game's name), one frame per phase with its orders and their outcomes,
// the board after the last phase, and a frame with the result and each
// power's centres, so len(g.Phases)+3 frames, each outputWidth pixels
// wide and as high as the tallest picture of the game.
//
// All frames share one palette: the most used colours of the first
// phase's picture, as the PNG's reduction picks them (indexed.top), with
// one transparent colour more; every other colour is drawn as the
// nearest of them. A frame after the first is stored as its difference
// from the frame before (unchanged pixels transparent), which LZW packs
// into little: a phase changes a small part of the board.
func Replay(w io.Writer, g ReplayGame) error {
	anim, err := replayAnim(g, outputWidth)
	if err != nil {
		return err
	}
	return gif.EncodeAll(w, anim)
}

// replayAnim draws g's frames as Replay writes them, width pixels wide:
// outputWidth, or fewer for a replay that must weigh less (ReplayParts).
func replayAnim(g ReplayGame, width int) (*gif.GIF, error) {
	if g.Final == nil || g.Final.Map == nil {
		return nil, errors.New("picture: a replay needs the board after the last phase")
	}
	m := g.Final.Map
	scenes := make([]*scene, 0, len(g.Phases)+1)
	for i, ph := range g.Phases {
		if ph.Pos == nil || ph.Pos.Map != m {
			return nil, fmt.Errorf("picture: phase %d of the replay is not on the game's board", i+1)
		}
		sc, err := sceneOf(ph.Pos, ph.Res)
		if err != nil {
			return nil, err
		}
		scenes = append(scenes, sc)
	}
	last, err := sceneOf(g.Final, nil)
	if err != nil {
		return nil, err
	}
	scenes = append(scenes, last)
	height := 0
	for _, sc := range scenes {
		height = max(height, pixelHeight(sc))
	}
	frame := image.Rect(0, 0, width, height)
	if width != last.pixels() {
		// Every scene drawn width pixels wide (narrower than its
		// board's pictures, for a replay that must weigh less or a
		// board drawn wider than a replay): its shapes rasterised at
		// that size, sharper and lighter than a picture scaled down.
		for i, sc := range scenes {
			scenes[i] = scaledScene(sc, width)
		}
		last = scenes[len(scenes)-1]
		height = 0
		for _, sc := range scenes {
			height = max(height, pixelHeight(sc))
		}
		frame = image.Rect(0, 0, width, height)
	}
	words := &scene{w: last.w, h: float64(height) * last.s, s: last.s, px: last.px}
	title := textScene(words, []textLine{
		{m.Title, 2, true, color.NRGBA{}},
		{"game " + g.Name, 1.4, false, color.NRGBA{}},
		{length.Count(len(g.Phases), "phase"), 1, false, color.NRGBA{}},
	})
	end := textScene(words, resultLines(g))

	var (
		anim gif.GIF
		pal  color.Palette
		prev *image.Paletted
	)
	anim.Config = image.Config{Width: frame.Dx(), Height: frame.Dy()}
	canvas := image.NewRGBA(frame)
	ix := indexedPool.Get().(*indexed)
	defer indexedPool.Put(ix)
	paint := func(sc *scene) error {
		sc.quarters = true
		img, err := rasterise(sc)
		if err != nil {
			return err
		}
		draw.Draw(canvas, frame, image.NewUniform(colPaper), image.Point{}, draw.Src)
		draw.Draw(canvas, img.Rect, img, image.Point{}, draw.Src)
		pixPool.Put(&img.Pix)
		ix.index(canvas)
		return nil
	}
	// The palette comes from the first phase's picture, which has every
	// power's colour and the board's.
	if err := paint(scenes[0]); err != nil {
		return nil, err
	}
	pcols := ix.top(255)
	for _, c := range pcols {
		pal = append(pal, color.RGBA{uint8(c), uint8(c >> 8), uint8(c >> 16), 0xff})
	}
	same := uint8(len(pal))
	pal = append(pal, color.RGBA{}) // transparent: as the frame before
	anim.Config.ColorModel = pal
	add := func(sc *scene, delay int) error {
		if err := paint(sc); err != nil {
			return err
		}
		full := ix.mapTo(frame, pcols, nil)
		full.Palette = pal
		out := full
		if prev != nil {
			out = image.NewPaletted(frame, pal)
			for i, v := range full.Pix {
				if v == prev.Pix[i] {
					v = same
				}
				out.Pix[i] = v
			}
		}
		prev = full
		anim.Image = append(anim.Image, out)
		anim.Delay = append(anim.Delay, delay)
		anim.Disposal = append(anim.Disposal, gif.DisposalNone)
		return nil
	}
	if err := add(title, ReplayDelay); err != nil {
		return nil, err
	}
	for _, sc := range scenes {
		if err := add(sc, ReplayDelay); err != nil {
			return nil, err
		}
	}
	if err := add(end, ReplayLastDelay); err != nil {
		return nil, err
	}
	return &anim, nil
}

// pixelHeight is how many pixels high sc rasterises.
func pixelHeight(sc *scene) int {
	return int(math.Ceil(sc.h * (1 / sc.s)))
}

// textLine is a line of a replay's title or result frame; size is
// relative to the frames' body text.
type textLine struct {
	text string
	size float64
	bold bool
	col  color.NRGBA // a power's colour: a disc of it before the line, which starts at the left third
}

// textScene is a frame of words, the lines centred one under the other,
// of the size of frame.
func textScene(frame *scene, lines []textLine) *scene {
	sc := &scene{w: frame.w, h: frame.h, s: frame.s}
	// The body text is 30 pixels high, smaller where the lines (a
	// board of many powers) would not fit the frame.
	bodySize := func() float64 {
		em := 0.0
		for _, l := range lines {
			em += l.size * 1.6
		}
		return min(30*frame.s, 0.9*frame.h/em)
	}
	// A line too long for the frame (a draw of seven powers) is broken
	// into several, which may make the text smaller, and so no wider.
	lines = wrapLines(lines, bodySize(), 0.9*frame.w)
	body := bodySize()
	em := 0.0
	for _, l := range lines {
		em += l.size * 1.6
	}
	total := body * em
	y := (frame.h - total) / 2
	for _, l := range lines {
		size := body * l.size
		y += size * 1.6
		if l.col == (color.NRGBA{}) {
			sc.add("", elem{kind: kText, c: pt{frame.w / 2, y}, text: l.text, size: size, anchor: 'm', bold: l.bold, fill: fill{c: colInk}})
			continue
		}
		x := frame.w * 0.36
		sc.add("", elem{kind: kCircle, c: pt{x, y - size*0.3}, r: size * 0.45, fill: fill{c: l.col}, stroke: colInk, width: frame.s})
		sc.add("", elem{kind: kText, c: pt{x + size, y}, text: l.text, size: size, anchor: 's', bold: l.bold, fill: fill{c: colInk}})
	}
	return sc
}

// charWidth is about the width of a character of the frames' text, in
// ems: the Go fonts' letters and spaces average half an em, bold ones a
// little more.
const charWidth = 0.6

// wrapLines breaks each centred line of lines that would be wider than
// width (map units) at body size into lines that are not, at spaces.
func wrapLines(lines []textLine, body, width float64) []textLine {
	var out []textLine
	for _, l := range lines {
		most := int(width / (body * l.size * charWidth))
		if l.col != (color.NRGBA{}) || len(l.text) <= most {
			out = append(out, l)
			continue
		}
		line := ""
		for _, w := range strings.Fields(l.text) {
			if line != "" && len(line)+1+len(w) > most {
				out = append(out, textLine{line, l.size, l.bold, l.col})
				line = ""
			}
			if line != "" {
				line += " "
			}
			line += w
		}
		out = append(out, textLine{line, l.size, l.bold, l.col})
	}
	return out
}

// resultLines are the words of a replay's last frame: the result, and each
// power's centres at the end, most first, in its colour.
func resultLines(g ReplayGame) []textLine {
	pos := g.Final
	m := pos.Map
	result := g.Result
	if result == "" {
		result = "The game goes on."
	}
	lines := []textLine{
		{report.PhaseTitle(pos.Phase), 1.2, false, color.NRGBA{}},
		{result, 1.4, true, color.NRGBA{}}, // textScene breaks it if too long (wrapLines)
	}
	counts := make([]int, len(m.Powers))
	for _, p := range pos.CenterList() {
		if o := pos.Centers[p]; int(o) < len(counts) {
			counts[o]++
		}
	}
	styles := boardFor(m).styles()
	order := make([]int, len(m.Powers))
	for i := range order {
		order[i] = i
	}
	sortByCount(order, counts)
	for _, i := range order {
		if counts[i] == 0 {
			continue
		}
		lines = append(lines, textLine{fmt.Sprintf("%s: %s", m.Powers[i].Name, length.Count(counts[i], "centre")), 1, false, styles[i].Unit})
	}
	return lines
}

// sortByCount orders power indexes by their counts, most first, ties in
// map order.
func sortByCount(order, counts []int) {
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && counts[order[j]] > counts[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
}

// scaledScene is sc drawn width pixels wide rather than its own width:
// the same shapes with more (or fewer) map units a pixel. The board's
// shapes kept rasterised (sc.cache) are of its own width, so a scaled
// scene draws them anew.
func scaledScene(sc *scene, width int) *scene {
	out := *sc
	out.s = sc.s * float64(sc.pixels()) / float64(width)
	out.px = width
	out.cache = nil
	return &out
}

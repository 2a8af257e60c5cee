package picture

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/gif"
	"math"
)

// A replay that goes by mail must weigh at most what the judge mails in
// one attachment. ReplayParts fits it: whole when it fits, else drawn
// smaller, else cut into consecutive parts, each a GIF of its own.

// MinReplayWidth is the narrowest a replay is drawn to fit a mail: below
// it the names of the provinces no longer read, and the replay is cut
// into parts instead.
const MinReplayWidth = 600

// ErrReplayTooBig says that a replay does not fit the parts it may take,
// even at MinReplayWidth.
var ErrReplayTooBig = errors.New("picture: the replay is larger than the parts a mail may carry")

// ReplayParts draws g as Replay does and returns it as at most maxParts
// GIFs of at most maxBytes each, which played one after the other show
// the whole game (len(g.Phases)+3 frames in all). It tries, in order:
//
//   - the replay whole, outputWidth pixels wide;
//   - the replay whole, narrower, down to MinReplayWidth (three tries at
//     most): its size goes with its width to a power of about 1.1 (a
//     standard game's is 0.57 of the whole at 600 pixels), so the width
//     is scaled by the ratio of the sizes to the power 0.9;
//   - the narrowest replay drawn, cut into 2, 3, ... maxParts parts of
//     about equal weight, the first frame of each part whole.
//
// It fails with ErrReplayTooBig when none fits. Each try draws the game
// again (about a second for twenty years of the standard map), so the
// caller keeps what it returns: a game's replay is drawn once for all its
// mails.
func ReplayParts(g ReplayGame, maxBytes, maxParts int) ([][]byte, error) {
	if maxBytes <= 0 || maxParts <= 0 {
		return nil, ErrReplayTooBig
	}
	width := outputWidth
	var anim *gif.GIF
	for try := 0; ; try++ {
		var err error
		if anim, err = replayAnim(g, width); err != nil {
			return nil, err
		}
		var b bytes.Buffer
		if err := gif.EncodeAll(&b, anim); err != nil {
			return nil, err
		}
		if b.Len() <= maxBytes {
			return [][]byte{b.Bytes()}, nil
		}
		if width == MinReplayWidth || try == 3 {
			break
		}
		// A little under the estimate, so that one try is enough.
		next := int(float64(width) * math.Pow(float64(maxBytes)/float64(b.Len()), 0.9) * 0.97)
		width = max(MinReplayWidth, min(next, width-1))
	}
	weights := frameWeights(anim)
	for n := 2; n <= maxParts && n <= len(anim.Image); n++ {
		parts, ok, err := splitAnim(anim, weights, n, maxBytes)
		if err != nil {
			return nil, err
		}
		if ok {
			return parts, nil
		}
	}
	return nil, fmt.Errorf("%w: %d frames at %d pixels wide in %d parts of %d bytes", ErrReplayTooBig, len(anim.Image), width, maxParts, maxBytes)
}

// frameWeights is a guess at what each frame of anim weighs in its GIF:
// the pixels it draws (a frame after the first draws only those that
// changed), and the whole frame's for a frame that starts a part.
func frameWeights(anim *gif.GIF) []int {
	out := make([]int, len(anim.Image))
	for i, f := range anim.Image {
		clear := uint8(len(f.Palette) - 1) // the transparent colour, as replayAnim adds it last
		for _, v := range f.Pix {
			if v != clear {
				out[i]++
			}
		}
	}
	return out
}

// splitAnim cuts anim into n parts of about equal weight and encodes
// them; ok is false when one of them is larger than maxBytes.
func splitAnim(anim *gif.GIF, weights []int, n, maxBytes int) (parts [][]byte, ok bool, err error) {
	total := 0
	for _, w := range weights {
		total += w
	}
	// starts[k] is the first frame of part k: where the weight so far
	// passes k/n of the total.
	starts := []int{0}
	sum := 0
	for i, w := range weights {
		if len(starts) < n && i > starts[len(starts)-1] && sum >= total*len(starts)/n {
			starts = append(starts, i)
		}
		sum += w
	}
	starts = append(starts, len(anim.Image))
	canvas := image.NewPaletted(anim.Image[0].Rect, anim.Image[0].Palette)
	clear := uint8(len(canvas.Palette) - 1) // the transparent colour, as replayAnim adds it last
	for k := 0; k+1 < len(starts); k++ {
		part := &gif.GIF{Config: anim.Config}
		for i := starts[k]; i < starts[k+1]; i++ {
			f := anim.Image[i]
			// The canvas is the picture as shown after frame i.
			for j, v := range f.Pix {
				if v != clear {
					canvas.Pix[j] = v
				}
			}
			if i == starts[k] {
				whole := image.NewPaletted(canvas.Rect, canvas.Palette)
				copy(whole.Pix, canvas.Pix)
				f = whole
			}
			part.Image = append(part.Image, f)
			part.Delay = append(part.Delay, anim.Delay[i])
			part.Disposal = append(part.Disposal, anim.Disposal[i])
		}
		var b bytes.Buffer
		if err := gif.EncodeAll(&b, part); err != nil {
			return nil, false, err
		}
		if b.Len() > maxBytes {
			return nil, false, nil
		}
		parts = append(parts, b.Bytes())
	}
	return parts, true, nil
}

package picture

import (
	"bytes"
	"image/png"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/mapgeo"
)

// TestClosedProvinceDrawn: on every board with a province closed in one
// season (Loeb9's Arctic Ocean, frozen in the Fall), a movement picture
// of that season draws it as water (or land) no unit enters, names it
// closed in its title and keys it in the legend; a picture of the other
// season draws it as any sea. The open season is drawn first, so the
// board's cached shapes come from a picture where the province is open:
// the closed picture must still fill it in its own colour.
func TestClosedProvinceDrawn(t *testing.T) {
	racetest.Sequential(t) // single-goroutine drawing and geometry: the plain pass runs it
	boards := 0
	for _, name := range variants.Names() {
		m, err := variants.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		var closed []judge.Loc
		for _, p := range m.Provinces() {
			if m.Locs[p].ClosedIn != 0 {
				closed = append(closed, p)
			}
		}
		if len(closed) == 0 {
			continue
		}
		boards++
		g, drawn := mapgeo.For(m)
		for _, p := range closed {
			info := &m.Locs[p]
			shut := info.ClosedIn
			open := judge.Spring
			if shut == judge.Spring {
				open = judge.Fall
			}
			for _, season := range []judge.Season{open, shut} {
				pos := judge.NewPosition(m, judge.Phase{Season: season, Year: m.StartYear, Type: judge.Movement})
				copy(pos.Centers, m.StartCenters)
				doc, _, _ := parseSVG(t, svgOf(t, pos, nil))
				isClosed := season == shut
				where := name + " " + season.String() + " " + info.Name
				var shape *node
				for i := range doc {
					if doc[i].is("province") && strings.HasPrefix(doc[i].title, info.FullName) {
						shape = &doc[i]
					}
				}
				if shape == nil {
					t.Fatalf("%s: no shape of the province", where)
				}
				if got := shape.is("closed"); got != isClosed {
					t.Errorf("%s: shape classed closed %v, want %v (%v)", where, got, isClosed, shape.class)
				}
				if got := strings.Contains(shape.title, "closed in the "+shut.String()); got != isClosed {
					t.Errorf("%s: title %q", where, shape.title)
				}
				if got := count(doc, "key-closed") > 0; got != isClosed {
					t.Errorf("%s: legend keys the closed province %v, want %v", where, got, isClosed)
				}
				if !drawn {
					continue
				}
				img, err := png.Decode(bytes.NewReader(pngOf(t, pos, nil)))
				if err != nil {
					t.Fatal(err)
				}
				gp, ok := g.Provinces[info.Name]
				if !ok {
					t.Fatalf("%s: not in the geometry", where)
				}
				k := float64(img.Bounds().Dx()) / float64(g.Width)
				r, gr, b, _ := img.At(int(float64(gp.Unit[0])*k), int(float64(gp.Unit[1])*k)).RGBA()
				want := colSea
				if isClosed {
					want = colDeep
					if info.Kind != judge.Sea {
						want = colImpassable
					}
				}
				near := func(a uint32, b uint8) bool { d := int(a>>8) - int(b); return d >= -3 && d <= 3 }
				if !near(r, want.R) || !near(gr, want.G) || !near(b, want.B) {
					t.Errorf("%s: drawn in %02x%02x%02x at its unit point, want %02x%02x%02x", where, r>>8, gr>>8, b>>8, want.R, want.G, want.B)
				}
			}
		}
	}
	if boards == 0 {
		t.Error("no board closes a province: the test reaches nothing (Loeb9 should)")
	}
}

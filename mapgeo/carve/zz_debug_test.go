package carve

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestZZDebugPoints(t *testing.T) {
	seeds := os.Getenv("DBG_SEEDS")
	if seeds == "" {
		return
	}
	c, err := ParseConfig(seeds, os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	fr := newFrame(c)
	fmt.Println("box", fr.w, fr.h)
	for _, p := range strings.Fields(os.Getenv("DBG_PTS")) {
		f := strings.Split(p, ",")
		lon, _ := strconv.ParseFloat(f[0], 64)
		lat, _ := strconv.ParseFloat(f[1], 64)
		x, y := fr.at(c.Proj, LonLat{lon, lat})
		fmt.Printf("%s -> %.0f %.0f\n", p, x, y)
	}
}

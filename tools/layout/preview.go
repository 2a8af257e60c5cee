package main

import (
	"fmt"
	"html"
	"strings"

	"github.com/gmdjudge/gmd/judge"
)

// preview draws a layout as SVG, for a person to judge it: edges, then
// nodes coloured by kind (sea blue, coast green, inland tan, supply
// centres ringed), each labelled with its id.
func preview(m *judge.Map, g *graph, at map[string][2]int, height int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="13">`+"\n", width, height)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	for _, e := range g.edges {
		p, q := at[g.nodes[e[0]].id], at[g.nodes[e[1]].id]
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#999"/>`+"\n", p[0], p[1], q[0], q[1])
	}
	fill := map[judge.Kind]string{judge.Sea: "#9cd3f0", judge.Coast: "#b6dca0", judge.Land: "#e8d3a0"}
	for _, p := range m.Provinces() {
		li := &m.Locs[p]
		xy := at[li.Name]
		stroke := "#555"
		if li.Center {
			stroke = "#c00"
		}
		fmt.Fprintf(&b, `<circle cx="%d" cy="%d" r="17" fill="%s" stroke="%s" stroke-width="2"/>`+"\n", xy[0], xy[1], fill[li.Kind], stroke)
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%s</text>`+"\n", xy[0], xy[1]+5, html.EscapeString(li.Name))
	}
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

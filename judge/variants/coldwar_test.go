package variants_test

import (
	"slices"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// TestColdWar checks cold-war.map against vDiplomacy's definition of the
// variant (variants/ColdWar/install.php and variant.php) and webDiplomacy's
// starting units (classes/adjudicatorPreGame.php). The figures are counted
// there: 90 territories that are not coasts (24 seas, 5 land), 7 of them
// split into 14 coasts; 27 with a centre, 6 of them USSR's and 6 NATO's;
// 278 borders, of which 210 fleets cross and 109 armies cross; 17 centres
// win, and the calendar starts in 1960.
func TestColdWar(t *testing.T) {
	m := loadVariant(t, "cold-war")
	for _, n := range []string{"Cold War", "coldwar", "COLD-WAR", "cold_war"} {
		if m2, err := variants.Load(n); err != nil || m2 != m {
			t.Errorf("Load(%q) = %p, %v; want %p", n, m2, err, m)
		}
	}
	if m.Title != "Cold War" || m.DynamicVictory || m.Construction {
		t.Errorf("title %q, dynamic victory %v, construction %v", m.Title, m.DynamicVictory, m.Construction)
	}
	checkPublishedFigures(t, m, publishedFigures{
		provinces: 90, seas: 24, inland: 5, coastal: 61,
		splitProvinces: 7, coasts: 14,
		centres: 27, homeCentres: 12,
		armyMoves: 2 * 109, fleetMoves: 2 * 210,
		powers: 2, units: 12, victory: 17, start: 1960,
	})
	checkPowerList(t, m, "USSR Soviet U", "NATO NATO N")
	checkHomeCentres(t, m, map[string]string{
		"USSR": "alb hav len mos sha vla",
		"NATO": "aus ist lon los nyk par",
		"":     "ala bra ege egy ind ins irn jap pan sai seo swe tor tun wge",
	})
	checkStartUnits(t, m, map[string]string{
		"USSR": "A mos A sha A vla F alb F hav F len/sc",
		"NATO": "A los A nyk A par F aus F ist F lon",
	})

	checkMap(t, m, mapQuirks{islands: []string{"grd", "hav", "jap", "lon"}})
	checkFleetEdgesAreLandBorders(t, m)
	// London, Havana, Japan and Greenland border no land: armies reach
	// them by convoy only.
	if got := islands(m); !slices.Equal(got, []string{"grd", "hav", "jap", "lon"}) {
		t.Errorf("islands %v, want grd hav jap lon", got)
	}

	// The published rules: the North Sea borders Sweden and Denmark, not the
	// Baltic; Denmark and Sweden border each other; Indonesia is joined by
	// land to Australia and the Philippines; Panama, Egypt and Istanbul are
	// canals; West Canada does not border Greenland.
	checkMoves(t, m, judge.Fleet,
		"nts-swe nts-den bal-swe bal-den swe-den egy-eme egy-red ist-bla ist-eme "+
			"pan-col/nc pan-col/wc pan-cen/ec pan-cen/wc pan-car pan-epa ins-aus ins-phi",
		"nts-bal wca/nc-grd", "")
	checkMoves(t, m, judge.Army, "swe-den ins-aus ins-phi pan-col pan-cen",
		"ins-sea wca-grd hav-flo hav-mex jap-kam jap-vla jap-seo lon-par", "")
	// Where the sources differ (see the file's header): vDiplomacy's borders.
	checkMoves(t, m, judge.Fleet, "lev-red ara-lev", "noy-fin grc-yug nvi-sea nyk-tor", "")
	checkMoves(t, m, judge.Army, "ura-wch ura-pak noy-fin grc-yug nvi-sea ara-lev",
		"sib-afg sib-pak nyk-tor", "")
	checkNeighbourList(t, m, map[string]string{
		"F par/nc": "eat nts spa wge",
		"F par/sc": "ita spa wme",
		"A par":    "ita spa wge",
		"F len/nc": "noy nws ura",
		"F len/sc": "bal ege fin",
		"A len":    "ege fin mos noy ura",
		"F pan":    "car cen/ec cen/wc col/nc col/wc epa",
		"F car":    "cen/ec col/nc flo gom hav mex/ec pan ven wat",
		"A ura":    "afg cau irn len mos pak sib wch",
		"F ins":    "aus bay inc phi scs wpa",
		"A ins":    "aus phi",
		"F nko/ec": "seo soj vla",
		"F nko/wc": "man seo yel",
	})

	// Each power can take a neutral centre in the first year.
	targets := firstYearTargets(m)
	for _, p := range m.Powers {
		if len(targets[p.Name]) == 0 {
			t.Errorf("%s can take no neutral centre in 1960", p.Name)
		}
	}
	if !slices.Contains(targets["NATO"], "wge") || !slices.Contains(targets["USSR"], "ege") {
		t.Errorf("first-year targets %v: want the Germanies among them", targets)
	}
}

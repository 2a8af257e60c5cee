package export

import (
	"testing"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/view"
)

// BenchmarkExport builds and writes the document of a 20-year standard
// game, as gmd export does once it has read the records (issue 26: at
// most 50 ms).
func BenchmarkExport(b *testing.B) {
	g, recs := played(b, "standard", 20)
	press := publicAndPrivate(recs[0].Phase, recs[1].Phase)
	b.ReportAllocs()
	var size int
	for b.Loop() {
		doc, err := Build(g, recs, press, view.Settings{Press: "white"})
		if err != nil {
			b.Fatal(err)
		}
		out, err := Marshal(doc)
		if err != nil {
			b.Fatal(err)
		}
		size = len(out)
	}
	b.ReportMetric(float64(len(recs)), "phases")
	b.ReportMetric(float64(size), "bytes")
}

// BenchmarkImportCheck reads the same document back and re-adjudicates
// every phase, as gmd import does before it stores anything.
func BenchmarkImportCheck(b *testing.B) {
	g, recs := played(b, "standard", 20)
	doc, err := Build(g, recs, nil, view.Settings{})
	if err != nil {
		b.Fatal(err)
	}
	data, err := Marshal(doc)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		doc, err := Unmarshal(data)
		if err != nil {
			b.Fatal(err)
		}
		if err := Check(doc); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExportMILA converts the document of a 20-year standard game to
// MILA's saved-game format and writes it, as gmd export -format mila
// does once it has built the document.
func BenchmarkExportMILA(b *testing.B) {
	doc := gmdDoc(b, "random", "standard", 20, nil)
	b.ReportAllocs()
	var size int
	for b.Loop() {
		mg, err := ToMILA(doc)
		if err != nil {
			b.Fatal(err)
		}
		out, err := MarshalMILA(mg)
		if err != nil {
			b.Fatal(err)
		}
		size = len(out)
	}
	b.ReportMetric(float64(len(doc.Phases)), "phases")
	b.ReportMetric(float64(size), "bytes")
}

// BenchmarkImportMILA reads that MILA game back and plays it again with
// gmd, as gmd import -check does.
func BenchmarkImportMILA(b *testing.B) {
	_, data := toMILA(b, gmdDoc(b, "random", "standard", 20, nil))
	b.ReportAllocs()
	for b.Loop() {
		mg, err := UnmarshalMILA(data)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := FromMILA(mg, "g", judge.DATC30, engine.ResultsText); err != nil {
			b.Fatal(err)
		}
	}
}

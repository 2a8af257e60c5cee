package export

import (
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/judge"
)

// FuzzReadMILA: any bytes read as a MILA saved game give a game or an
// error, never a panic; a game gmd read passes gmd's own check.
func FuzzReadMILA(f *testing.F) {
	f.Add([]byte(milaGame))
	f.Add([]byte(strings.Replace(milaGame, `"A PAR - BUR"`, `"A PAR - BUR VIA"`, 1)))
	f.Add([]byte(strings.Replace(milaGame, `"name":"F1901M","state":{"name":"F1901M"`, `"name":"S1901R","state":{"name":"S1901R"`, 1)))
	f.Add([]byte(`{"id":"x","map":"pure","phases":[{"name":"S1901M","state":{"timestamp":9223372036854775807,"units":{"FRANCE":["A PAR"]}},"orders":{"FRANCE":["A PAR - LON"]}},{"name":"COMPLETED","state":{"units":{"FRANCE":["A LON"]}}}]}`))
	f.Add([]byte(`{"id":"x","map":"standard","phases":[{"name":"F1901R","state":{"units":{"FRANCE":["*A PAR","*F STP/NC"]}},"orders":{"FRANCE":["A PAR R BUR","WAIVE","F STP/NC D"]}},{"name":"W1901A","state":{}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := UnmarshalMILA(data)
		if err != nil {
			return
		}
		doc, err := FromMILA(g, "fuzz", judge.DATC30, engine.ResultsText)
		if err != nil {
			return
		}
		if err := Check(doc); err != nil {
			t.Fatalf("gmd's document of a MILA game fails its own check: %v", err)
		}
		if _, err := Marshal(doc); err != nil {
			t.Fatalf("gmd's document of a MILA game cannot be written: %v", err)
		}
	})
}

// FuzzReadGodip: any text read as a godip game on the pure or standard
// board gives a game or an error, never a panic.
func FuzzReadGodip(f *testing.F) {
	f.Add([]byte(godipSample(f)), false)
	f.Add([]byte("PHASE 1901 Spring Movement\nPOSITIONS\n\tRussia: fleet stp/sc\n\tEngland: army lon\n\tEngland: fleet nth\nORDERS\n\tnth convoy lon move nwy\n\tlon move nwy via convoy\n\tstp/sc move bot\nPHASE 1901 Fall Movement\nPOSITIONS\n\tRussia: fleet bot\n\tEngland: army nwy\n\tEngland: fleet nth\n"), true)
	f.Add([]byte("PHASE 1901 Fall Retreat\nPOSITIONS\n\tFrance: army/dislodged par\n\tFrance: army/dislodged par\nORDERS\n\tpar move bur\n\tremove par\nPHASE 1901 Fall Adjustment\nPOSITIONS\n"), true)
	f.Fuzz(func(t *testing.T, data []byte, standard bool) {
		v := "pure"
		if standard {
			v = "standard"
		}
		doc, err := FromGodip(data, v, "fuzz", judge.DATC30, engine.ResultsText, t0)
		if err != nil {
			return
		}
		if err := Check(doc); err != nil {
			t.Fatalf("gmd's document of a godip game fails its own check: %v", err)
		}
		if _, err := Marshal(doc); err != nil {
			t.Fatalf("gmd's document of a godip game cannot be written: %v", err)
		}
	})
}

// FuzzDetectFormat: any bytes are told apart or refused, never a panic.
func FuzzDetectFormat(f *testing.F) {
	f.Add([]byte(milaGame))
	f.Add([]byte(godipSample(f)))
	f.Add([]byte(`{"format":"gmd-game","version":1}`))
	f.Add([]byte("\ufeff  PHASE "))
	f.Fuzz(func(t *testing.T, data []byte) {
		format, err := DetectFormat(data)
		if (err == nil) == (format == "") {
			t.Fatalf("DetectFormat = %q, %v: want a format or an error", format, err)
		}
	})
}

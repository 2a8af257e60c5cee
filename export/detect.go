package export

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// The formats gmd import reads (and, but for godip's, gmd export writes).
const (
	FormatGMD   = "gmd"   // gmd's own document (Format, Version)
	FormatMILA  = "mila"  // MILA's saved game
	FormatGodip = "godip" // godip's recorded game file
)

// DetectFormat says which of the formats data is in: a JSON object with
// a "format" field is gmd's own, one with "map" and "phases" MILA's, and
// text whose first line starts "PHASE " godip's.
func DetectFormat(data []byte) (string, error) {
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if bytes.HasPrefix(trimmed, []byte("PHASE ")) {
		return FormatGodip, nil
	}
	var head struct {
		Format *string          `json:"format"`
		Map    *string          `json:"map"`
		Phases *json.RawMessage `json:"phases"`
	}
	if err := json.NewDecoder(bytes.NewReader(trimmed)).Decode(&head); err != nil {
		return "", fmt.Errorf("neither a gmd export, a MILA saved game nor a godip game file: %v", err)
	}
	switch {
	case head.Format != nil:
		return FormatGMD, nil
	case head.Map != nil && head.Phases != nil:
		return FormatMILA, nil
	}
	return "", fmt.Errorf("a JSON object that is neither a gmd export (no \"format\") nor a MILA saved game (no \"map\" and \"phases\")")
}

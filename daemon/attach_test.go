package daemon

import (
	"bytes"
	"testing"

	"github.com/gmdjudge/gmd/state"
)

// TestAttachFiles: the files a mail keeps go as they are, after its maps,
// with no drawing.
func TestAttachFiles(t *testing.T) {
	m := &state.OutMail{Files: []state.File{{Name: "dt-master.json", Type: "application/json", Data: []byte("{}")}}}
	if !m.Attaches() {
		t.Fatal("a mail with a file says it attaches nothing")
	}
	atts, err := Maps{}.Attach(m)
	if err != nil || len(atts) != 1 || atts[0].Name != "dt-master.json" || atts[0].ContentType != "application/json" || !bytes.Equal(atts[0].Data, []byte("{}")) {
		t.Errorf("Attach = %+v, %v", atts, err)
	}
}

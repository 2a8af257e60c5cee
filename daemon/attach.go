package daemon

import (
	"errors"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/mail"
	"github.com/gmdjudge/gmd/state"
)

// Maps attaches to the judge's outgoing mails the maps they carry.
type Maps struct {
	Renderer *engine.MapRenderer // draws them, as cmd/gmd wires it
}

// Attach is the mail.Sender's Attach: the pictures of m's maps, each
// "S1901M.png" or "S1901M-after.png" (state.MapRef.Name), and a game's
// replay, "dt.gif" or its parts (engine.MapRenderer.Replay); then its
// files as kept. A map that cannot be drawn is left out, and the error
// says why; the others go.
func (p Maps) Attach(m *state.OutMail) ([]mail.Attachment, error) {
	var atts []mail.Attachment
	var errs []error
	for _, ref := range m.Maps {
		if ref.Replay {
			files, err := p.Renderer.Replay(ref)
			if err != nil {
				errs = append(errs, err)
			}
			for _, f := range files {
				atts = append(atts, mail.Attachment{Name: f.Name, ContentType: f.ContentType, Data: f.Data})
			}
			continue
		}
		png, err := p.Renderer.PNG(ref)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		atts = append(atts, mail.Attachment{Name: ref.Name(), ContentType: "image/png", Data: png})
	}
	for _, f := range m.Files {
		atts = append(atts, mail.Attachment{Name: f.Name, ContentType: f.Type, Data: f.Data})
	}
	return atts, errors.Join(errs...)
}

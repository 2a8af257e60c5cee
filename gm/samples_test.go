package gm

import (
	"testing"

	"github.com/gmdjudge/gmd/templates"
)

// TestTemplateSamples: every built-in template has sample data, and runs
// on it, so that CheckTemplates checks every template an operator may
// replace.
func TestTemplateSamples(t *testing.T) {
	t.Parallel()
	set := templates.Builtin()
	samples := templateSamples()
	for _, name := range set.Names() {
		if len(samples[name]) == 0 {
			t.Errorf("no sample data for %s.tmpl", name)
		}
	}
	for name := range samples {
		if _, _, err := set.Render(name, samples[name][0]); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := CheckTemplates(set); err != nil {
		t.Error(err)
	}
}

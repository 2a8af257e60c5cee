package session

import (
	"reflect"
	"strings"
	"testing"
	"time"

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

// TestTemplatesAgree runs every built-in template on every sample with
// each count in it (every whole-number field, however deep) set to 0, 1
// and 2 in turn, and fails on a count of one with a plural noun ("1
// centres", "1 times late") or a double blank line in what it writes.
func TestTemplatesAgree(t *testing.T) {
	t.Parallel()
	set := templates.Builtin()
	for name, samples := range templateSamples() {
		for i, sample := range samples {
			for _, n := range []int64{0, 1, 2} {
				data := withCounts(sample, n)
				subject, body, err := set.Render(name, data)
				if err != nil {
					t.Errorf("%s sample %d, counts %d: %v", name, i, n, err)
					continue
				}
				if bad := agreementErrors(subject + "\n" + body); len(bad) > 0 {
					t.Errorf("%s sample %d, counts %d: %q in\n%s\n%s", name, i, n, bad, subject, body)
				}
				if strings.Contains(body, "\n\n\n") {
					t.Errorf("%s sample %d, counts %d: a double blank line in\n%s", name, i, n, body)
				}
			}
		}
	}
}

// The check itself finds what it is for, and lets pass what it is not.
func TestAgreementErrors(t *testing.T) {
	for text, want := range map[string]int{
		"1 centres":                          1,
		"Austria: 1 units.":                  1,
		"(1 players)":                        1,
		"1 centre, 21 centres, 1.5 days":     0,
		"Tue Jan 01 2026, 01 hours, 11 days": 0,
		"of whom 1 has joined; 1 is late":    0,
		"waiting 1 days and\n1 hours":        2,
	} {
		if got := agreementErrors(text); len(got) != want {
			t.Errorf("agreementErrors(%q) = %q, want %d", text, got, want)
		}
	}
}

// withCounts returns a copy of v with every settable whole-number field,
// in nested structs, pointers and slices too, set to n.
func withCounts(v any, n int64) any {
	c := reflect.New(reflect.TypeOf(v)).Elem()
	c.Set(reflect.ValueOf(v))
	setCounts(c, n)
	return c.Interface()
}

func setCounts(v reflect.Value, n int64) {
	switch v.Kind() {
	case reflect.Int, reflect.Int64, reflect.Int32:
		if v.CanSet() {
			v.SetInt(n)
		}
	case reflect.Uint, reflect.Uint64, reflect.Uint32:
		if v.CanSet() {
			v.SetUint(uint64(n))
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(time.Time{}) {
			return
		}
		for i := range v.NumField() {
			setCounts(v.Field(i), n)
		}
	case reflect.Pointer:
		if !v.IsNil() && v.CanSet() {
			p := reflect.New(v.Type().Elem())
			p.Elem().Set(v.Elem())
			v.Set(p)
			setCounts(p.Elem(), n)
		}
	case reflect.Slice:
		if !v.IsNil() && v.CanSet() {
			s := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			reflect.Copy(s, v)
			v.Set(s)
			for i := range s.Len() {
				setCounts(s.Index(i), n)
			}
		}
	}
}

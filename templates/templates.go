// Package templates holds the text of every mail gmd sends, as
// text/template files embedded in the binary. An operator can replace any
// of them with a file of the same name in a directory of their own.
//
// Each file NAME.tmpl defines two templates: "subject" and "body". The
// data given to them is documented at the top of each file.
package templates

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/template"
	"time"
)

//go:embed *.tmpl
var builtin embed.FS

// Set is a loaded set of mail templates, safe for concurrent use.
type Set struct {
	byName map[string]*template.Template
}

// Funcs are the functions every template may call.
var Funcs = template.FuncMap{
	"join":  strings.Join,
	"upper": strings.ToUpper,
	"lower": strings.ToLower,
	"title": func(s string) string {
		if s == "" {
			return s
		}
		return strings.ToUpper(s[:1]) + s[1:]
	},
	// date formats a time as the classic judge does, in the given zone:
	// "Tue Jan 06 2004 23:30:00 +0000".
	"date": func(t time.Time, zone string) string {
		loc, err := time.LoadLocation(zone)
		if err != nil || zone == "" {
			loc = time.UTC
		}
		return t.In(loc).Format("Mon Jan 02 2006 15:04:05 -0700")
	},
	// wrap breaks the lines of a text that are longer than LineWidth
	// (see Wrap): for sentences that hold names and dates.
	"wrap": Wrap,
	"indent": func(n int, s string) string {
		pad := strings.Repeat(" ", n)
		return pad + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+pad)
	},
}

// Builtin returns the templates embedded in the binary.
func Builtin() *Set {
	s, err := load(builtin, nil, "")
	if err != nil {
		panic("templates: embedded templates are broken: " + err.Error())
	}
	return s
}

// Load returns the embedded templates with every NAME.tmpl file of dir in
// place of the embedded one of the same name. An empty dir means Builtin.
// A file that does not parse, or whose name is not one of the embedded
// templates' (a misspelt file would never be used), is an error that
// names the file and line. Load does not execute the templates: see
// Check.
func Load(dir string) (*Set, error) {
	if dir == "" {
		return Builtin(), nil
	}
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("templates directory: %w", err)
	}
	return load(builtin, os.DirFS(dir), dir)
}

// load reads the templates of base, then those of override (read from
// the directory dir, which names its files in errors) in their place.
func load(base fs.FS, override fs.FS, dir string) (*Set, error) {
	s := &Set{byName: map[string]*template.Template{}}
	for _, fsys := range []fs.FS{base, override} {
		if fsys == nil {
			continue
		}
		names, err := fs.Glob(fsys, "*.tmpl")
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			path := n
			if fsys == override {
				path = filepath.Join(dir, n)
			}
			name := strings.TrimSuffix(n, ".tmpl")
			if _, ok := s.byName[name]; fsys == override && !ok {
				return nil, fmt.Errorf("%s: gmd sends no mail named %q; the templates are %s", path, name, strings.Join(s.Names(), ", "))
			}
			src, err := fs.ReadFile(fsys, n)
			if err != nil {
				return nil, err
			}
			// The template is named after its file, so that errors in
			// it, when it is parsed and when it is run, read
			// "dir/reply.tmpl:12:5: ...".
			t, err := template.New(path).Funcs(Funcs).Option("missingkey=error").Parse(string(src))
			if err != nil {
				return nil, fileError(err)
			}
			if t.Lookup("subject") == nil || t.Lookup("body") == nil {
				return nil, fmt.Errorf("%s: must define \"subject\" and \"body\"", path)
			}
			s.byName[name] = t
		}
	}
	return s, nil
}

// fileError drops the "template: " that text/template puts before the
// file:line of its errors.
func fileError(err error) error {
	if msg, ok := strings.CutPrefix(err.Error(), "template: "); ok {
		return errors.New(msg)
	}
	return err
}

// Check runs every template that samples has data for, subject and body,
// on each of its samples, and returns the first error, with the file and
// line where it happened: a misspelt field, a function called wrongly.
// Run at start-up with data of every shape the judge sends, it finds
// these mistakes before the first mail needs the template. Branches that
// no sample takes are not checked.
func (s *Set) Check(samples map[string][]any) error {
	for _, name := range s.Names() {
		t := s.byName[name]
		for _, data := range samples[name] {
			for _, part := range []string{"subject", "body"} {
				if err := t.ExecuteTemplate(io.Discard, part, data); err != nil {
					return fileError(err)
				}
			}
		}
	}
	return nil
}

// Names lists the loaded templates.
func (s *Set) Names() []string {
	out := make([]string, 0, len(s.byName))
	for n := range s.byName {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Render executes template name with data and returns the subject (one
// line, spaces trimmed) and the body.
func (s *Set) Render(name string, data any) (subject, body string, err error) {
	t, ok := s.byName[name]
	if !ok {
		return "", "", fmt.Errorf("no mail template %q", name)
	}
	var b bytes.Buffer
	if err := t.ExecuteTemplate(&b, "subject", data); err != nil {
		return "", "", fileError(err)
	}
	subject = strings.Join(strings.Fields(b.String()), " ")
	b.Reset()
	if err := t.ExecuteTemplate(&b, "body", data); err != nil {
		return "", "", fileError(err)
	}
	return subject, b.String(), nil
}

// Dir returns where an operator's override for name would be read from.
func Dir(dir, name string) string { return filepath.Join(dir, name+".tmpl") }

// RenderPart executes the template part defined in the file name.tmpl
// (one that "body" includes, such as help's "orders") with data: a part
// of a mail sent on its own, from the same text. An operator's file that
// does not define part is an error that says so.
func (s *Set) RenderPart(name, part string, data any) (string, error) {
	t, ok := s.byName[name]
	if !ok {
		return "", fmt.Errorf("no mail template %q", name)
	}
	if t.Lookup(part) == nil {
		return "", fmt.Errorf("%s.tmpl defines no part %q", name, part)
	}
	var b bytes.Buffer
	if err := t.ExecuteTemplate(&b, part, data); err != nil {
		return "", fileError(err)
	}
	return b.String(), nil
}

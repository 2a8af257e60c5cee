// Command plainpass lists the tests that scripts/test runs again without
// the race detector: every top-level Test function that uses package
// internal/racetest, directly or through a helper of its own package
// (racetest.Spread thins their walks under -race, racetest.Sequential
// skips them there). Running only these, rather than every package that
// imports racetest in full, keeps the plain pass to the tests that
// differ between the two passes.
//
// Usage, from the repository's top directory:
//
//	go run ./tools/plainpass
//
// It prints one line per package, the package's directory and then a
// go test -run pattern that matches exactly its tests:
//
//	./picture ^(TestPlacement|TestReplayParts)$
//
// The reading is syntactic and errs on the side of running more: a test
// counts when any name it mentions (a function, method, variable or
// type of its package) leads, through more such names, to a mention of
// the imported racetest package.
package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// racetestPath is the import path whose users are listed.
const racetestPath = "github.com/gmdjudge/gmd/internal/racetest"

func main() {
	dirs, err := testDirs(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "plainpass:", err)
		os.Exit(1)
	}
	for _, dir := range dirs {
		tests, err := plainTests(dir)
		if err != nil {
			fmt.Fprintln(os.Stderr, "plainpass:", err)
			os.Exit(1)
		}
		if len(tests) > 0 {
			fmt.Printf("./%s ^(%s)$\n", filepath.ToSlash(dir), strings.Join(tests, "|"))
		}
	}
}

// testDirs returns the directories under root that hold test files, in
// lexical order, leaving out testdata and hidden directories, which go
// test does not read.
func testDirs(root string) ([]string, error) {
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(name, "_test.go") {
			seen[filepath.Dir(path)] = true
		}
		return nil
	})
	dirs := make([]string, 0, len(seen))
	for d := range seen {
		dirs = append(dirs, d)
	}
	slices.Sort(dirs)
	return dirs, err
}

// plainTests returns, sorted, the Test functions of the test files in
// dir (both the package's own and its _test package) that reach
// racetest.
func plainTests(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	// uses maps each top-level name to the names its declaration
	// mentions; direct holds the declarations that mention racetest.
	uses := map[string][]string{}
	direct := map[string]bool{}
	var tests []string
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		local := racetestName(file)
		for _, decl := range file.Decls {
			for _, name := range declNames(decl) {
				mentioned, hit := mentions(decl, local)
				uses[name] = append(uses[name], mentioned...)
				if hit {
					direct[name] = true
				}
				if fn, ok := decl.(*ast.FuncDecl); ok && fn.Recv == nil && isTest(fn.Name.Name) {
					tests = append(tests, fn.Name.Name)
				}
			}
		}
	}
	reaches := map[string]bool{}
	var visit func(name string, path map[string]bool) bool
	visit = func(name string, path map[string]bool) bool {
		if v, ok := reaches[name]; ok {
			return v
		}
		if direct[name] {
			reaches[name] = true
			return true
		}
		if path[name] {
			return false
		}
		path[name] = true
		for _, m := range uses[name] {
			if _, ok := uses[m]; ok && visit(m, path) {
				reaches[name] = true
				return true
			}
		}
		return false
	}
	var out []string
	for _, name := range tests {
		if visit(name, map[string]bool{}) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// isTest reports whether name is a test function's, as go test reads
// it: Test followed by nothing or by a character that is not a
// lower-case letter.
func isTest(name string) bool {
	rest, ok := strings.CutPrefix(name, "Test")
	return ok && (rest == "" || !('a' <= rest[0] && rest[0] <= 'z'))
}

// racetestName returns the name under which file imports racetest, or
// "" when it does not.
func racetestName(file *ast.File) string {
	for _, imp := range file.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil || path != racetestPath {
			continue
		}
		if imp.Name != nil {
			return imp.Name.Name
		}
		return "racetest"
	}
	return ""
}

// declNames returns the top-level names a declaration declares: a
// function's or method's name, or every name of a var, const or type
// declaration.
func declNames(decl ast.Decl) []string {
	switch d := decl.(type) {
	case *ast.FuncDecl:
		return []string{d.Name.Name}
	case *ast.GenDecl:
		var names []string
		for _, spec := range d.Specs {
			switch s := spec.(type) {
			case *ast.ValueSpec:
				for _, n := range s.Names {
					names = append(names, n.Name)
				}
			case *ast.TypeSpec:
				names = append(names, s.Name.Name)
			}
		}
		return names
	}
	return nil
}

// mentions returns every identifier decl mentions (selectors' field and
// method names included), and whether it mentions the package imported
// as local.
func mentions(decl ast.Decl, local string) (names []string, hit bool) {
	ast.Inspect(decl, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok && local != "" && id.Name == local {
				hit = true
			}
		case *ast.Ident:
			names = append(names, x.Name)
		}
		return true
	})
	return names, hit
}

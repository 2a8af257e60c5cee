package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// orderReading is all of package parser the engine may use: the reading
// of stored order lines and of power names. The mail's command language
// (ParseMail, the command table, the SET table) is the session's, so
// that the engine runs a game the same whatever mail language drives it.
// Conditional orders (ParseScript and its helpers) are order text too:
// the engine evaluates those written ahead when their phase begins.
var orderReading = []string{"MatchPower", "Options", "ParseOrders", "ParseScript", "IsControl", "Only", "Branch"}

// TestEngineReadsNoCommands reads the engine's source and fails on any
// name of package parser outside orderReading: the import graph test
// (internal/arch) lets the engine import parser, for orders, and this
// keeps the command table out.
func TestEngineReadsNoCommands(t *testing.T) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	used := 0
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, e.Name(), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		local := ""
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); path == "github.com/gmdjudge/gmd/parser" {
				local = "parser"
				if imp.Name != nil {
					local = imp.Name.Name
				}
			}
		}
		if local == "" {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == local {
				used++
				if !slices.Contains(orderReading, sel.Sel.Name) {
					t.Errorf("%s: the engine uses parser.%s, which is the mail session's", fset.Position(sel.Pos()), sel.Sel.Name)
				}
			}
			return true
		})
	}
	if used == 0 {
		t.Error("found no use of package parser in the engine: the test reads the wrong files")
	}
}

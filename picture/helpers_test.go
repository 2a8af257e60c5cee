package picture

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/parser"
)

// phase reads a position and orders as gmd adjudicate does, and
// adjudicates them.
func phase(t testing.TB, posFile, ordersText string) (*judge.Position, *judge.Resolution) {
	t.Helper()
	data, err := os.ReadFile(posFile)
	if err != nil {
		t.Fatal(err)
	}
	pos, rules, err := jsonpos.DecodePosition(data)
	if err != nil {
		t.Fatal(err)
	}
	return pos, adjudicate(t, pos, rules, ordersText)
}

func adjudicate(t testing.TB, pos *judge.Position, rules judge.Rules, src string) *judge.Resolution {
	t.Helper()
	parsed, errs := parser.ParseOrders(src, parser.Options{Map: pos.Map, Phase: pos.Phase.Type, Power: judge.NoPower})
	if len(errs) > 0 {
		t.Fatalf("orders: %v", errs)
	}
	var orders []judge.Order
	for i := range parsed {
		orders = append(orders, parsed[i].Order)
	}
	return judge.Adjudicate(pos, orders, rules)
}

// s1901 is the standard opening with its 22 orders, adjudicated.
func s1901(t testing.TB) (*judge.Position, *judge.Resolution) {
	t.Helper()
	orders, err := os.ReadFile(filepath.Join("..", "testdata", "s1901", "orders.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return phase(t, filepath.Join("..", "testdata", "s1901", "position.json"), string(orders))
}

// keep writes a rendered picture to $PICTURE_OUT (for looking at it), if set.
func keep(t testing.TB, name string, data []byte) {
	dir := os.Getenv("PICTURE_OUT")
	if dir == "" {
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Error(err)
	}
}

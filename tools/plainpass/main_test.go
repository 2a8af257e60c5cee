package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestPlainTests: a test counts when it mentions racetest itself, under
// its own name or another, or through a chain of its package's helpers,
// methods and variables, in either test package of the directory; a test
// that reaches none of them, a benchmark and a lower-case Testx do not.
func TestPlainTests(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a_test.go": `package p

import (
	"testing"

	"github.com/gmdjudge/gmd/internal/racetest"
)

func TestDirect(t *testing.T) { racetest.Sequential(t) }

func TestPlain(t *testing.T) {}

func Testlower(t *testing.T) { racetest.Sequential(t) }

func BenchmarkX(b *testing.B) { racetest.Sequential(b) }

func boards() []string { return racetest.Spread([]string{"a"}, 2) }

type walker struct{}

func (walker) walk() []string { return boards() }

var everyBoard = walker{}
`,
		"b_test.go": `package p_test

import (
	"testing"

	rt "github.com/gmdjudge/gmd/internal/racetest"
)

func TestAliased(t *testing.T) { _ = rt.Enabled }

func TestThroughHelper(t *testing.T) { _ = boards() }

func TestThroughMethod(t *testing.T) { _ = everyBoard.walk() }

func TestThroughLoop(t *testing.T) { loopA() }

func loopA() { loopB() }

func loopB() { loopA() }
`,
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := plainTests(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"TestAliased", "TestDirect", "TestThroughHelper", "TestThroughMethod"}
	if !slices.Equal(got, want) {
		t.Errorf("plainTests = %v, want %v", got, want)
	}
}

// TestRepositoryLists: in this repository, the packages whose tests
// walk every board are listed, with a test known to use racetest.
func TestRepositoryLists(t *testing.T) {
	tests, err := plainTests(filepath.Join("..", "..", "picture"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(tests, "TestEveryArrowVisible") {
		t.Errorf("picture: %v, want TestEveryArrowVisible among them", tests)
	}
	if slices.Contains(tests, "TestStrictXMLCatches") {
		t.Errorf("picture: %v lists a test that does not use racetest", tests)
	}
}

package diskfault

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestDamageAndMend(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	const size = 16
	data := []byte("page zero.......page one: x.....page two........page three: x...tail")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Damage(path, size, []byte("nowhere")); err == nil {
		t.Error("Damage of something that is nowhere succeeded")
	}
	r := DamageTest(t, path, size, ": x")
	if got := r.Pages(); !slices.Equal(got, []int64{1, 3}) {
		t.Errorf("pages %v, want [1 3]", got)
	}
	got, _ := os.ReadFile(path)
	want := bytes.Clone(data)
	copy(want[16:32], make([]byte, 16))
	copy(want[48:64], make([]byte, 16))
	if !bytes.Equal(got, want) {
		t.Errorf("after Damage: %q", got)
	}

	// Page 3 is written anew meanwhile: Mend leaves it as it is.
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteAt([]byte("page three, new."), 48)
	f.Close()
	if err := r.Mend(); err != nil {
		t.Fatal(err)
	}
	if err := r.Mend(); err != nil {
		t.Fatal(err)
	}
	got, _ = os.ReadFile(path)
	want = bytes.Clone(data)
	copy(want[48:64], "page three, new.")
	if !bytes.Equal(got, want) {
		t.Errorf("after Mend: %q", got)
	}
}

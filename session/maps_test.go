package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"image/png"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/picture"
	"github.com/gmdjudge/gmd/state"
)

// testDrawer is a view.Drawer that writes a tiny valid PNG and remembers what
// it was asked to draw.
type testDrawer struct {
	pos []*judge.Position
	res []*judge.Resolution
}

func (d *testDrawer) draw(w io.Writer, pos *judge.Position, res *judge.Resolution) error {
	d.pos, d.res = append(d.pos, pos), append(d.res, res)
	img := image.NewRGBA(image.Rect(0, 0, 2, 1))
	img.Set(0, 0, color.RGBA{R: 200, A: 255})
	return png.Encode(w, img)
}

// processNow has the master of game process its phase now and returns
// the mails queued.
func (h *harness) processNow(game string) []*state.OutMail {
	h.t.Helper()
	return h.mail(testMaster, "process", "SIGNON M"+game+" "+testMasterPass+"\nPROCESS")
}

// resultsMails returns the results mails among mails.
func resultsMails(mails []*state.OutMail) []*state.OutMail {
	var out []*state.OutMail
	for _, m := range mails {
		if strings.HasSuffix(m.Subject, " Results") {
			out = append(out, m)
		}
	}
	return out
}

// TestResultsCarryMap: the results of a phase refer to its picture,
// which the renderer draws from the history, once for all its mails,
// with the orders of the phase and their outcomes.
func TestResultsCarryMap(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.orders("dt", "E", "F Lon - Nth\nF Edi - Nrg")
	h.orders("dt", "F", "A Par - Bur")
	got := resultsMails(h.processNow("dt"))
	if len(got) != 1 {
		t.Fatalf("%d results mails, want 1", len(got))
	}
	m := got[0]
	if !strings.Contains(m.Subject, "S1901M") || len(m.To) != 8 {
		t.Errorf("results %q to %v, want S1901M to the seven players and the master", m.Subject, m.To)
	}
	if len(m.Maps) != 2 || m.Maps[0].After || !m.Maps[1].After {
		t.Fatalf("results carry maps %+v, want the phase's and the board after it", m.Maps)
	}
	ref := m.Maps[0]
	if after := m.Maps[1]; !engine.SameRef(after, state.MapRef{Game: ref.Game, Turn: ref.Turn, Phase: ref.Phase, Processed: ref.Processed, Digest: ref.Digest, After: true}) ||
		ref.Name() != "S1901M.png" || after.Name() != "S1901M-after.png" {
		t.Errorf("maps %+v, %+v: want one phase's two pictures, S1901M.png and S1901M-after.png", ref, after)
	}
	if ref.Game != "dt" || ref.Turn != 1 || ref.Phase != "S1901M" || !ref.Processed.Equal(h.now) || len(ref.Digest) != 16 {
		t.Errorf("map %+v, want dt turn 1 S1901M processed %v, with a digest", ref, h.now)
	}
	// The outbox keeps the reference, not the picture: the record is
	// the mail's text and a line more.
	if rec, err := json.Marshal(m); err != nil || len(rec) > len(m.Body)+1024 {
		t.Errorf("the outbox record of a %d-byte mail with its map is %d bytes (%v)", len(m.Body), len(rec), err)
	}

	d := new(testDrawer)
	r := engine.NewMapRenderer(h.m.DB(), d.draw, picture.MaxPNGBytes)
	for range 7 {
		b, err := r.PNG(ref)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(bytes.NewReader(b)); err != nil {
			t.Fatalf("the map is no PNG: %v", err)
		}
	}
	if len(d.pos) != 1 {
		t.Fatalf("the phase was drawn %d times for seven mails, want once", len(d.pos))
	}
	if d.pos[0].Phase.String() != "S1901M" || d.res[0] == nil {
		t.Fatalf("drew %v with resolution %v, want S1901M with its orders", d.pos[0].Phase, d.res[0])
	}
	// The orders drawn are the phase's, with the outcomes mailed.
	mp := d.pos[0].Map
	var moved []string
	for _, res := range d.res[0].Results {
		if !res.Default && res.Outcome == judge.Succeeds {
			moved = append(moved, res.Order.Canonical(mp))
		}
	}
	slices.Sort(moved)
	if want := []string{"A par - bur", "F edi - nwg", "F lon - nth"}; !slices.Equal(moved, want) {
		t.Errorf("orders drawn as succeeded %q, want %q", moved, want)
	}

	// The board after the phase: the next position, without orders,
	// its units where they moved.
	if _, err := r.PNG(m.Maps[1]); err != nil {
		t.Fatal(err)
	}
	if len(d.pos) != 2 || d.res[1] != nil || d.pos[1].Phase.String() != "F1901M" {
		t.Fatalf("the board after: drew %d pictures, the last of %v with %v; want F1901M without orders", len(d.pos), d.pos[len(d.pos)-1].Phase, d.res[len(d.res)-1])
	}
	var at []string
	for _, p := range mp.Provinces() {
		if u, ok := d.pos[1].UnitAt(p); ok && (u.Power == 1 || u.Power == 2) {
			at = append(at, mp.LocName(u.Loc))
		}
	}
	slices.Sort(at)
	if want := []string{"bre", "bur", "lvp", "mar", "nth", "nwg"}; !slices.Equal(at, want) {
		t.Errorf("England's and France's units after S1901M at %q, want %q", at, want)
	}
}

// TestSetNoMap: a player's SET NOMAP sends them the results without the
// map, as a mail of their own, and SET MAP brings it back.
func TestSetNoMap(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	r := replyTo(t, h.orders("dt", "E", "SET NOMAP"), "england@example.org")
	mustContain(t, r.Body, "NOMAP set", "SET MAP brings it back")
	if g := h.game("dt"); !slices.Equal(g.NoMap, []string{"england@example.org"}) {
		t.Errorf("NoMap %q, want England's address", g.NoMap)
	}
	got := resultsMails(h.processNow("dt"))
	if len(got) != 2 {
		t.Fatalf("%d results mails, want one with the map and one without", len(got))
	}
	eng := onlyTo(t, got, "england@example.org")
	if len(eng.Maps) != 0 || len(eng.To) != 1 {
		t.Errorf("England's results: to %v with maps %+v, want England alone, without", eng.To, eng.Maps)
	}
	fra := onlyTo(t, got, "france@example.org")
	if len(fra.Maps) != 2 || slices.Contains(fra.To, "england@example.org") {
		t.Errorf("France's results: to %v with maps %+v, want the map, England not among them", fra.To, fra.Maps)
	}
	if eng.Body != fra.Body || eng.Subject != fra.Subject {
		t.Error("the results without the map differ from those with it")
	}

	// "SET NO MAP" is the same, and a second time changes nothing.
	r = replyTo(t, h.orders("dt", "E", "SET NO MAP"), "england@example.org")
	mustContain(t, r.Body, "NOMAP set")
	if g := h.game("dt"); len(g.NoMap) != 1 {
		t.Errorf("NoMap %q after a second SET NOMAP, want one address", g.NoMap)
	}
	r = replyTo(t, h.orders("dt", "E", "SET MAP"), "england@example.org")
	mustContain(t, r.Body, "MAP set", "will carry the map")
	if g := h.game("dt"); len(g.NoMap) != 0 {
		t.Errorf("NoMap %q after SET MAP, want none", g.NoMap)
	}
	h.orders("dt", "E", "")
	got = resultsMails(h.processNow("dt"))
	if len(got) != 1 || len(got[0].Maps) != 2 {
		t.Errorf("after SET MAP: %d results mails, want one with the maps", len(got))
	}

	// A word after it is a mistake.
	r = replyTo(t, h.orders("dt", "E", "SET NOMAP please"), "england@example.org")
	mustContain(t, r.Body, "Use SET NOMAP or SET MAP alone")
}

// TestSetMapOff: the master's SET MAP OFF stops the map for everyone,
// tells them so, and SET MAP ON brings it back; a player may not.
func TestSetMapOff(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	r := replyTo(t, h.orders("dt", "E", "SET MAP OFF"), "england@example.org")
	mustContain(t, r.Body, "Only the master of 'dt' may SET MAP")
	if h.game("dt").Settings.NoMap {
		t.Fatal("a player turned the game's maps off")
	}

	got := h.mail(testMaster, "maps", "SIGNON Mdt "+testMasterPass+"\nSET MAP OFF")
	mustContain(t, replyTo(t, got, testMaster).Body, "no longer carry the map")
	// Everyone hears of it, as of every setting.
	mustContain(t, onlyTo(t, got, "france@example.org").Body, "no longer carry the map")
	if !h.game("dt").Settings.NoMap {
		t.Fatal("SET MAP OFF left the maps on")
	}
	// A player asking for the map is told why none comes.
	r = replyTo(t, h.orders("dt", "E", "SET MAP"), "england@example.org")
	mustContain(t, r.Body, "has turned the maps off for the game")
	// LIST says so.
	mustContain(t, replyTo(t, h.mail("x@example.org", "list", "LIST dt"), "x@example.org").Body, "results without the map")

	got = resultsMails(h.processNow("dt"))
	if len(got) != 1 || len(got[0].Maps) != 0 {
		t.Fatalf("with the maps off: %d results mails, maps %+v; want one without", len(got), got[0].Maps)
	}

	r = replyTo(t, h.mail(testMaster, "maps", "SIGNON Mdt "+testMasterPass+"\nSET MAP ON"), testMaster)
	mustContain(t, r.Body, "carry the map of the phase again")
	r = replyTo(t, h.mail(testMaster, "maps", "SIGNON Mdt "+testMasterPass+"\nSET MAP sideways"), testMaster)
	mustContain(t, r.Body, "Use: SET MAP ON or SET MAP OFF")
	got = resultsMails(h.processNow("dt"))
	if len(got) != 1 || len(got[0].Maps) != 2 {
		t.Fatalf("after SET MAP ON: %d results mails; want one with the maps", len(got))
	}
}

// TestGunboatMaps: in a gunboat game every results mail goes to one
// address, with the map or, after SET NOMAP, without.
func TestGunboatMaps(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	g := h.game("dt")
	g.Settings.Gunboat = true
	h.putGame(g)
	h.orders("dt", "T", "SET NOMAP")
	got := resultsMails(h.processNow("dt"))
	if len(got) != 8 {
		t.Fatalf("%d results mails, want one per address", len(got))
	}
	for _, m := range got {
		want := 2 // the phase's picture and the board after it
		if m.To[0] == "turkey@example.org" {
			want = 0
		}
		if len(m.To) != 1 || len(m.Maps) != want {
			t.Errorf("results to %v carry %d maps, want one address and %d", m.To, len(m.Maps), want)
		}
	}
}

// TestHistoryMap: HISTORY game phase attaches the map of the phase;
// the whole history does not, and neither does a game the sender turned
// maps off for.
func TestHistoryMap(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.processNow("dt")
	const anyone = "france@example.org" // a player: strangers get no map (TestHistoryMapForged)
	r := replyTo(t, h.mail(anyone, "history", "HISTORY dt S1901M"), anyone)
	mustContain(t, r.Body, "The map of S1901M is attached: S1901M.png.")
	if len(r.Maps) != 1 || r.Maps[0].Phase != "S1901M" || r.Maps[0].Turn != 1 {
		t.Errorf("HISTORY dt S1901M carries maps %+v, want S1901M's", r.Maps)
	}
	r = replyTo(t, h.mail(anyone, "history", "HISTORY dt"), anyone)
	if len(r.Maps) != 0 {
		t.Errorf("HISTORY dt carries maps %+v, want none", r.Maps)
	}
	// The same phase twice is one map; more than three phases, three.
	h.processNow("dt") // F1901M
	h.processNow("dt") // S1902M
	h.processNow("dt") // F1902M
	r = replyTo(t, h.mail(anyone, "history", "HISTORY dt S1901M\nHISTORY dt S1901M\nHISTORY dt F1901M\nHISTORY dt S1902M\nHISTORY dt F1902M"), anyone)
	var phases []string
	for _, m := range r.Maps {
		phases = append(phases, m.Phase)
	}
	if want := []string{"S1901M", "F1901M", "S1902M"}; !slices.Equal(phases, want) {
		t.Errorf("maps of five HISTORY lines: %q, want %q", phases, want)
	}
	mustContain(t, r.Body, "No map of F1902M: a reply carries at most 3.")

	r = replyTo(t, h.orders("dt", "E", "SET NOMAP\nHISTORY dt S1901M"), "england@example.org")
	if len(r.Maps) != 0 || strings.Contains(r.Body, "is attached") {
		t.Errorf("HISTORY after SET NOMAP carries maps %+v", r.Maps)
	}
}

// TestHistoryMapForged performs the attack of a HISTORY mail with a
// forged From: three lines asking for maps made a reply of 417 KB to an
// address that never asked for anything. Every phase of a played game,
// asked for by every kind of sender: only the game's players, observers
// and master get maps, and what goes to anyone else, attachments
// included, stays within Config.MaxReplySize.
func TestHistoryMapForged(t *testing.T) {
	h := newHarness(t)
	h.m.cfg.MaxReplySize = 64 << 10
	h.startStandard("dt")
	h.observe("watcher@example.org", "dt", "pw-w", "")
	var phases []string
	for range 5 {
		for _, m := range h.processNow("dt") {
			for _, ref := range m.Maps {
				if !slices.Contains(phases, ref.Phase) {
					phases = append(phases, ref.Phase)
				}
			}
		}
	}
	// France resigns: the seat's address no longer gets the game's mail.
	h.orders("dt", "F", "RESIGN")
	if len(phases) < 5 {
		t.Fatalf("played phases %q, want at least 5", phases)
	}
	members := []string{"england@example.org", "watcher@example.org", testMaster}
	strangers := []string{"victim@example.net", "france@example.org", "postmaster@example.org"}
	for _, from := range append(members, strangers...) {
		member := slices.Contains(members, from)
		for i := 0; i+3 <= len(phases); i++ {
			body := ""
			for _, ph := range phases[i : i+3] {
				body += "HISTORY dt " + ph + "\n"
			}
			r := replyTo(t, h.mail(from, "history", body), from)
			if !member {
				// The judge's worst case: every map at its largest.
				if size := len(r.Body) + len(r.Maps)*picture.MaxPNGBytes; len(r.Maps) != 0 || size > h.m.cfg.MaxReplySize {
					t.Errorf("forged HISTORY from %s: %d maps, up to %d bytes, want none and at most %d",
						from, len(r.Maps), size, h.m.cfg.MaxReplySize)
				}
				mustContain(t, r.Body, "No map of "+phases[i]+": maps go only to the addresses that get the game's mail")
			} else if len(r.Maps) != 3 {
				t.Errorf("HISTORY of %q from %s carries %d maps, want 3", phases[i:i+3], from, len(r.Maps))
			}
		}
	}
}

// TestMapRendererGone: a map whose phase was rolled back, or played
// again after a rollback, is not drawn (the mail goes without it), and
// a drawing larger than its maxBytes is refused.
func TestMapRendererGone(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	ref := resultsMails(h.processNow("dt"))[0].Maps[0]
	d := new(testDrawer)
	r := engine.NewMapRenderer(h.m.DB(), d.draw, picture.MaxPNGBytes)

	h.mail(testMaster, "rollback", "SIGNON Mdt "+testMasterPass+"\nROLLBACK S1901M")
	if _, err := r.PNG(ref); !errors.Is(err, engine.ErrMapGone) {
		t.Errorf("map of a phase rolled back: %v, want errMapGone", err)
	}
	h.advance(1)
	again := resultsMails(h.processNow("dt"))[0].Maps[0]
	if _, err := r.PNG(ref); !errors.Is(err, engine.ErrMapGone) {
		t.Errorf("map of a phase rolled back and played again: %v, want errMapGone", err)
	}
	if _, err := r.PNG(again); err != nil {
		t.Errorf("map of the phase played again: %v", err)
	}
	other := ref
	other.Game = "nosuch"
	if _, err := r.PNG(other); !errors.Is(err, engine.ErrMapGone) {
		t.Errorf("map of a game that is not there: %v, want errMapGone", err)
	}

	big := engine.NewMapRenderer(h.m.DB(), func(w io.Writer, _ *judge.Position, _ *judge.Resolution) error {
		_, err := w.Write(make([]byte, 1001))
		return err
	}, 1000)
	if _, err := big.PNG(again); !errors.Is(err, engine.ErrMapTooBig) {
		t.Errorf("a drawing of 1001 bytes past a limit of 1000: %v, want errMapTooBig", err)
	}
}

// TestMapRendererCacheBound: the renderer keeps a few pictures only.
func TestMapRendererCacheBound(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	var refs []state.MapRef
	for range engine.MapCacheSize + 2 {
		refs = append(refs, resultsMails(h.processNow("dt"))[0].Maps[0])
	}
	d := new(testDrawer)
	r := engine.NewMapRenderer(h.m.DB(), d.draw, picture.MaxPNGBytes)
	for _, ref := range refs {
		if _, err := r.PNG(ref); err != nil {
			t.Fatal(err)
		}
	}
	if r.Cache.Len() != engine.MapCacheSize {
		t.Errorf("cache holds %d pictures, want %d", r.Cache.Len(), engine.MapCacheSize)
	}
	r.PNG(refs[len(refs)-1]) // cached
	r.PNG(refs[0])           // drawn again
	if len(d.pos) != len(refs)+1 {
		t.Errorf("%d drawings, want %d", len(d.pos), len(refs)+1)
	}
}

// TestMapRendererSameInstant: a phase processed, rolled back and
// processed again by one mail of the master's is processed twice at the
// same instant; the first results mail must not carry the picture of the
// second processing, whose orders differ.
func TestMapRendererSameInstant(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.orders("dt", "F", "A Par - Bur")
	got := resultsMails(h.mail(testMaster, "process", "SIGNON Mdt "+testMasterPass+"\nPROCESS\nROLLBACK\nPROCESS"))
	if len(got) != 2 {
		t.Fatalf("%d results mails, want two", len(got))
	}
	first, second := got[0].Maps[0], got[1].Maps[0]
	if !strings.Contains(got[0].Body, "Bur") {
		t.Fatalf("the first results do not have France's move:\n%s", got[0].Body)
	}
	d := new(testDrawer)
	r := engine.NewMapRenderer(h.m.DB(), d.draw, picture.MaxPNGBytes)
	if _, err := r.PNG(first); !errors.Is(err, engine.ErrMapGone) {
		t.Errorf("map of the first processing: %v, want errMapGone", err)
	}
	if _, err := r.PNG(second); err != nil {
		t.Errorf("map of the second processing: %v", err)
	}
	// A reference queued before digests existed is known by its time.
	old := second
	old.Digest = ""
	if _, err := r.PNG(old); err != nil {
		t.Errorf("map of a reference without a digest: %v", err)
	}
}

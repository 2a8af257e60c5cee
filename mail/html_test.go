package mail

import (
	"strings"
	"testing"
	"time"
)

func TestHTMLToText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"plain", "plain\n"},
		{"a<br>b<br/>c<BR >d", "a\nb\nc\nd\n"},
		{"<p>one</p><p>two</p>", "one\ntwo\n"},
		{"<div>x</div><div><br></div><div>y</div>", "x\n\ny\n"},
		{"a  \n  b\tc", "a b c\n"},
		{"&lt;tag&gt; &amp;&amp; &quot;q&quot; &#233;&#x20AC;", "<tag> && \"q\" é€\n"},
		{"a < b > c", "a < b > c\n"},
		{`<a href="x>y">link</a> text`, "link text\n"},
		{"<pre>F Lon - Nth\n  A Lvp H</pre>after", "F Lon - Nth\nA Lvp H\nafter\n"},
		{"<style>p{}</style><script>x<y</script>shown", "shown\n"},
		{"<STYLE>p{}</STYLE>shown", "shown\n"},
		{"x<!-- hidden -->y", "xy\n"},
		{"x<!-- never closed", "x\n"},
		{"<table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>", "a b\nc\n"},
		{"<ul><li>one<li>two</ul>", "one\ntwo\n"},
		{"cut <b", "cut\n"},
		{"\n\n<p></p><p></p>x<p></p><p></p>\n", "x\n"},
		{"<p>a</p><br><br><br><p>b</p>", "a\n\nb\n"},
	}
	for _, tt := range tests {
		if got := HTMLToText(tt.in); got != tt.want {
			t.Errorf("HTMLToText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestIndexEndTag(t *testing.T) {
	for _, tt := range []struct {
		s, name string
		want    int
	}{
		{"x</style>", "style", 1},
		{"x</STYLE >", "style", 1},
		{"</b></scrip</script>", "script", 11},
		{"a < / style </", "style", -1},
		{"</sty", "style", -1},
		{"", "style", -1},
	} {
		if got := indexEndTag(tt.s, tt.name); got != tt.want {
			t.Errorf("indexEndTag(%q, %q) = %d, want %d", tt.s, tt.name, got, tt.want)
		}
	}
}

// TestHTMLToTextLinear checks that skipped elements cost time in
// proportion to the text: lowering the rest of the text at each one, as
// it once did, took minutes for this.
func TestHTMLToTextLinear(t *testing.T) {
	src := strings.Repeat("<style>p{}</style><SCRIPT>x</SCRIPT>", 1<<20/36) + "shown"
	start := time.Now()
	if got := HTMLToText(src); got != "shown\n" {
		t.Errorf("got %q", got)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("1 MB of skipped elements took %v", d)
	}
}

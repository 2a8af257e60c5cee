package mail

import "testing"

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

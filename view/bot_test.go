package view

import (
	"strings"
	"testing"
)

// TestBotSetting: each value of SET BOT reads as LIST and the web page
// say it, and OFF says nothing.
func TestBotSetting(t *testing.T) {
	for bot, want := range map[string]string{
		"":          "",
		"abandoned": "the judge's bot plays abandoned seats",
		"fill":      "the judge's bot plays abandoned and empty seats",
	} {
		sum := Settings{Press: "white", Zone: "UTC", Bot: bot}.Summary()
		if want == "" {
			if strings.Contains(sum, "bot") {
				t.Errorf("SET BOT OFF: %q", sum)
			}
			continue
		}
		if !strings.Contains(sum, want) {
			t.Errorf("SET BOT %s: %q lacks %q", bot, sum, want)
		}
	}
}

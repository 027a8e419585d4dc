package publish

import (
	"strings"
	"testing"
)

// FuzzFormMarkdown converts any page holding a form: the conversion never
// panics, and every field line it writes stays one line that names its
// field in backticks, whatever the attribute values hold. hasJSONLD reads
// the same page without panicking.
func FuzzFormMarkdown(f *testing.F) {
	for _, s := range []string{
		`<form toolname="a" tooldescription="b" method="post" action="/x"><input name="q" required toolparamdescription="words"></form>`,
		"<form><input name=\"a\nb`c*\" placeholder=\"line\nbreak\"><select name=s></select><textarea name=t></textarea></form>",
		`<form><form><input name=x></form></form><script type="application/ld+json">{}</script>`,
		`<script type="APPLICATION/LD+JSON;x=y">`, `<form toolname="` + strings.Repeat("é", 300) + `">`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, page string) {
		_ = hasJSONLD([]byte(page))
		md, err := newMarkdownConverter().ConvertString(page)
		if err != nil {
			return
		}
		for _, line := range strings.Split(md, "\n") {
			if strings.HasPrefix(line, "- `") && strings.Contains(line, "` (") && strings.Count(line, "`") != 2 {
				t.Fatalf("a field line with stray backticks: %q", line)
			}
		}
	})
}

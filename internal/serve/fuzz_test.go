package serve

import (
	"strings"
	"testing"
)

// FuzzNoneMatch checks that the If-None-Match parser never panics, that a
// field holding the tag (strong or weak) among other well-formed tags always
// matches, and that the weakness of our own tag never changes the answer.
func FuzzNoneMatch(f *testing.F) {
	for _, s := range []string{`"abc"`, `W/"abc"`, `*`, `"a", "b,c"`, ` , ,"x"`, `"unterminated`, `w/"x"`, ``} {
		f.Add(s, "abc")
	}
	f.Fuzz(func(t *testing.T, field, opaque string) {
		if strings.ContainsRune(opaque, '"') {
			return
		}
		tag := `"` + opaque + `"`
		got := NoneMatch([]string{field}, tag)
		if got != NoneMatch([]string{field}, "W/"+tag) {
			t.Fatalf("weak and strong own tag disagree for %q", field)
		}
		if !NoneMatch([]string{`"x", W/` + tag + `, "y"`}, tag) {
			t.Fatalf("tag %s not found in a list", tag)
		}
		if !NoneMatch([]string{field, tag}, tag) {
			t.Fatalf("tag %s in a second field not found after %q", tag, field)
		}
	})
}

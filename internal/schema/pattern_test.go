package schema

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPatternMatchersAgreeWithRegexp: each hand-written matcher gives what
// its regular expression gives, on the edge cases and on 20,000 random
// strings per pattern drawn from the characters that matter to it.
func TestPatternMatchersAgreeWithRegexp(t *testing.T) {
	const alphabet = "az09._-:AZ \t\n\f\r\v\u00a0é\xff/sha256:0123456789abcdef"
	edges := []string{"", "a", ".", "a.", ".a", "a.b", "a..b", "a.-", "-a.b", "a.b.", "1.2", "1.2.3", "1.2.3.4", "1..2", "01.2", "a:b", "a:", ":a", "a:b:c", "a:1", "sha256:", "sha256:" + strings.Repeat("a", 64), "sha256:" + strings.Repeat("A", 64), "sha256:" + strings.Repeat("0", 65), "x y", "\v", "\u00a0", "é", "\xff"}
	r := rand.New(rand.NewPCG(7, 64))
	for src, f := range patternMatchers {
		re := regexp.MustCompile(src)
		inputs := append([]string{}, edges...)
		for range 20000 {
			var b strings.Builder
			if r.IntN(4) == 0 {
				b.WriteString("sha256:")
			}
			for range r.IntN(12) {
				b.WriteByte(alphabet[r.IntN(len(alphabet))])
			}
			if r.IntN(8) == 0 {
				b.WriteString(strings.Repeat("f", 64-r.IntN(3)))
			}
			inputs = append(inputs, b.String())
		}
		for _, in := range inputs {
			if re.MatchString(in) != f(in) {
				t.Errorf("%s on %q: regexp %v, matcher %v", src, in, re.MatchString(in), f(in))
			}
		}
		assert.NotNil(t, matcher(re))
	}
}

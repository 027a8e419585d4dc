package agentsignup

import (
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPlainHTTPSURLAgreesWithTheParser: every URL the fast path accepts is
// one url.Parse reads as an absolute https URL with that host and no
// userinfo, so it has no URL problem and, when bare, the canonical origin
// the parser's route gives; checked on edge cases and 20,000 random ones.
func TestPlainHTTPSURLAgreesWithTheParser(t *testing.T) {
	urls := []string{"https://example.com", "https://example.com/", "https://a.example/terms?x=1#f", "https://a-b.example/p;q=1/[x]",
		"https://Example.com/", "https://a.example:443/", "https://u@a.example/", "https://a.example/%41", "https://a.example/ x",
		"http://a.example/", "https://", "https:///x", "https://bücher.example/", "https://xn--bcher-kva.example/", "https://1.2.3.4/", "https://a..b/"}
	r := rand.New(rand.NewPCG(3, 986))
	const alphabet = "ab09-.:/?#@%[]!$&'()*+,;=~_ AZé\x00"
	for range 20000 {
		var b strings.Builder
		b.WriteString("https://")
		for range r.IntN(20) {
			b.WriteByte(alphabet[r.IntN(len(alphabet))])
		}
		urls = append(urls, b.String())
	}
	accepted := 0
	for _, s := range urls {
		host, ok := plainHTTPSURL(s)
		if !ok {
			continue
		}
		accepted++
		u, err := url.Parse(s)
		if !assert.NoError(t, err, s) {
			continue
		}
		assert.Equal(t, host, u.Host, s)
		_, _, bad := parsedURLProblem("/u", s)
		assert.False(t, bad, "%s: the fast path accepted a URL the rules refuse", s)
		assert.Nil(t, u.User, s)
		if s == "https://"+host {
			want, err := canonicalOriginOf(u)
			got := checkURLs(map[string]any{"issuer_allowlist": []any{s}}, nil)
			assert.Equal(t, err == nil && want == s, len(got) == 0, "%s: canonical %q (%v), problems %v", s, want, err, got)
		}
	}
	assert.Greater(t, accepted, 200)
}

// TestForbiddenNameLengthFilterKeepsUnicodeFolding: the length filter
// applies to ASCII keys only; a key whose Unicode lower case is a
// forbidden name of another byte length is still caught.
func TestForbiddenNameLengthFilterKeepsUnicodeFolding(t *testing.T) {
	for _, f := range ForbiddenFields() {
		_, ok := forbiddenName(strings.ToUpper(f.Name))
		assert.True(t, ok, f.Name)
		if i := strings.IndexByte(f.Name, 'k'); i >= 0 {
			kelvin := f.Name[:i] + "\u212a" + f.Name[i+1:]
			_, ok := forbiddenName(kelvin)
			assert.True(t, ok, "%q lower-cases to %q", kelvin, f.Name)
		}
	}
	_, ok := forbiddenName("an_ordinary_member_name")
	assert.False(t, ok)
}

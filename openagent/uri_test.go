package openagent

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
)

// ajvURI is the "uri" format of ajv-formats, the library the reference
// validator checks webhook_url with (testdata/peers/logicsrc/SOURCES).
var ajvURI = sync.OnceValue(func() *regexp.Regexp {
	b, err := os.ReadFile(filepath.Join("testdata", "peers", "logicsrc", "ajv-formats-uri.regexp"))
	if err != nil {
		panic(err)
	}
	return regexp.MustCompile(`^(?:` + strings.TrimSpace(string(b)) + `)$`)
})

// ajvAccepts is ajv-formats' uri function: NOT_URI_FRAGMENT.test(str) &&
// URI.test(str).
func ajvAccepts(s string) bool {
	return strings.ContainsAny(s, "/:") && ajvURI().MatchString(s)
}

// ajvLenient reports the inputs on which ajv-formats is more lenient than
// RFC 3986, where this package follows the RFC (Section 3: "//" starts an
// authority; a path never starts with "//" and never holds "["). The
// library's expression reads "scheme:/" followed by an authority, one slash
// only, and allows that authority to be empty, so
//   - after "scheme://" anything made of path characters passes, read as an
//     empty authority and a path ("https://host:port/", "https://a@b@c/");
//   - an IP literal after a single slash passes ("a:/[::1]");
//
// and it reads an IPv4 address with leading zeros ("[::ffff:01.2.3.4]")
// inside an IPv6 literal, which Section 3.2.2's dec-octet does not allow.
func ajvLenient(s string) bool {
	i := strings.IndexByte(s, ':')
	if i <= 0 {
		return false
	}
	rest := s[i+1:]
	switch {
	case strings.HasPrefix(rest, "//") && isURI(s[:i+1]+"/."+rest[1:]):
		return true
	case strings.HasPrefix(rest, "/") && !strings.HasPrefix(rest, "//") && strings.ContainsAny(rest, "[]"):
		return true
	}
	return leadingZeroOctet.MatchString(s)
}

var leadingZeroOctet = regexp.MustCompile(`\[[^\]]*[:.]0\d`)

// TestIsURIAgreesWithAjvFormats compares the RFC 3986 check of webhook_url
// with the reference's library on hand-picked inputs.
func TestIsURIAgreesWithAjvFormats(t *testing.T) {
	inputs := []string{
		"https://hooks.example.com/agents/research", "https://hooks.example.com/a?x=1&y=2#frag",
		"https://[2001:db8::1]:8443/hook", "https://[::ffff:192.0.2.1]/", "https://[v1.fe80::a+en1]/",
		"https://user:pw@hooks.example.com/", "https://xn--bcher-kva.example/hook", "https://hooks.example.com/a%20b",
		"urn:isbn:0451450523", "mailto:ops@example.com", "file:///etc/hosts", "a:", "a:b", "HTTPS://EXAMPLE.COM/",
		"https://hooks.example.com:/", "https://:80/", "https://host:8080x/", "https://host:port/",
		"https://hooks.example.com/with space", "https://bücher.example/hook", "https://hooks.example.com/ü",
		"https://hooks.example.com/a?x=<1>", "https://hooks.example.com/a%2", "https://hooks.example.com/a%zz",
		"https://[::1%25eth0]/", "https://[::1/", "https://[1:2:3:4:5:6:7:8:9]/", "https://[v.x]/", "https://a@b@c/",
		"relative/path", "//hooks.example.com/x", "1https://x.example/", "", ":", "https://x.example/#a#b",
		"https://x.example/?a?b", "https://x.example/\\", "https://x.example/\x00", "https://x.example/`", "a+b-c.d:e",
	}
	for _, s := range inputs {
		t.Run(s, func(t *testing.T) { checkAgainstAjv(t, s) })
	}
	// Where the two differ, RFC 3986 is right (see ajvLenient).
	for _, s := range []string{"https://host:port/", "https://a@b@c/", "a:/[::1]", "https://[::ffff:01.2.3.4]/"} {
		assert.True(t, ajvAccepts(s), s)
		assert.False(t, isURI(s), s)
	}
	// Where RFC 3986 allows an empty hier-part, the reference refuses it,
	// and so does isURI (the safer reading).
	for _, s := range []string{"a:", "a:?q", "a:#f"} {
		assert.False(t, ajvAccepts(s), s)
		assert.False(t, isURI(s), s)
	}
}

// FuzzIsURI checks isURI against ajv-formats on arbitrary input: they
// agree except where ajv-formats is more lenient than RFC 3986 (see
// ajvLenient), and isURI never accepts what the library refuses.
func FuzzIsURI(f *testing.F) {
	for _, s := range []string{"https://a.example/b?c#d", "https://[::1]:8/", "a:/[::1]", "urn:x", "https://ü/"} {
		f.Add(s)
	}
	f.Fuzz(checkAgainstAjv)
}

// checkAgainstAjv: isURI never accepts what ajv-formats refuses, and
// refuses what it accepts only where the library is more lenient than
// RFC 3986.
func checkAgainstAjv(t *testing.T, s string) {
	ours, ajv := isURI(s), ajvAccepts(s)
	if ours {
		assert.True(t, ajv, "isURI accepts %q, which ajv-formats refuses", s)
	} else if ajv {
		assert.True(t, ajvLenient(s), "ajv-formats accepts %q, isURI refuses it", s)
	}
}

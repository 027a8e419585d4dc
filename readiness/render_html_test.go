package readiness

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"
)

// TestHTMLIsSelfContained parses the page back with an HTML5 parser and
// checks that nothing in it refers outside the page.
func TestHTMLIsSelfContained(t *testing.T) {
	r := fixedReport()
	page := r.HTML()
	assertSelfContained(t, r, page)
	assert.NotContains(t, string(page), "<b>&amp;</b>", "body text from a site is escaped")
}

func assertSelfContained(t *testing.T, r *Report, page []byte) {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(page))
	require.NoError(t, err)
	var details, svgs, badges, scripts int
	for n := range doc.Descendants() {
		if n.Type == html.DoctypeNode {
			assert.Equal(t, "html", n.Data)
		}
		if n.Type != html.ElementNode {
			continue
		}
		switch n.Data {
		case "script":
			scripts++
			require.NotNil(t, n.FirstChild, "an inline script")
			sum := sha256.Sum256([]byte(n.FirstChild.Data))
			assert.Contains(t, string(page), "script-src 'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'", "the page's CSP allows its one script by hash")
		case "link", "img", "iframe", "object", "embed", "base", "form", "image", "use", "foreignObject":
			t.Errorf("element <%s> in a self-contained report", n.Data)
		case "details":
			details++
		case "svg":
			svgs++
		}
		for _, a := range n.Attr {
			switch strings.ToLower(a.Key) {
			case "src", "srcset", "action", "formaction", "xlink:href", "poster", "data":
				t.Errorf("<%s %s=%q> refers outside the page", n.Data, a.Key, a.Val)
			case "href":
				assert.True(t, strings.HasPrefix(a.Val, "#"), "<%s href=%q> is not an in-page anchor", n.Data, a.Val)
			case "style":
				assert.NotContains(t, a.Val, "url(")
			case "class":
				if strings.Contains(a.Val, "badge") {
					badges++
				}
			}
			assert.False(t, strings.HasPrefix(strings.ToLower(a.Key), "on"), "event handler %s", a.Key)
		}
		if n.Data == "style" && n.FirstChild != nil {
			css := n.FirstChild.Data
			assert.NotContains(t, css, "url(")
			assert.NotContains(t, css, "@import")
		}
	}
	prompts := len(r.Fixes)
	if prompts > 0 {
		prompts++ // one for all
	}
	assert.Equal(t, len(r.Checks)+len(r.Observations)+prompts, details, "one receipt per check and per observation, one prompt per fix and one for all")
	trend := 0
	if r.Trend != nil {
		trend = 1
	}
	assert.Equal(t, 2+trend, svgs, "the gauge, the section bars and the trend when there is one")
	assert.Equal(t, 1, scripts, "the one script of the Copy prompt buttons")
	assert.Contains(t, string(page), `<meta http-equiv="Content-Security-Policy" content="default-src 'none';`, "a policy that allows no request")
	assert.Equal(t, len(r.Checks)+len(r.Requirements), badges)
}

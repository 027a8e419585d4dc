package readiness

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// llmsTxtLinksCases are the cases of the llms_txt_links observation.
func llmsTxtLinksCases(t testing.TB) []observationCase {
	manyLinks := "# Shop\n\n" + strings.Repeat("- [Products](https://shop.example/products)\n- [About](/about)\n", 10)
	for i := range 200 {
		manyLinks += fmt.Sprintf("- [Page %d](/page-%d)\n", i, i)
	}
	return []observationCase{
		{name: "llms links: all answer", id: "llms_txt_links",
			paths: map[string]http.HandlerFunc{"/llms.txt": text("text/plain", "# Shop\n\n> Gear.\n\n- [Products](https://shop.example/products): what we sell\n- [About](/about \"About us\")\n- [Elsewhere](https://other.example/x)\n")},
			want:  ObservationFound,
			check: func(t *testing.T, o Observation) {
				assert.Equal(t, "2 of 2 links checked answer 200", o.Receipt.Received)
			}},
		{name: "llms links: one is broken", id: "llms_txt_links",
			paths: map[string]http.HandlerFunc{"/llms.txt": text("text/plain", "# Shop\n\n- [Products](/products)\n- [Gone](/gone)\n")},
			want:  ObservationInvalid,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, o.Receipt.Notes, "https://shop.example/gone answered 404")
			}},
		{name: "llms links: no llms.txt", id: "llms_txt_links",
			paths: map[string]http.HandlerFunc{"/llms.txt": status(http.StatusNotFound)},
			want:  ObservationAbsent},
		{name: "llms links: hundreds of links, five fetched", id: "llms_txt_links",
			paths: map[string]http.HandlerFunc{"/llms.txt": text("text/plain", manyLinks)},
			want:  ObservationInvalid,
			check: func(t *testing.T, o Observation) {
				assert.Len(t, o.Receipt.Requests, 1+maxLLMsLinksChecked)
				assert.Contains(t, o.Receipt.Notes, "checked the first 5 of 202 same-site links")
			}},
	}
}

// An llms.txt link to a document the checks read without an Accept (the
// card, the sitemap) is answered from the scan's memo. It is not asked for
// again as HTML: a scan fetches each of those documents once, whatever the
// Accept.
func TestLLMsLinksReuseTheChecksDocuments(t *testing.T) {
	ts := &testSite{host: "shop.example"}
	r, _ := scanSite(t, ts, 10*time.Second, nil)
	o := observationByID(r, "llms_txt_links")
	require.NotEqual(t, ObservationUnverified, o.Status, "%s %q", o.Receipt.Received, o.Receipt.Notes)
	ts.mu.Lock()
	defer ts.mu.Unlock()
	linked := 0
	for _, path := range []string{"/.well-known/agents.json", "/sitemap.xml"} {
		n := 0
		for k, c := range ts.counts {
			if strings.HasPrefix(k, "GET "+path+" ") {
				n += c
			}
		}
		assert.Equal(t, 1, n, "GET %s, any Accept: %v", path, ts.counts)
		for _, q := range o.Receipt.Requests {
			if strings.HasSuffix(q.URL, path) {
				linked++
			}
		}
	}
	assert.Equal(t, 2, linked, "the kit's llms.txt links both documents, so the test reads what it means to")
}

package agentic

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// TestAuditReadsAtMostAuditDocuments holds AuditOptions.MaxDocuments: 0, or
// more than Limits.AuditDocuments, reads that many; less lowers it; a
// negative value reads none. The OpenAPI document is read first.
func TestAuditReadsAtMostAuditDocuments(t *testing.T) {
	s, err := ParseSite(readFile(t, "testdata/valid/shop.json"))
	require.NoError(t, err)
	for i := range 7 {
		u := fmt.Sprintf("https://shop.example/doc/%d", i)
		s.Resources = append(s.Resources, Resource{Kind: KindDocumentation, URL: u, Source: "https://shop.example/", Availability: AvailabilityRetrieved})
	}
	h, err := Handler(s, nil)
	require.NoError(t, err)
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("shop.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/agentic.json", "/agentic.txt":
			h.ServeHTTP(w, r)
		case "/openapi.json":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(auditOpenAPI))
		default:
			w.Header().Set("Content-Type", htmlType)
			_, _ = w.Write([]byte("<title>Shop</title>"))
		}
	}))
	for maxDocs, want := range map[int]int{0: auditMaxDocuments, 50: auditMaxDocuments, 2: 2, -1: 0} {
		rep, err := Audit(t.Context(), "https://shop.example/agentic.json", &AuditOptions{Client: n.Client(), SkipText: true, MaxDocuments: maxDocs})
		require.NoError(t, err)
		require.Len(t, rep.Documents, want, "MaxDocuments %d", maxDocs)
		if want > 0 {
			assert.Equal(t, "https://shop.example/openapi.json", rep.Documents[0].URL, "OpenAPI indexes first")
		}
		assert.Len(t, rep.Requests, 1+want, "the profile and the documents read, nothing more")
	}
}

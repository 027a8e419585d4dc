package readiness

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// llmsTxtEdges are the edge cases of the llms_txt check.
func llmsTxtEdges(t testing.TB) []scanEdge {
	return []scanEdge{
		{
			name:  "llms.txt with an H1 only",
			paths: map[string]http.HandlerFunc{"/llms.txt": text("text/plain", "# Example Shop\n")},
			want:  map[string]Verdict{"llms_txt": VerdictPartial},
		},
		{
			name:  "llms.txt served as a binary type",
			paths: map[string]http.HandlerFunc{"/llms.txt": text("application/octet-stream", "# Example Shop\n\n- [Products](https://shop.example/products): what we sell, and more words\n")},
			want:  map[string]Verdict{"llms_txt": VerdictPartial},
		},
		{
			name:  "llms.txt without an H1",
			paths: map[string]http.HandlerFunc{"/llms.txt": text("text/plain", "Example Shop\n\n- [Products](https://shop.example/products): what we sell, and more words\n")},
			want:  map[string]Verdict{"llms_txt": VerdictFail},
		},
		{
			name:  "llms.txt refused",
			paths: map[string]http.HandlerFunc{"/llms.txt": status(http.StatusForbidden)},
			want:  map[string]Verdict{"llms_txt": VerdictUnverified},
		},
		{
			name:  "llms.txt whose body is Markdown but labelled text/html",
			paths: map[string]http.HandlerFunc{"/llms.txt": text("text/html; charset=utf-8", "# Shop\n\n> Outdoor gear, shipped within the EU.\n\n- [Products](https://shop.example/products): what we sell\n")},
			want:  map[string]Verdict{"llms_txt": VerdictPartial},
			check: func(t *testing.T, r *Report) {
				c := checkByID(r, "llms_txt")
				assert.Contains(t, c.Receipt.Received, `labelled "text/html"`)
				assert.Contains(t, c.Fix, "text/html")
				assert.Contains(t, c.Fix, "text/plain")
			},
		},
		{
			name:  "an HTML page at /llms.txt",
			paths: map[string]http.HandlerFunc{"/llms.txt": text("text/plain", "<!DOCTYPE html><html><head><title>Shop</title></head><body><h1>Shop</h1><a href=\"/products\">Products</a></body></html>")},
			want:  map[string]Verdict{"llms_txt": VerdictFail},
			check: func(t *testing.T, r *Report) {
				assert.Equal(t, "HTML served at /llms.txt", checkByID(r, "llms_txt").Receipt.Received)
			},
		},
	}
}

package publish_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentweb/agentweb/internal/webread"
)

// FuzzNegotiation sends any Accept header to a kit-wrapped page: the
// answer is always 200 with Vary: Accept, and it is Markdown exactly when
// the scanner's own parser says the header prefers text/markdown.
func FuzzNegotiation(f *testing.F) {
	for _, s := range []string{"", "text/markdown", "text/markdown;q=0, text/html", "text/*;q=0.5", "*/*;q=0.001, text/markdown;q=0.002",
		"text/markdown;level=1", "TEXT/MARKDOWN", "text/markdown;q=1.000", "text/markdown;q=0.99999", ",,,;;;", "text/markdown; q=.5"} {
		f.Add(s)
	}
	s := teaSite()
	h, err := s.Handler(plainPages())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, accept string) {
		req := httptest.NewRequest("GET", "https://tea.example/teas", nil)
		req.Header["Accept"] = []string{accept}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("status %d for %q", rec.Code, accept)
		}
		if !strings.Contains(strings.Join(rec.Header().Values("Vary"), ","), "Accept") {
			t.Fatalf("no Vary: Accept for %q", accept)
		}
		wantMD := webread.Preferred(accept, []string{"text/html", "text/markdown"}) == "text/markdown"
		gotMD := rec.Header().Get("Content-Type") == "text/markdown; charset=utf-8"
		if wantMD != gotMD {
			t.Fatalf("Accept %q: Markdown %t, the scanner expects %t", accept, gotMD, wantMD)
		}
	})
}

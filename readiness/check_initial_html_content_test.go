package readiness

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A short page that runs no script meets R1. The check catalogue's partial
// for initial_html_content is the app shell: "some text but an app shell,
// mostly scripts, < 200 characters". A page without a script cannot be one;
// its content is all in the HTML. The same short page with a script that
// runs is still an app shell.
func TestShortServerRenderedPageMeetsR1(t *testing.T) {
	for _, tc := range []struct {
		name, extra string
		want        Verdict
	}{
		{"no script", "", VerdictPass},
		{"a script that runs", `<script src="/app.js"></script>`, VerdictPartial},
		{"only a JSON-LD data block", `<script type="application/ld+json">{"@type":"Thing"}</script>`, VerdictPass},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mux := http.NewServeMux()
			mux.HandleFunc("/app.js", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/javascript")
				fmt.Fprint(w, "document.body.append('x')")
			})
			mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprintf(w, `<!DOCTYPE html><html lang="en"><head><title>Contact</title></head><body><h1>Contact</h1><p>Write to people@shop.example.</p>%s</body></html>`, tc.extra)
			})
			r := scanWith(t, mux, &Options{MaxPages: -1})
			c := checkByID(r, "initial_html_content")
			assert.Equal(t, tc.want, c.Verdict, c.Receipt.Received)
			r1 := r.Requirements[0]
			assert.Equal(t, "R1", r1.ID)
			assert.Equal(t, tc.want == VerdictPass, r1.Met, r1.Why)
		})
	}
}

package publish_test

import (
	"fmt"
	"html/template"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentweb/agentweb/readiness/publish"
)

// catalogue renders a product page of about 30 KB with html/template, the
// way a Go site's handler does.
func catalogue() http.Handler {
	tmpl := template.Must(template.New("p").Parse(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>{{.Title}}</title></head>
<body><h1>{{.Title}}</h1>{{range .Items}}<article><h2>{{.Name}}</h2><p>{{.Text}}</p><p>Price: {{.Price}} EUR</p></article>
{{end}}</body></html>`))
	type item struct {
		Name, Text string
		Price      int
	}
	var items []item
	for i := range 60 {
		items = append(items, item{fmt.Sprintf("Tea number %d", i), strings.Repeat("A tea with a long story, picked by hand. ", 10), 10 + i})
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		tmpl.Execute(w, map[string]any{"Title": "Our teas", "Items": items})
	})
}

func serveOnce(b *testing.B, h http.Handler, accept string) {
	req := httptest.NewRequest("GET", "https://tea.example/teas", nil)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 200 {
		b.Fatal(rec.Code)
	}
}

// BenchmarkPageOverhead serves the same templated HTML page bare and
// through the kit, interleaved in one run, and reports the kit's cost as a
// ratio of the bare handler's (the target is at most 1.1).
func BenchmarkPageOverhead(b *testing.B) {
	bare := catalogue()
	s := teaSite()
	kit, err := s.Handler(bare)
	if err != nil {
		b.Fatal(err)
	}
	serveOnce(b, kit, "") // fill the page cache, as a running site has
	var tBare, tKit time.Duration
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		serveOnce(b, bare, "")
		t1 := time.Now()
		serveOnce(b, kit, "")
		tKit += time.Since(t1)
		tBare += t1.Sub(t0)
	}
	b.ReportMetric(float64(tKit)/float64(tBare), "x-bare")
}

// BenchmarkMarkdown converts a page of about 100 KB to Markdown: cold
// (every request a new page, so the cache never hits) and cached.
func BenchmarkMarkdown(b *testing.B) {
	para := strings.Repeat("<p>A tea with a long story, picked by hand in the <a href=\"/gardens\">gardens</a>, <em>withered</em> and <strong>rolled</strong>.</p>\n", 800)
	page := "<!DOCTYPE html><html lang=\"en\"><head><title>Big</title></head><body><h1>Big</h1>" + para + "</body></html>"
	for _, mode := range []string{"cold", "cached"} {
		b.Run(mode, func(b *testing.B) {
			n := 0
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				if mode == "cold" {
					n++
					fmt.Fprintf(w, "<!-- %d -->", n)
				}
				fmt.Fprint(w, page)
			})
			s := teaSite()
			s.ConvertTimeout = time.Minute
			kit, err := s.Handler(h)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(page)))
			for b.Loop() {
				serveOnce(b, kit, "text/markdown")
			}
		})
	}
}

// BenchmarkSkillsIndex builds a site with twenty skills: SKILL.md bodies,
// their digests and the discovery index.
func BenchmarkSkillsIndex(b *testing.B) {
	s := publish.Site{Origin: "https://tea.example", Name: "Tea", Description: "Tea.", Contact: publish.Contact{Email: "a@tea.example"}}
	for i := range 20 {
		s.Skills = append(s.Skills, publish.Skill{Name: fmt.Sprintf("skill-%d", i), Description: "Do a thing: well.", Instructions: strings.Repeat("Step.\n", 200)})
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Handler(nil); err != nil {
			b.Fatal(err)
		}
	}
}

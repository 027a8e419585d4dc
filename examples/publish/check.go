package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/agentweb/agentweb/readiness/publish"
)

// documentPaths are the kit's own routes -check asks for; those that do
// not answer 200 (the OpenAPI document of a folder without one) are not
// served and not listed.
var documentPaths = []string{
	"/robots.txt", "/sitemap.xml", "/llms.txt", "/.well-known/agents.json", "/agents.json",
	"/agentic.json", "/agentic.txt", "/openapi.json",
}

// printRoutes asks h, in process, for every document of the kit and every
// page in HTML and in Markdown, and prints one line per route: path,
// status and content type. It returns false when a page does not answer
// 200 in both forms.
func printRoutes(w io.Writer, s *publish.Site, h http.Handler) bool {
	for _, p := range documentPaths {
		if rec := get(h, s, p, ""); rec.Code == http.StatusOK {
			fmt.Fprintf(w, "%-28s %d %s\n", p, rec.Code, rec.Header().Get("Content-Type"))
		}
	}
	ok := true
	for _, pg := range s.Pages {
		for _, accept := range []string{"text/html", "text/markdown"} {
			rec := get(h, s, pg.Path, accept)
			fmt.Fprintf(w, "%-28s %d %s (Accept: %s)\n", pg.Path, rec.Code, rec.Header().Get("Content-Type"), accept)
			ok = ok && rec.Code == http.StatusOK
		}
	}
	return ok
}

func get(h http.Handler, s *publish.Site, path, accept string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, s.Origin+path, nil)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

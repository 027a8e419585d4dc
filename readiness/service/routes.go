package service

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/agentweb/agentweb/readiness/publish"
)

//go:embed static/* openapi.json
var staticFS embed.FS

// routes builds the service's handler. The API, the badges and the event
// streams are served as they are. The pages and the agent documents go
// through the publish kit (package readiness/publish), which makes the
// service agent-ready. The kit serves llms.txt, sitemap, robots.txt, the
// capability card, Markdown forms of the pages, the OpenAPI document and
// the MCP endpoint.
func (s *Service) routes() (http.Handler, error) {
	openapi, err := s.openAPI()
	if err != nil {
		return nil, err
	}
	pages := http.NewServeMux()
	pages.HandleFunc("GET /{$}", s.home)
	pages.HandleFunc("GET /about", s.about)
	pages.HandleFunc("POST /scans", s.postForm)
	pages.HandleFunc("GET /scans/{id}", s.scanPage)
	pages.HandleFunc("GET /sites/{host}", s.sitePage)
	pages.HandleFunc("GET /.well-known/api-catalog", serveAPICatalog(s.apiCatalog()))
	pages.HandleFunc("GET /static/", s.static)
	pages.HandleFunc("/", s.notFound)

	site := &publish.Site{
		Origin:      s.o.Origin,
		Name:        s.o.Name,
		Description: "Scans a website for how ready it is for AI agents, by the agent-readiness scoring method 1.2, and keeps every site's history.",
		Summary: "Agents may start scans (POST /api/scans), read scans and reports (GET /api/scans/{id}), follow a scan's progress as server-sent events, " +
			"and read a site's history and badge. Scans are rate-limited per caller and per scanned site; a recent scan is answered from the cache.",
		Language: "en",
		Contact:  publish.Contact{URL: "/about#contact"},
		Pages: []publish.Page{
			{Path: "/", Title: s.o.Name, Description: "Scan a website for agent readiness: a form that starts a scan."},
			{Path: "/about", Title: "About this scanner", Description: "What the scanner does, its JSON API, its MCP endpoint, its limits and whom to contact."},
		},
		Disallow: []string{"/scans/", "/api/"},
		OpenAPI:  openapi,
	}
	if email, ok := strings.CutPrefix(s.o.Contact, "mailto:"); ok {
		site.Contact.Email = email
	}
	if s.o.MCP != nil {
		site.MCP = &publish.MCP{
			Path: "/mcp", Handler: s.limitMCP(s.o.MCP),
			Name:        "agentweb MCP tools",
			Description: "Validate agent documents, discover a site's, scan a site for agent readiness and probe an MCP endpoint.",
		}
	}
	kit, err := site.Handler(pages)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrOptions, err)
	}

	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/scans", s.postScan)
	mux.HandleFunc("GET /api/scans/{id}", s.getScan)
	mux.HandleFunc("GET /api/scans/{id}/events", s.events)
	mux.HandleFunc("GET /api/sites/{host}", s.getSite)
	mux.HandleFunc("GET /badge/{file}", s.badge)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "not_found", "no such API resource; see /openapi.json")
	})
	mux.Handle("/", kit)
	return mux, nil
}

// static serves the stylesheet and the scan page's script.
func (s *Service) static(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/")
	data, err := staticFS.ReadFile(name)
	if err != nil || strings.Contains(name, "..") {
		s.notFound(w, r)
		return
	}
	ct := "text/css; charset=utf-8"
	if strings.HasSuffix(name, ".js") {
		ct = "text/javascript; charset=utf-8"
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Cache-Control", "public, max-age=3600")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	http.ServeContent(w, r, name, startTime, bytes.NewReader(data))
}

// openAPI returns the OpenAPI document with the service's origin as its
// server.
func (s *Service) openAPI() ([]byte, error) {
	data, err := staticFS.ReadFile("openapi.json")
	if err != nil {
		return nil, err
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("service: openapi.json: %w", err)
	}
	doc["servers"] = []map[string]string{{"url": s.o.Origin}}
	return json.MarshalIndent(doc, "", "  ")
}

// apiCatalog builds the API catalog (RFC 9727): a link set whose one
// entry anchors the API at the origin and points to its OpenAPI
// description, its documentation and, when mounted, the MCP endpoint.
func (s *Service) apiCatalog() []byte {
	type link struct {
		Href string `json:"href"`
		Type string `json:"type,omitempty"`
	}
	entry := map[string]any{
		"anchor":       s.o.Origin + "/api/",
		"service-desc": []link{{Href: s.o.Origin + "/openapi.json", Type: "application/vnd.oai.openapi+json"}},
		"service-doc":  []link{{Href: s.o.Origin + "/about#api", Type: "text/html"}},
	}
	set := []any{entry}
	if s.o.MCP != nil {
		set = append(set, map[string]any{
			"anchor":      s.o.Origin + "/mcp",
			"service-doc": []link{{Href: s.o.Origin + "/about#mcp", Type: "text/html"}},
		})
	}
	data, _ := json.MarshalIndent(map[string]any{"linkset": set}, "", "  ")
	return data
}

// serveAPICatalog serves the catalog that routes built once.
func serveAPICatalog(data []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", `application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"`)
		w.Header().Set("Cache-Control", "public, max-age=3600")
		http.ServeContent(w, r, "", startTime, bytes.NewReader(data))
	}
}

// limitMCP puts the MCP endpoint behind the caller limit of MCPLimit, and
// a tools/call that names a site (an argument "url", "site" or "endpoint")
// behind the target limit of that site.
func (s *Service) limitMCP(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.closing.Load() {
			writeError(w, http.StatusServiceUnavailable, "closing", "the service is shutting down")
			return
		}
		if _, ref := s.take(r.Context(), "mcp:"+s.caller(r), s.o.MCPLimit, "MCP requests of one caller"); ref != nil {
			ref.write(w)
			return
		}
		if r.Method == http.MethodPost {
			data, ref := readBody(w, r, maxBodyBytes)
			if ref != nil {
				ref.write(w)
				return
			}
			targets, more := mcpTargets(data)
			if more {
				// Past maxMCPTargets a site would go uncounted, so the
				// message is refused rather than partly charged.
				writeError(w, http.StatusUnprocessableEntity, "too_many_targets",
					"one message may name at most "+strconv.Itoa(maxMCPTargets)+" sites")
				return
			}
			for _, raw := range targets {
				st, bad := s.parseSite(raw)
				if bad != nil {
					continue // the tool answers for a URL it cannot use
				}
				if _, ref := s.take(r.Context(), "target:"+st.Target, s.o.TargetLimit, "scans of "+st.Target); ref != nil {
					ref.write(w)
					return
				}
			}
			r.Body = io.NopCloser(bytes.NewReader(data))
			r.ContentLength = int64(len(data))
		}
		h.ServeHTTP(w, r)
	})
}

// maxMCPTargets bounds the sites one message to /mcp may name, so that
// charging them costs a bounded number of store writes.
const maxMCPTargets = 8

// mcpTargets returns the site URLs named by the tools/call requests of a
// JSON-RPC message or batch: at most maxMCPTargets, and more is true when
// the message names others past them.
func mcpTargets(data []byte) (targets []string, more bool) {
	type call struct {
		Method string `json:"method"`
		Params struct {
			Arguments map[string]any `json:"arguments"`
		} `json:"params"`
	}
	var calls []call
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '[' {
		_ = json.Unmarshal(data, &calls)
	} else {
		var c call
		if json.Unmarshal(data, &c) == nil {
			calls = append(calls, c)
		}
	}
	var out []string
	for _, c := range calls {
		if c.Method != "tools/call" {
			continue
		}
		for _, k := range []string{"url", "site", "endpoint"} {
			if v, ok := c.Params.Arguments[k].(string); ok && v != "" {
				out = append(out, v)
			}
		}
	}
	if len(out) > maxMCPTargets {
		return out[:maxMCPTargets], true
	}
	return out, false
}

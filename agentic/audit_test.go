package agentic

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

const auditOpenAPI = `{"openapi":"3.1.0","info":{"title":"Shop API"},"paths":{"/orders":{"get":{"operationId":"listOrders"},"post":{}}}}`

// publishShop serves shop.json (testdata/valid) with Handler, its OpenAPI
// document, and a home page; mutate changes the mux before it is served.
func publishShop(t *testing.T, mutate func(mux map[string]http.Handler, s *Site)) (*fetchtest.Network, *Site) {
	t.Helper()
	s, err := ParseSite(readFile(t, "testdata/valid/shop.json"))
	require.NoError(t, err)
	h, err := Handler(s, nil)
	require.NoError(t, err)
	mux := map[string]http.Handler{
		"/": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", htmlType)
			_, _ = w.Write([]byte("<title>Shop</title>"))
		}),
		"/agentic.json": h,
		"/agentic.txt":  h,
		"/openapi.json": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(auditOpenAPI))
		}),
	}
	if mutate != nil {
		mutate(mux, s)
	}
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("shop.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h, ok := mux[r.URL.Path]; ok {
			h.ServeHTTP(w, r)
			return
		}
		http.NotFound(w, r)
	}))
	n.Site("mcp.partner.example", http.NotFoundHandler())
	return n, s
}

func checkStatus(rep *AuditReport, id string) []CheckStatus {
	var out []CheckStatus
	for _, c := range rep.Checks {
		if c.ID == id {
			out = append(out, c.Status)
		}
	}
	return out
}

func TestAuditPublishedPair(t *testing.T) {
	n, s := publishShop(t, nil)
	rep, err := Audit(t.Context(), "https://shop.example/agentic.json", &AuditOptions{Client: n.Client()})
	require.NoError(t, err)
	assert.True(t, rep.Valid)
	assert.True(t, rep.Structure)
	assert.Equal(t, s, rep.Profile)
	assert.Equal(t, TextStatusMatched, rep.TextIndex.Status)
	assert.Equal(t, "1.1", rep.TextIndex.Detail.Version)
	assert.NotEmpty(t, rep.Provenance.ETag)
	assert.Equal(t, []CheckStatus{CheckStatusPass}, checkStatus(rep, "origin"))
	assert.Equal(t, []CheckStatus{CheckStatusPass}, checkStatus(rep, "openapi-index"))
	assert.Equal(t, []CheckStatus{CheckStatusInfo}, checkStatus(rep, "linked"))
	require.Len(t, rep.Documents, 2)
	assert.Equal(t, "https://shop.example/openapi.json", rep.Documents[0].URL, "OpenAPI first")
	assert.Equal(t, 2, rep.Documents[0].Indexed)
	assert.Zero(t, n.Requests("mcp.partner.example"), "linked protocols are never invoked")
	assert.Equal(t, 4, n.Requests("shop.example"))
	for _, c := range rep.Checks {
		assert.NotEmpty(t, c.Message)
	}
}

func TestAuditFindings(t *testing.T) {
	tests := []struct {
		name      string
		mutate    func(mux map[string]http.Handler, s *Site)
		opts      AuditOptions
		valid     bool
		text      TextStatus
		failing   string
		structure bool
	}{
		{"txt missing", func(mux map[string]http.Handler, s *Site) {
			mux["/agentic.txt"] = http.NotFoundHandler()
		}, AuditOptions{}, true, TextStatusMissing, "", true},
		{"txt mismatch", func(mux map[string]http.Handler, s *Site) {
			mux["/agentic.txt"] = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				txt, _ := s.Text("")
				w.Header().Set("Content-Type", textMediaType)
				_, _ = w.Write([]byte(strings.Replace(string(txt), `"Shop"`, `"Other"`, 1)))
			})
		}, AuditOptions{}, true, TextStatusMismatch, "text-index", true},
		{"txt unavailable", func(mux map[string]http.Handler, s *Site) {
			mux["/agentic.txt"] = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(500) })
		}, AuditOptions{}, true, TextStatusUnavailable, "", true},
		{"txt skipped", nil, AuditOptions{SkipText: true}, true, TextStatusSkipped, "", true},
		{"operation gone from the live document", func(mux map[string]http.Handler, s *Site) {
			mux["/openapi.json"] = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = w.Write([]byte(`{"openapi":"3.1.0","paths":{"/orders":{"get":{}}}}`))
			})
		}, AuditOptions{}, false, TextStatusMatched, "openapi-index", true},
		{"retrieved document gone", func(mux map[string]http.Handler, s *Site) {
			mux["/openapi.json"] = http.NotFoundHandler()
		}, AuditOptions{}, false, TextStatusMatched, "document", true},
		{"invalid profile", func(mux map[string]http.Handler, s *Site) {
			mux["/agentic.json"] = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = w.Write([]byte(`{"agentic":"1.1.0","type":"site"}`))
			})
		}, AuditOptions{}, false, TextStatusMismatch, "structure", false},
		{"profile missing", func(mux map[string]http.Handler, s *Site) {
			mux["/agentic.json"] = http.NotFoundHandler()
		}, AuditOptions{}, false, TextStatusMatched, "fetch", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n, _ := publishShop(t, tc.mutate)
			tc.opts.Client = n.Client()
			rep, err := Audit(t.Context(), "https://shop.example/agentic.json", &tc.opts)
			switch tc.name {
			case "invalid profile":
				var ve *ValidationError
				require.ErrorAs(t, err, &ve, "an invalid profile is a *ValidationError, as in every spec package")
				assert.ErrorIs(t, err, ErrInvalid)
				assert.Equal(t, rep.Problems, ve.Problems)
			case "profile missing":
				require.ErrorIs(t, err, safefetch.ErrNotFound, "nothing published, as in every spec package")
				var se *safefetch.StatusError
				require.ErrorAs(t, err, &se)
				assert.Equal(t, http.StatusNotFound, se.StatusCode)
				assert.Equal(t, http.StatusNotFound, rep.StatusCode)
			default:
				require.NoError(t, err)
			}
			require.NotNil(t, rep)
			assert.Equal(t, tc.valid, rep.Valid, "checks: %+v", rep.Checks)
			assert.Equal(t, tc.structure, rep.Structure)
			if tc.name != "profile missing" {
				assert.Equal(t, tc.text, rep.TextIndex.Status)
			}
			if tc.failing != "" {
				assert.Contains(t, checkStatus(rep, tc.failing), CheckStatusFail)
			}
		})
	}
}

// serveShopJSON serves the JSON of shop.json (testdata/valid) at every path
// of host, without Handler, on a network closed with the test.
func serveShopJSON(t *testing.T, host string) *fetchtest.Network {
	t.Helper()
	s, err := ParseSite(readFile(t, "testdata/valid/shop.json"))
	require.NoError(t, err)
	js, err := s.JSON()
	require.NoError(t, err)
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site(host, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", jsonMediaType)
		_, _ = w.Write(js)
	}))
	return n
}

func TestAuditOriginMismatch(t *testing.T) {
	n := serveShopJSON(t, "mirror.example")
	rep, err := Audit(t.Context(), "https://mirror.example/agentic.json", &AuditOptions{Client: n.Client()})
	require.NoError(t, err)
	assert.True(t, rep.Structure)
	assert.False(t, rep.Valid)
	assert.Equal(t, []CheckStatus{CheckStatusFail}, checkStatus(rep, "origin"))
	assert.Equal(t, TextStatusMismatch, rep.TextIndex.Status, "the TXT cannot be generated for another origin")
	assert.Zero(t, n.Requests("shop.example"))
}

func TestAuditRefusesProfileURL(t *testing.T) {
	for _, u := range []string{"http://shop.example/agentic.json", "https://localhost/agentic.json", "https://shop.example/agentic.json?x", "https://u:p@shop.example/agentic.json", "https://shop.example/agentic.json#a"} {
		_, err := Audit(t.Context(), u, nil)
		assert.ErrorIs(t, err, ErrProfileURL, u)
	}
}

// TestAuditCountsProblemsInEnglish: a profile with one problem is "(1
// problem)", never "(1 problems)".
func TestAuditCountsProblemsInEnglish(t *testing.T) {
	var doc map[string]any
	require.NoError(t, json.Unmarshal(readFile(t, "testdata/valid/shop.json"), &doc))
	delete(doc, "name")
	one, err := json.Marshal(doc)
	require.NoError(t, err)
	_, err = ParseSite(one)
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	require.Len(t, ve.Problems, 1, "%v", ve)
	n, _ := publishShop(t, func(mux map[string]http.Handler, s *Site) {
		mux["/agentic.json"] = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write(one) })
	})
	rep, err := Audit(t.Context(), "https://shop.example/agentic.json", &AuditOptions{Client: n.Client()})
	require.ErrorIs(t, err, ErrInvalid)
	var msgs []string
	for _, c := range rep.Checks {
		if c.ID == "structure" {
			msgs = append(msgs, c.Message)
		}
	}
	assert.Equal(t, []string{"the profile is not a valid Site Profile 1.1 (1 problem)"}, msgs)
}

func TestAuditSameProfileURLSpellingsAuditTheSame(t *testing.T) {
	n, _ := publishShop(t, nil)
	ref, err := Audit(t.Context(), "https://shop.example/agentic.json", &AuditOptions{Client: n.Client()})
	require.NoError(t, err)
	summary := func(rep *AuditReport) []string {
		out := []string{rep.ProfileURL, rep.ServingOrigin, string(rep.TextIndex.Status), rep.TextIndex.URL}
		for _, c := range rep.Checks {
			out = append(out, c.ID+" "+string(c.Status))
		}
		for _, d := range rep.Documents {
			out = append(out, d.URL)
		}
		return out
	}
	for _, profile := range []string{"https://shop.example:443/agentic.json", "https://SHOP.example./agentic.json", "HTTPS://Shop.Example.:443/agentic.json"} {
		t.Run(profile, func(t *testing.T) {
			rep, err := Audit(t.Context(), profile, &AuditOptions{Client: n.Client()})
			require.NoError(t, err)
			assert.Equal(t, "https://shop.example/agentic.json", rep.ProfileURL, "the report states the normalized URL")
			assert.Equal(t, summary(ref), summary(rep))
			assert.Equal(t, ref.Valid, rep.Valid)
		})
	}
}

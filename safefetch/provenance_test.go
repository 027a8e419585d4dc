package safefetch_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

func TestGetDocument(t *testing.T) {
	n := fetchtest.New()
	defer n.Close()
	n.Site("docs.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/doc.json":
			w.Header().Set("ETag", `"v1"`)
			w.Header().Set("Last-Modified", "Mon, 30 Nov 2026 10:00:00 GMT")
			if r.Header.Get("If-None-Match") == `"v1"` {
				w.WriteHeader(http.StatusNotModified)
				return
			}
			w.Header().Set("Content-Type", "application/linkset+json; charset=utf-8")
			w.Write([]byte(`{}`))
		case "/moved":
			http.Redirect(w, r, "/doc.json", http.StatusFound)
		case "/gone":
			w.WriteHeader(http.StatusGone)
		case "/teapot":
			w.WriteHeader(http.StatusTeapot)
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<p>hi</p>`))
		}
	}))
	c := n.Client()
	ctx := context.Background()

	resp, p, err := c.GetDocument(ctx, "https://docs.example/moved", &safefetch.DocumentRequest{Accept: "application/linkset+json", MediaTypes: []string{"+json"}})
	require.NoError(t, err)
	assert.Equal(t, "https://docs.example/moved", p.URL)
	assert.Equal(t, "https://docs.example/doc.json", p.FinalURL)
	assert.Equal(t, []string{"https://docs.example/doc.json"}, p.Redirects)
	assert.Equal(t, 200, p.StatusCode)
	assert.Equal(t, `"v1"`, p.ETag)
	assert.Equal(t, "Mon, 30 Nov 2026 10:00:00 GMT", p.LastModified)
	assert.False(t, p.Retrieved.IsZero())
	assert.False(t, p.NotModified)
	assert.Equal(t, "application/linkset+json", resp.RequestHeader.Get("Accept"))

	resp, p2, err := c.GetDocument(ctx, "https://docs.example/doc.json", &safefetch.DocumentRequest{Previous: &p})
	require.NoError(t, err)
	assert.Equal(t, `"v1"`, resp.RequestHeader.Get("If-None-Match"))
	assert.Equal(t, "Mon, 30 Nov 2026 10:00:00 GMT", resp.RequestHeader.Get("If-Modified-Since"))
	assert.True(t, p2.NotModified)
	assert.Equal(t, 304, p2.StatusCode)
	assert.Equal(t, "application/linkset+json; charset=utf-8", p2.ContentType, "a 304 keeps the cached media type")

	// A 304 without a conditional request is just an unexpected status.
	_, _, err = c.GetDocument(ctx, "https://docs.example/gone", nil)
	var se *safefetch.StatusError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, 410, se.StatusCode)
	assert.ErrorIs(t, err, safefetch.ErrStatus)
	assert.ErrorIs(t, err, safefetch.ErrNotFound)
	_, _, err = c.GetDocument(ctx, "https://docs.example/teapot", nil)
	assert.ErrorIs(t, err, safefetch.ErrStatus)
	assert.NotErrorIs(t, err, safefetch.ErrNotFound)
	assert.EqualError(t, err, "safefetch: https://docs.example/teapot: unexpected status 418")

	_, _, err = c.GetDocument(ctx, "https://docs.example/page", &safefetch.DocumentRequest{MediaTypes: []string{"application/json", "+json"}})
	var ce *safefetch.ContentTypeError
	require.ErrorAs(t, err, &ce)
	assert.ErrorIs(t, err, safefetch.ErrContentType)
	assert.Equal(t, "text/html", ce.Got)
	assert.EqualError(t, err, `safefetch: https://docs.example/page: content type "text/html", want application/json or +json`)

	_, _, err = c.GetDocument(ctx, "http://docs.example/", nil)
	assert.ErrorIs(t, err, safefetch.ErrForbiddenURL)
}

func TestMediaTypeIs(t *testing.T) {
	for _, tt := range []struct {
		ct   string
		want []string
		ok   bool
	}{
		{"application/json", []string{"application/json"}, true},
		{"Application/JSON; charset=utf-8", []string{"application/json"}, true},
		{"application/linkset+json", []string{"+json"}, true},
		{"application/linkset+json", []string{"application/json"}, false},
		{"+json", []string{"+json"}, false},
		{"", []string{"application/json"}, false},
		{"text/html;;", []string{"text/html"}, false},
	} {
		assert.Equal(t, tt.ok, safefetch.MediaTypeIs(tt.ct, tt.want...), tt.ct)
	}
}

func TestProvenanceConditional(t *testing.T) {
	var p *safefetch.Provenance
	assert.Nil(t, p.Conditional(nil))
	assert.Nil(t, (&safefetch.Provenance{}).Conditional(nil))
	h := (&safefetch.Provenance{ETag: `W/"x"`}).Conditional(nil)
	assert.Equal(t, `W/"x"`, h.Get("If-None-Match"))
	assert.Empty(t, h.Get("If-Modified-Since"))
}

// The nil-Client path of the module means one shared Client: three fetches
// through it reuse one connection, and so do the Clients derived from it
// with a budget or a redirect policy, as the packages' runs derive them.
// Every package tests its own nil-Client path by identity with Default.
func TestDefaultReusesConnections(t *testing.T) {
	d1, d2 := safefetch.Default(), safefetch.Default()
	assert.Same(t, d1, d2)
	assert.Same(t, d1, safefetch.OrDefault(nil))
	own := safefetch.New(nil)
	assert.Same(t, own, safefetch.OrDefault(own))

	n := fetchtest.New()
	defer n.Close()
	n.Site("reuse.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	restore := safefetch.SetDefaultForTest(n.Client())
	defer restore()
	for _, c := range []*safefetch.Client{
		safefetch.OrDefault(nil),
		safefetch.Default().WithBudget(safefetch.NewBudget(safefetch.BudgetLimits{Attempts: 4})),
		safefetch.Default().WithRedirectPolicy(safefetch.SameOriginOrWWW),
	} {
		_, _, err := c.GetDocument(context.Background(), "https://reuse.example/", nil)
		require.NoError(t, err)
	}
	assert.Equal(t, 3, n.Requests("reuse.example"))
	assert.Equal(t, 1, n.Dials(n.Addr("reuse.example")))
	restore()
	assert.Same(t, d1, safefetch.Default())
}

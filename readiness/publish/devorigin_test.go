package publish_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/readiness/publish"
	"github.com/agentweb/agentweb/safefetch"
)

// The kit runs on a development origin: Handler builds no Agentic Site
// Profile there (none can be valid on http, another port or a loopback
// host), instead of failing with a problem for every URL of it, and the
// site it serves scans on loopback like any other.
func TestKitOnDevelopmentOrigin(t *testing.T) {
	s := teaSite()
	origin, client, get := serveOnLoopback(t, &s, plainPages())
	code, _ := get("/agentic.json")
	assert.Equal(t, http.StatusNotFound, code, "no profile where none can be valid")
	code, card := get("/.well-known/agents.json")
	assert.Equal(t, http.StatusOK, code)
	assert.NotContains(t, card, "agentic.json", "the card names no profile")
	code, llms := get("/llms.txt")
	assert.Equal(t, http.StatusOK, code)
	assert.NotContains(t, llms, "agentic.json")
	assert.Contains(t, llms, origin+"/teas")

	rep, err := readiness.Scan(context.Background(), origin+"/", &readiness.Options{Client: client})
	require.NoError(t, err)
	for _, c := range rep.Checks {
		assert.NotEqual(t, readiness.VerdictUnverified, c.Verdict, "%s: %s", c.ID, c.Receipt.Received)
	}
	assert.Equal(t, readiness.VerdictOptional, checkOf(rep, "agentic_site_profile").Verdict)
	assert.Contains(t, checkOf(rep, "agentic_site_profile").Receipt.Received, "absent")

	// On the public origin the same facts build a valid profile.
	pub := teaSite()
	ph, err := pub.Handler(plainPages())
	require.NoError(t, err)
	rec := httptest.NewRecorder()
	ph.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "https://tea.example/agentic.json", nil))
	body, _ := io.ReadAll(rec.Result().Body)
	assert.Equal(t, http.StatusOK, rec.Code, "%s", body)
}

// serveOnLoopback serves s, its origin set to a loopback development
// origin, around pages, and returns that origin, a client allowed to reach
// it, and a GET of a path there.
func serveOnLoopback(t *testing.T, s *publish.Site, pages http.Handler) (string, *safefetch.Client, func(path string) (int, string)) {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	origin := "http://" + srv.Listener.Addr().String()
	s.Origin = origin
	h, err := s.Handler(pages)
	require.NoError(t, err, "a development origin is not refused")
	srv.Config.Handler = h
	srv.Start()
	t.Cleanup(srv.Close)
	client := safefetch.New(&safefetch.Options{AllowLoopback: true})
	return origin, client, func(path string) (int, string) {
		resp, err := client.Get(context.Background(), origin+path, nil)
		require.NoError(t, err)
		return resp.StatusCode, string(resp.Body)
	}
}

func checkOf(r *readiness.Report, id string) readiness.CheckResult {
	for _, c := range r.Checks {
		if c.ID == id {
			return c
		}
	}
	return readiness.CheckResult{}
}

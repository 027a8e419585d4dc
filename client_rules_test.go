package agentweb_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"reflect"
	"testing"

	"github.com/agentweb/agentweb/agentic"
	"github.com/agentweb/agentweb/agentsignup"
	"github.com/agentweb/agentweb/examples/demo/demosite"
	"github.com/agentweb/agentweb/linkset"
	"github.com/agentweb/agentweb/openagent"
	"github.com/agentweb/agentweb/safefetch"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// clientEntry is one spec package's client entry point, as a new user
// calls it on a site's origin: the result (whatever it returned) and the
// error.
type clientEntry struct {
	name string
	read func(ctx context.Context, c *safefetch.Client, origin string) (any, error)
}

var clientEntries = []clientEntry{
	{"agentic.Audit", func(ctx context.Context, c *safefetch.Client, origin string) (any, error) {
		return agentic.Audit(ctx, origin+"/agentic.json", &agentic.AuditOptions{Client: c, SkipText: true})
	}},
	{"openagent.Discover+Fetch", func(ctx context.Context, c *safefetch.Client, origin string) (any, error) {
		d, err := openagent.Discover(ctx, origin+"/", &openagent.FetchOptions{Client: c})
		if err != nil {
			return d, err
		}
		return d.Fetch(ctx, d.URLs()[0], &openagent.FetchOptions{Client: c})
	}},
	{"linkset.Discover", func(ctx context.Context, c *safefetch.Client, origin string) (any, error) {
		return linkset.Discover(ctx, origin+"/", &linkset.FetchOptions{Client: c})
	}},
	{"agentsignup.Fetch", func(ctx context.Context, c *safefetch.Client, origin string) (any, error) {
		return agentsignup.Fetch(ctx, origin, &agentsignup.FetchOptions{Client: c})
	}},
}

// TestOneAnswerPerSituation is the client table of the root documentation
// ("One answer per situation"), run over the four spec packages on three
// sites: one that publishes nothing, one whose every document is invalid,
// and Example Shop, which publishes them all. Each row has one answer.
func TestOneAnswerPerSituation(t *testing.T) {
	site, err := demosite.Start(nil)
	require.NoError(t, err)
	t.Cleanup(site.Close)
	n := site.Network
	n.Site("nothing.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write([]byte("<!doctype html><title>nothing</title>"))
	}))
	n.Site("invalid.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			_, _ = w.Write([]byte("<!doctype html><title>invalid</title>"))
		case linkset.WellKnownPath:
			w.Header().Set("Content-Type", linkset.MediaType+`; profile="`+linkset.ProfileURI+`"`)
			_, _ = w.Write([]byte(`{"linkset":"not an array"}`))
		default:
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"name": 1}`))
		}
	}))
	c := site.Client()
	ctx := t.Context()

	for _, e := range clientEntries {
		t.Run(e.name, func(t *testing.T) {
			t.Run("nothing published", func(t *testing.T) {
				_, err := e.read(ctx, c, "https://nothing.example")
				require.ErrorIs(t, err, safefetch.ErrNotFound)
				var se *safefetch.StatusError
				require.ErrorAs(t, err, &se, "the status travels in the error")
				assert.Equal(t, http.StatusNotFound, se.StatusCode)
			})
			t.Run("invalid document", func(t *testing.T) {
				got, err := e.read(ctx, c, "https://invalid.example")
				var ve *agentic.ValidationError // one type across the four packages
				require.ErrorAs(t, err, &ve)
				assert.NotEmpty(t, ve.Problems)
				assert.False(t, reflect.ValueOf(got).IsNil(), "the result comes with the error")
			})
			t.Run("valid document", func(t *testing.T) {
				got, err := e.read(ctx, c, "https://"+site.Host)
				require.NoError(t, err)
				v := reflect.ValueOf(got).Elem()
				f, ok := v.Type().FieldByName("Provenance")
				require.True(t, ok, "%s embeds safefetch.Provenance", v.Type())
				assert.True(t, f.Anonymous, "%s embeds safefetch.Provenance", v.Type())
				p := v.FieldByName("Provenance").Interface().(safefetch.Provenance)
				assert.Equal(t, http.StatusOK, p.StatusCode)
				assert.NotZero(t, p.Retrieved)
			})
		})
	}

	t.Run("a refused address is ErrForbiddenAddress everywhere", func(t *testing.T) {
		for _, e := range clientEntries {
			_, err := e.read(ctx, safefetch.New(nil), "https://127.0.0.1")
			assert.True(t, errors.Is(err, safefetch.ErrForbiddenAddress), "%s: %v", e.name, err)
		}
	})
}

// TestOneWordingPerRuleAcrossPackages: the same mistake (an http URL where
// https is required) is worded the same by agentic and agentsignup, and
// every problem of either cites its section.
func TestOneWordingPerRuleAcrossPackages(t *testing.T) {
	var site map[string]any
	require.NoError(t, json.Unmarshal(must(os.ReadFile("agentic/testdata/valid/shop.json")), &site))
	site["resources"].([]any)[0].(map[string]any)["url"] = "http://shop.example/docs"
	_, err := agentic.ParseSite(must(json.Marshal(site)))
	a := httpsMessage(t, err)

	var doc map[string]any
	require.NoError(t, json.Unmarshal(must(os.ReadFile("agentsignup/testdata/agent-signup-example.json")), &doc))
	doc["terms"].(map[string]any)["url"] = "http://shop.example/docs"
	_, err = agentsignup.Parse(must(json.Marshal(doc)))
	b := httpsMessage(t, err)
	assert.Equal(t, `"http://shop.example/docs" is not an https URL`, a)
	assert.Equal(t, a, b, "one wording for url-https")
}

func httpsMessage(t *testing.T, err error) string {
	t.Helper()
	var ve *agentic.ValidationError
	require.ErrorAs(t, err, &ve)
	msg := ""
	for _, p := range ve.Problems {
		assert.NotEmpty(t, p.Section, "%s cites a section", p)
		if p.Rule == agentic.RuleURLHTTPS {
			msg = p.Message
		}
	}
	require.NotEmpty(t, msg, "a url-https problem: %v", ve)
	return msg
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

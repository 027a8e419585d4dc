package agentic

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

func TestDiscoverExistingProfiles(t *testing.T) {
	site := readFile(t, "testdata/valid/shop.json")
	action := readFile(t, "testdata/action/tickets.json")
	tests := []struct {
		name        string
		host        string
		pages       map[string]page
		profileURL  string
		wantOutcome Outcome
		wantProfile string
		wantJSON    []byte
	}{
		{"root site profile kept", "shop.example", map[string]page{
			"/agentic.json":    {ctype: "application/json", body: string(site)},
			"/v2/agentic.json": {ctype: "application/json", body: "{}"},
			"/":                {ctype: htmlType, body: `<a href="/v2/agentic.json">v2</a>`},
		}, "", OutcomeExistingSite, "https://shop.example/agentic.json", nil},
		{"action profile preserved", "support.example", map[string]page{
			"/agentic.json": {ctype: "application/json", body: string(action)},
		}, "", OutcomeExistingAction, "https://support.example/agentic.json", action},
		{"nested profile when the root is missing", "shop.example", map[string]page{
			"/":                {ctype: htmlType, body: `<a href="/v2/agentic.json">profile</a>`},
			"/v2/agentic.json": {ctype: "application/json", body: string(site)},
		}, "", OutcomeExistingSite, "https://shop.example/v2/agentic.json", nil},
		{"explicit nested profile", "shop.example", map[string]page{
			"/agentic.json":    {ctype: "application/json", body: `{"agentic":"1.1.0"}`},
			"/v2/agentic.json": {ctype: "application/json", body: string(site)},
		}, "https://shop.example/v2/agentic.json", OutcomeExistingSite, "https://shop.example/v2/agentic.json", nil},
		{"invalid root replaced", "shop.example", map[string]page{
			"/agentic.json":     {ctype: "application/json", body: `{"agentic":"1.1.0"}`},
			"/":                 {ctype: htmlType, body: `<title>Shop</title><a href="/old/agentic.json">old profile</a>`},
			"/old/agentic.json": {ctype: "application/json", body: `{"agentic":"1.1.0","type":"site"}`},
		}, "", OutcomeGenerated, "https://shop.example/agentic.json", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := fetchtest.New()
			t.Cleanup(n.Close)
			n.Site(tc.host, siteHandler(tc.pages))
			d, err := Discover(t.Context(), "https://"+tc.host+"/", &DiscoverOptions{Client: n.Client(), ProfileURL: tc.profileURL})
			require.NoError(t, err)
			assert.Equal(t, tc.wantOutcome, d.Outcome)
			assert.Equal(t, tc.wantProfile, d.ProfileURL)
			if tc.wantJSON != nil {
				assert.Equal(t, tc.wantJSON, d.JSON, "byte for byte")
				assert.True(t, strings.HasPrefix(string(d.Text), "# Agentic action index\n"))
			}
			if d.Site != nil {
				assert.Equal(t, TextStatusMatched, CheckText(d.Site, d.ProfileURL, d.Text))
			}
			assert.NotEmpty(t, d.Report.Notes)
			for _, b := range d.Report.Bindings {
				if b.Status == BindingStatusNotOpenAPI3 {
					assert.NotContains(t, b.Document, "agentic.json", "a profile is never read as an OpenAPI document")
				}
			}
			dir := filepath.Join(t.TempDir(), "out")
			require.NoError(t, d.WriteDir(dir))
		})
	}
}

func TestDiscoverRegenerate(t *testing.T) {
	site := readFile(t, "testdata/valid/shop.json")
	action := readFile(t, "testdata/action/tickets.json")
	openapi := `{"openapi":"3.1.0","info":{"title":"Shop API","version":"1"},"paths":{"/orders":{"get":{"operationId":"listOrders"},"post":{"operationId":"createOrder"}}}}`
	shopPages := func(profile []byte) map[string]page {
		return map[string]page{
			"/agentic.json": {ctype: "application/json", body: string(profile)},
			"/": {ctype: htmlType, body: `<html><head><title>Shop today</title><meta name="description" content="Shop sells new things.">
				<link rel="service-desc" type="application/openapi+json" href="/openapi.json"></head>
				<body><a href="/docs/guide.md">Guide docs</a> <a href="/v2/agentic.json">v2 profile</a></body></html>`},
			"/openapi.json":    {ctype: "application/json", body: openapi},
			"/docs/guide.md":   {ctype: "text/markdown", body: "# Guide\n"},
			"/v2/agentic.json": {ctype: "application/json", body: string(site)},
		}
	}
	tests := []struct {
		name         string
		host         string
		pages        map[string]page
		profileURL   string
		wantExisting Outcome // Outcome of the reported existing profile; "" for none
	}{
		{"valid root site profile", "shop.example", shopPages(site), "", OutcomeExistingSite},
		{"named site profile", "shop.example", shopPages(site), "https://shop.example/v2/agentic.json", OutcomeExistingSite},
		{"no profile: nested ones are not read", "shop.example", func() map[string]page {
			p := shopPages(site)
			delete(p, "/agentic.json")
			return p
		}(), "", ""},
		{"action profile", "support.example", map[string]page{
			"/agentic.json": {ctype: "application/json", body: string(action)},
			"/":             {ctype: htmlType, body: `<title>Support</title>`},
		}, "", OutcomeExistingAction},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := fetchtest.New()
			t.Cleanup(n.Close)
			n.Site(tc.host, siteHandler(tc.pages))
			origin := "https://" + tc.host
			wantProfile := origin + "/agentic.json"
			if tc.profileURL != "" {
				wantProfile = tc.profileURL
			}

			// Without Regenerate the published profile is kept (the control).
			if tc.wantExisting != "" {
				kept, err := Discover(t.Context(), origin+"/", &DiscoverOptions{Client: n.Client(), ProfileURL: tc.profileURL})
				require.NoError(t, err)
				assert.Equal(t, tc.wantExisting, kept.Outcome)
				assert.Nil(t, kept.Report.Existing)
			}

			n.ResetRequests()
			d, err := Discover(t.Context(), origin+"/", &DiscoverOptions{Client: n.Client(), ProfileURL: tc.profileURL, Regenerate: true})
			require.NoError(t, err)
			assert.Equal(t, OutcomeGenerated, d.Outcome)
			assert.Equal(t, OutcomeGenerated, d.Report.Outcome)
			assert.Equal(t, wantProfile, d.ProfileURL, "the new profile replaces the old one at its URL")
			require.NotNil(t, d.Site)
			assert.Nil(t, d.Action)
			require.NoError(t, d.Site.Validate())
			assert.Equal(t, origin, d.Site.Origin)
			assert.Equal(t, TextStatusMatched, CheckText(d.Site, d.ProfileURL, d.Text))
			for _, r := range d.Site.Resources {
				assert.NotEqual(t, KindAgentic, r.Kind, "a profile is not a resource of the regenerated one: %s", r.URL)
			}
			for _, rq := range d.Report.Requests {
				if tc.profileURL == "" {
					assert.NotEqual(t, origin+"/v2/agentic.json", rq.URL, "nested profiles are not read")
				}
			}

			if tc.wantExisting == "" {
				assert.Nil(t, d.Report.Existing)
				return
			}
			require.NotNil(t, d.Report.Existing)
			ex := d.Report.Existing
			assert.Equal(t, wantProfile, ex.URL)
			assert.Equal(t, tc.wantExisting, ex.Outcome)
			assert.Equal(t, tc.wantExisting == OutcomeExistingSite, ex.Site != nil)
			assert.Equal(t, tc.wantExisting == OutcomeExistingAction, ex.Action != nil)
			assert.NotEqual(t, tc.pages[strings.TrimPrefix(wantProfile, origin)].body, string(d.JSON))
			notes := strings.Join(d.Report.Notes, "\n")
			assert.Contains(t, notes, "Regenerate was asked")

			var rep map[string]any
			b, err := json.Marshal(d.Report)
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(b, &rep))
			assert.Equal(t, map[string]any{"url": wantProfile, "outcome": string(tc.wantExisting)}, rep["existing"])

			if tc.host == "shop.example" {
				// Built from what the site publishes now, not from the old profile.
				assert.Equal(t, "Shop today", d.Site.Name)
				assert.Equal(t, "Shop sells new things.", d.Site.Description)
				require.Len(t, d.Site.APIs, 1)
				assert.Len(t, d.Site.APIs[0].Operations, 2)
				assert.NotEqual(t, ex.Site.Name, d.Site.Name)
			}
		})
	}
}

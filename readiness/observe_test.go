package readiness

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// observationCase is a site's documents and what one observation must make
// of them.
type observationCase struct {
	name  string
	id    string
	paths map[string]http.HandlerFunc
	want  ObservationStatus
	check func(t *testing.T, o Observation)
}

// TestObservations runs every observation's cases found, absent, malformed
// and hostile, one scan each on the fake internet. Each observation keeps
// its cases beside its code.
func TestObservations(t *testing.T) {
	tests := slices.Concat(
		agentSkillsCases(t),
		aiCatalogCases(t),
		documentContractsCases(t),
		contentSignalsCases(t),
		webBotAuthCases(t),
		authMDCases(t),
		x402Cases(t),
		ucpCases(t),
		acpCases(t),
		llmsTxtLinksCases(t),
		markdownTwinCases(t),
	)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			r := scanWith(t, overrides{ts: &testSite{host: "shop.example"}, paths: tc.paths}, nil)
			assert.Less(t, time.Since(start), 8*time.Second, "a hostile document ends within the scan's bounds")
			require.Len(t, r.Observations, len(observers))
			o := observationByID(r, tc.id)
			assert.Equal(t, tc.want, o.Status, "%s: %s %q", tc.id, o.Receipt.Received, o.Receipt.Notes)
			assert.Equal(t, o.Status == ObservationFound || o.Status == ObservationInvalid, o.Found)
			assert.NotEmpty(t, o.Receipt.Expected)
			assert.NotEmpty(t, o.Receipt.Received)
			assert.NotEmpty(t, o.Meaning)
			assert.NotEmpty(t, o.Text.URL)
			assert.NotEmpty(t, o.Text.Status)
			if tc.check != nil {
				tc.check(t, o)
			}
		})
	}
}

// obsSite is a well-made site that publishes every observation.
func obsSite(t testing.TB) http.Handler {
	return overrides{ts: &testSite{host: "shop.example"}, paths: map[string]http.HandlerFunc{
		"/.well-known/agent-skills/index.json":           text("application/json", skillsIndexJSON(skillMD, "order-gear")),
		"/.well-known/agent-skills/order-gear/SKILL.md":  text("text/markdown", skillMD),
		"/.well-known/http-message-signatures-directory": text(webBotAuthMedia, `{"keys": [`+ed25519JWK(t)+`]}`),
		"/auth.md":                     text("text/markdown", "# auth.md\n\nRegister at /agent/auth.\n"),
		"/.well-known/ucp":             text("application/json", `{"ucp": {"version": "2026-01-11", "services": {}, "capabilities": []}}`),
		"/.well-known/acp.json":        text("application/json", `{"protocol": "acp"}`),
		"/.well-known/ai-catalog.json": text("application/json", ardExample(t)),
		"/index.md":                    text("text/markdown", "# Example Shop\n"),
		"/robots.txt":                  text("text/plain", "User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n"),
		"/premium":                     paymentRequired("", "application/json", x402V1),
		"/llms.txt":                    text("text/plain", "# Example Shop\n\n> Outdoor gear, shipped within the EU.\n\n- [Products](/products): what we sell\n- [Premium](/premium): paid guides\n"),
	}}
}

// Observations never change a verdict, a section, a requirement or the
// score. One site that publishes all of them is scanned with and without
// them. A third scan has a budget that runs out when the checks are done.
func TestObservationsChangeNoScore(t *testing.T) {
	h := obsSite(t)
	// The three scans are compared verdict by verdict, so none may lose a
	// request to a loaded machine: each call gets 30 s, not the helper's 5.
	patient := func(o *safefetch.Options) { o.Timeout = 30 * time.Second }
	with := scanWith(t, h, nil, patient)
	without := scanWith(t, h, &Options{NoObservations: true}, patient)
	assert.Empty(t, without.Observations)
	require.Len(t, with.Observations, len(observers))
	for _, o := range with.Observations {
		if o.ID == "x402" || o.ID == "llms_txt_links" || o.ID == "document_contracts" {
			continue // the premium page answers 402, and is named by llms.txt
		}
		assert.Equal(t, ObservationFound, o.Status, "%s: %s %q", o.ID, o.Receipt.Received, o.Receipt.Notes)
	}
	assert.Equal(t, ObservationInvalid, observationByID(with, "llms_txt_links").Status, "the premium page answers 402")
	dc := observationByID(with, "document_contracts")
	assert.Equal(t, ObservationAbsent, dc.Status, "the documents agree (a paid page is no broken link): %s %q", dc.Receipt.Received, dc.Receipt.Notes)

	// A budget exactly as large as the checks need: every observation is
	// unverified, and nothing else moves.
	tight := scanWith(t, h, &Options{Budget: budgetOf(without)}, patient)
	require.Len(t, tight.Observations, len(observers), "a spent budget still reports every observation")
	for _, o := range tight.Observations {
		if o.ID != "x402" && o.ID != "content_signals" {
			assert.Equal(t, ObservationUnverified, o.Status, "%s: %s", o.ID, o.Receipt.Received)
		}
	}
	for _, r := range []*Report{with, tight} {
		assert.Equal(t, without.Score, r.Score)
		assert.Equal(t, without.Ready, r.Ready)
		assert.Equal(t, without.Sections, r.Sections)
		assert.Equal(t, without.Requirements, r.Requirements)
		assert.Equal(t, without.Fixes, r.Fixes)
		assert.Equal(t, verdictsOf(without).key(), verdictsOf(r).key())
		assert.Len(t, r.Checks, len(catalogueTable), "the method's checks stay the checks")
	}
	assert.Greater(t, with.Scope.Budget.Attempts, without.Scope.Budget.Attempts, "the observations' requests are charged to the scan")
}

// budgetOf is a budget with the attempts a scan spent, and the defaults
// otherwise.
func budgetOf(r *Report) (b safefetch.BudgetLimits) {
	b.Attempts = r.Scope.Budget.Attempts
	return b
}

// The observations appear in all three forms, after the checks.
func TestObservationsInEveryForm(t *testing.T) {
	r := scanWith(t, obsSite(t), nil)
	js, err := r.JSON()
	require.NoError(t, err)
	var v struct {
		Observations []map[string]any `json:"observations"`
	}
	require.NoError(t, json.Unmarshal(js, &v))
	require.Len(t, ObservationIDs(), 11, "the loops below cannot pass over an empty list")
	require.Len(t, v.Observations, len(observers))
	for i, o := range v.Observations {
		assert.Equal(t, ObservationIDs()[i], o["id"])
		for _, k := range []string{"id", "title", "found", "status", "receipt"} {
			assert.Contains(t, o, k)
		}
	}
	assert.Less(t, strings.Index(string(js), `"checks"`), strings.Index(string(js), `"observations"`))
	md, page := string(r.Markdown()), string(r.HTML())
	assert.Less(t, strings.LastIndex(md, "### dynamic_client_registration"), strings.Index(md, "## Observations beyond the method"))
	for _, id := range ObservationIDs() {
		assert.Contains(t, md, "### "+id)
		assert.Contains(t, md, "    observation: "+id)
		assert.Contains(t, page, `data-observation="`+id+`"`)
	}
	assert.Contains(t, page, `data-observation="agent_skills" data-status="found" data-found="true"`)
}

// BenchmarkObservations measures the observations alone, on a site that
// publishes every one of them: a scan with them less one without.
func BenchmarkObservations(b *testing.B) {
	n := fetchtest.New()
	b.Cleanup(n.Close)
	n.Site("shop.example", obsSite(b))
	for _, skip := range []bool{true, false} {
		b.Run(fmt.Sprintf("observations=%v", !skip), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r, err := Scan(context.Background(), "https://shop.example/", &Options{Client: n.Client(), NoObservations: skip})
				if err != nil || len(r.Observations) == 0 == !skip {
					b.Fatal("unexpected observations", err)
				}
			}
		})
	}
}

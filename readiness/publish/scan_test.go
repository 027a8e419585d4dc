package publish_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/readiness/internal/teashop"
	"github.com/agentweb/agentweb/readiness/publish"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// plainPages is the tea shop's five plain pages, with no agent documents.
func plainPages() http.Handler { return teashop.Pages() }

// teaSite is the kit's value for the tea shop, which scans 100.
func teaSite() publish.Site { return teashop.Site() }

// scanTea serves s around the plain pages on a fake internet and scans it.
func scanTea(t *testing.T, s publish.Site) (*readiness.Report, *fetchtest.Network) {
	t.Helper()
	h, err := s.Handler(plainPages())
	require.NoError(t, err)
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("tea.example", h)
	rep, err := readiness.Scan(context.Background(), "https://tea.example/", &readiness.Options{Client: n.Client()})
	require.NoError(t, err)
	return rep, n
}

// A plain net/http site wrapped by the kit meets every requirement and has
// no failing or partial check.
func TestPlainSiteScansReady(t *testing.T) {
	s := teaSite()
	rep, _ := scanTea(t, s)
	for _, q := range rep.Requirements {
		assert.True(t, q.Met, "%s %s: %s", q.ID, q.Status, q.Why)
	}
	for _, c := range rep.Checks {
		assert.NotContains(t, []readiness.Verdict{readiness.VerdictFail, readiness.VerdictPartial}, c.Verdict,
			"%s: %s %v", c.ID, c.Receipt.Received, c.Receipt.Notes)
	}
	assert.True(t, rep.Ready)
}

// The kit's five-page site with short pages (under 200 characters of text
// each): the JSON-LD the kit adds to every page is a data block, not a
// script, so no page is read as an app shell and no Act check is
// unverified.
func TestKitShortPagesAreNotAppShells(t *testing.T) {
	mux := http.NewServeMux()
	for _, p := range []string{"/", "/teas", "/about", "/contact", "/shipping"} {
		mux.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != p {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!DOCTYPE html><html><head><title>Tea</title></head><body><h1>Tea</h1><p>Short page %s.</p><a href="/contact">Contact</a></body></html>`, p)
		})
	}
	s := teaSite()
	h, err := s.Handler(mux)
	require.NoError(t, err)
	n := fetchtest.New()
	defer n.Close()
	n.Site("tea.example", h)
	rep, err := readiness.Scan(context.Background(), "https://tea.example/", &readiness.Options{Client: n.Client()})
	require.NoError(t, err)
	for _, c := range rep.Checks {
		if c.Section == readiness.SectionAct {
			assert.NotEqual(t, readiness.VerdictUnverified, c.Verdict, "%s: %s %v", c.ID, c.Receipt.Received, c.Receipt.Notes)
		}
	}
}

// The same site, whose card states it offers no tool or API, scores 100:
// with nothing callable, mcp_tested_execution cannot apply, so Connect
// leaves the denominator instead of earning 0 of 20.
func TestPlainKitSiteWithNoToolScores100(t *testing.T) {
	s := teaSite()
	rep, _ := scanTea(t, s)
	assert.InDelta(t, 100, rep.Score, 1e-9)
	assert.Empty(t, rep.Unverified)
	for _, c := range rep.Checks {
		if c.Section == readiness.SectionConnect && c.Verdict != readiness.VerdictOptional {
			assert.Equal(t, readiness.VerdictNotApplicable, c.Verdict, "%s: %s", c.ID, c.Receipt.Received)
		}
	}
	for _, sec := range rep.Sections {
		if sec.ID == readiness.SectionConnect {
			assert.False(t, sec.Scored, "Connect leaves the denominator")
		}
	}
}

// What the kit serves of the observations reads back as found: the
// Content-Signal line, and an agent-skills index whose digests match the
// skills it serves.
func TestKitServesObservations(t *testing.T) {
	s := teaSite()
	s.ContentSignal = "search=yes, ai-input=yes, ai-train=no"
	s.Catalog = []publish.CatalogEntry{{Identifier: "urn:air:tea.example:skills:order-tea", DisplayName: "Order tea", Type: "text/markdown; profile=\"urn:air:agent-skills\"",
		URL: "/.well-known/agent-skills/order-tea/SKILL.md", Description: "Order tea from the gardens we sell.",
		RepresentativeQueries: []string{"order 100 g of Darjeeling", "which teas are in stock"}}}
	s.Skills = []publish.Skill{
		{Name: "order-tea", Description: "Order tea: pick a garden, a weight, and pay.", Instructions: "# Order tea\n\n1. Search the catalogue.\n2. Order.\n"},
		{Name: "find-garden", Description: "Find where a tea was grown.", Instructions: "# Find a garden\n"},
	}
	rep, n := scanTea(t, s)
	obs := map[string]readiness.Observation{}
	for _, o := range rep.Observations {
		obs[o.ID] = o
	}
	for _, id := range []string{"agent_skills", "content_signals", "llms_txt_links", "markdown_twin", "ai_catalog"} {
		assert.Equal(t, readiness.ObservationFound, obs[id].Status, "%s: %s %q", id, obs[id].Receipt.Received, obs[id].Receipt.Notes)
	}
	assert.Contains(t, obs["agent_skills"].Receipt.Notes, "digests checked: order-tea: SKILL.md matches; find-garden: SKILL.md matches")
	assert.Contains(t, obs["agent_skills"].Receipt.Received, "read as version 0.2.0")
	// The catalog is found as Lighthouse finds it, through the pages' Link
	// header, with no warning; robots.txt has no Agentmap line.
	assert.Equal(t, `found at https://tea.example/.well-known/ai-catalog.json (through the Link: rel="ai-catalog" header): an AI catalog of 1 entry (1 text/markdown; profile="urn:air:agent-skills")`, obs["ai_catalog"].Receipt.Received)
	assert.NotContains(t, strings.Join(checkNotes(rep, "ai_crawler_access"), "\n"), "Lighthouse", "the kit writes nothing Lighthouse's robots-txt audit fails")
	// The index has the shape of Agent Skills Discovery 0.2.0: $schema, and
	// entries of name, type, description, url and digest, nothing else.
	resp, err := n.Client().Get(context.Background(), "https://tea.example/.well-known/agent-skills/index.json", nil)
	require.NoError(t, err)
	var index struct {
		Schema string              `json:"$schema"`
		Skills []map[string]string `json:"skills"`
	}
	require.NoError(t, json.Unmarshal(resp.Body, &index))
	assert.Equal(t, "https://schemas.agentskills.io/discovery/0.2.0/schema.json", index.Schema)
	require.Len(t, index.Skills, 2)
	assert.Equal(t, map[string]string{"name": "find-garden", "type": "skill-md", "description": "Find where a tea was grown.",
		"url": "/.well-known/agent-skills/find-garden/SKILL.md", "digest": index.Skills[1]["digest"]}, index.Skills[1])
	assert.Contains(t, obs["content_signals"].Receipt.Received, "User-agent * — Content-Signal: ai-input=yes, ai-train=no, search=yes")
	assert.InDelta(t, 100, rep.Score, 1e-9, "observations change no score")

	// Every listed page has its twin; a path that is no listed page has none.
	for path, want := range map[string]int{"/index.md": 200, "/teas.md": 200, "/about.md": 200, "/nowhere.md": 404, "/teas/index.md": 404} {
		resp, err := n.Client().Get(context.Background(), "https://tea.example"+path, nil)
		require.NoError(t, err)
		assert.Equal(t, want, resp.StatusCode, path)
		if want == 200 {
			assert.Contains(t, resp.Header.Get("Content-Type"), "text/markdown", path)
		}
	}
}

func TestKitRefusesBadSkillsAndSignals(t *testing.T) {
	for name, mutate := range map[string]func(*publish.Site){
		"a skill name with upper case": func(s *publish.Site) { s.Skills = []publish.Skill{{Name: "Order", Description: "d"}} },
		"a skill twice": func(s *publish.Site) {
			s.Skills = []publish.Skill{{Name: "a", Description: "d"}, {Name: "a", Description: "d"}}
		},
		"a skill without a description":                func(s *publish.Site) { s.Skills = []publish.Skill{{Name: "a"}} },
		"a Content-Signal value that is not yes or no": func(s *publish.Site) { s.ContentSignal = "ai-train=maybe" },
		"a catalog entry whose identifier is no urn:air URN": func(s *publish.Site) {
			s.Catalog = []publish.CatalogEntry{{Identifier: "tea-agent", DisplayName: "Tea", Type: "application/a2a-agent-card+json", URL: "/a2a.json"}}
		},
		"a catalog entry without a display name": func(s *publish.Site) {
			s.Catalog = []publish.CatalogEntry{{Identifier: "urn:air:tea.example:tea", Type: "application/a2a-agent-card+json", URL: "/a2a.json"}}
		},
	} {
		t.Run(name, func(t *testing.T) {
			s := teaSite()
			mutate(&s)
			_, err := s.Handler(plainPages())
			var se *publish.SiteError
			require.ErrorAs(t, err, &se)
		})
	}
}

func checkNotes(r *readiness.Report, id string) []string {
	for _, c := range r.Checks {
		if c.ID == id {
			return c.Receipt.Notes
		}
	}
	return nil
}

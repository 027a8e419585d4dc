package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/agentic"
	"github.com/agentweb/agentweb/agentsignup"
	"github.com/agentweb/agentweb/examples/demo/demosite"
	"github.com/agentweb/agentweb/linkset"
	"github.com/agentweb/agentweb/readiness"
)

func startSite(t *testing.T, d demosite.Defect) *demosite.Site {
	t.Helper()
	s, err := demosite.Start(&demosite.Options{Defects: d})
	require.NoError(t, err)
	t.Cleanup(s.Close)
	return s
}

func runFlow(t *testing.T, s *demosite.Site, keys agentsignup.KeySet) *outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	if keys == nil {
		jwks, err := agentsignup.NewJWKSKeySet(s.BrokerIssuer, s.BrokerJWKSURL, &agentsignup.JWKSOptions{Client: s.Client()})
		require.NoError(t, err)
		keys = jwks
	}
	return run(ctx, target{page: s.URL, client: s.Client(), keys: keys, label: "test"}, io.Discard)
}

// expected computes, from the catalogue alone, the score of each section
// and the total that a site on which every check passes must
// get: every check earns its weight, except mcp_tested_execution, which is
// always unverified and earns nothing while keeping its weight.
func expected() (sections map[readiness.SectionID]float64, total float64) {
	earned, weight := map[readiness.SectionID]float64{}, map[readiness.SectionID]float64{}
	for _, c := range readiness.Catalogue() {
		if c.Optional {
			continue
		}
		weight[c.Section] += c.Weight
		if c.ID != "mcp_tested_execution" {
			earned[c.Section] += c.Weight
		}
	}
	sections = map[readiness.SectionID]float64{}
	var sum, possible float64
	for _, s := range readiness.Sections() {
		if weight[s.ID] == 0 {
			continue
		}
		sections[s.ID] = s.Points * earned[s.ID] / weight[s.ID]
		sum += sections[s.ID]
		possible += s.Points
	}
	return sections, 100 * sum / possible
}

func TestFlowWellMade(t *testing.T) {
	s := startSite(t, 0)
	start := time.Now()
	o := runFlow(t, s, nil)
	assert.Less(t, time.Since(start), 20*time.Second)
	require.False(t, o.failed(), "every step completes")

	t.Run("agentic", func(t *testing.T) {
		require.NotNil(t, o.discovery)
		assert.Equal(t, agentic.OutcomeExistingSite, o.discovery.Outcome)
		require.NotNil(t, o.discovery.Site)
		assert.NoError(t, o.discovery.Site.Validate())
		assert.Len(t, o.discovery.Site.Resources, 5)
		require.Len(t, o.discovery.Site.APIs, 1)
		assert.Len(t, o.discovery.Site.APIs[0].Operations, 3)
		assert.True(t, o.audit.Valid)
		assert.True(t, o.audit.Structure)
		assert.Equal(t, agentic.TextStatusMatched, o.audit.TextIndex.Status)
		assert.Empty(t, o.audit.Problems)
	})
	t.Run("openagent", func(t *testing.T) {
		assert.Equal(t, []string{s.OpenAgentURL}, o.descriptors)
		require.Len(t, o.agents, 1)
		assert.Equal(t, "assistant.exampleshop", o.agents[0].Profile.DID)
		assert.Equal(t, s.OpenAgentURL, o.agents[0].URL)
		assert.NotEmpty(t, o.agents[0].ETag)
	})
	t.Run("linkset", func(t *testing.T) {
		require.NotNil(t, o.linkset)
		assert.True(t, o.linkset.Report.Conformant(), "%v", o.linkset.Report)
		assert.Equal(t, linkset.FormFull, o.linkset.Report.Form)
		withDigest := 0
		for _, a := range o.artefacts {
			if body, ok := s.Artefacts[a.Href]; ok {
				withDigest++
				assert.Equal(t, linkset.DigestVerified, a.State, a.Href)
				assert.True(t, a.HasDigest, a.Href)
				assert.Equal(t, len(body), a.Bytes, a.Href)
			} else {
				assert.Equal(t, linkset.DigestUnverified, a.State, "%s has no digest", a.Href)
				assert.False(t, a.HasDigest, a.Href)
			}
		}
		assert.Equal(t, 3, withDigest, "every artefact with content was verified")
		ok, digests := verified(o.artefacts)
		assert.Equal(t, [2]int{3, 3}, [2]int{ok, digests})
		require.NotNil(t, o.walk)
		assert.True(t, o.walk.Complete)
		require.Len(t, o.walk.Nodes, 2)
		assert.Equal(t, s.LinksetURL, o.walk.Nodes[0].URL)
		assert.Equal(t, s.PeerLinksetURL, o.walk.Nodes[1].URL)
		for _, n := range o.walk.Nodes {
			assert.Equal(t, linkset.NodeVisited, n.State, n.URL)
		}
		assert.Equal(t, []string{s.LinksetURL}, o.walk.Nodes[1].Peers, "the peer names the shop back")
		assert.True(t, o.walk.Nodes[1].Untrusted)
	})
	t.Run("agentsignup", func(t *testing.T) {
		require.NotNil(t, o.signup)
		require.NotNil(t, o.signup.Document)
		assert.Equal(t, agentsignup.TermsHash(o.signup.Document.Terms.Text), o.signup.Document.Terms.SHA256)
		require.NotNil(t, o.signup.Attestation)
		assert.Equal(t, agentsignup.AttestationStatusVerified, o.signup.Attestation.Status, o.signup.Attestation.Detail)
		assert.Equal(t, s.BrokerIssuer, o.signup.Attestation.Issuer)
		assert.Equal(t, "demo-broker-1", o.signup.Attestation.KeyID)

		// The same document is not verified without the broker's key, or
		// with another key for the broker.
		ctx := context.Background()
		f, err := agentsignup.Fetch(ctx, s.URL, &agentsignup.FetchOptions{Client: s.Client()})
		require.NoError(t, err)
		assert.Equal(t, agentsignup.AttestationStatusUntrustedIssuer, f.Attestation.Status)
		other, _, err := ed25519.GenerateKey(rand.Reader)
		require.NoError(t, err)
		f, err = agentsignup.Fetch(ctx, s.URL, &agentsignup.FetchOptions{Client: s.Client(),
			Verifier: agentsignup.NewVerifier(agentsignup.StaticKeySet{s.BrokerIssuer: {{Key: other}}}, nil)})
		require.NoError(t, err)
		assert.Equal(t, agentsignup.AttestationStatusBadSignature, f.Attestation.Status)
	})
	t.Run("readiness", func(t *testing.T) {
		r := o.report
		require.NotNil(t, r)
		// The whole catalogue runs: the well-made site is ready, with every
		// section full but Connect, where mcp_tested_execution is always
		// unverified (18/20), so 98 of 100.
		require.Len(t, r.Checks, len(readiness.Catalogue()))
		assert.True(t, r.Ready)
		assert.InDelta(t, 98.0, r.Score, 1e-9)
		assert.Equal(t, []string{"mcp_tested_execution"}, r.Unverified)
		for _, sec := range r.Sections {
			assert.True(t, sec.Scored, sec.ID)
			want := sec.Points
			if sec.ID == readiness.SectionConnect {
				want = 18
			}
			assert.InDelta(t, want, sec.Score, 1e-9, sec.ID)
		}
		sections, total := expected()
		assert.InDelta(t, total, r.Score, 1e-9)
		for _, sec := range r.Sections {
			want, scored := sections[sec.ID]
			assert.Equal(t, scored, sec.Scored, sec.ID)
			assert.InDelta(t, want, sec.Score, 1e-9, sec.ID)
			if sec.ID == readiness.SectionConnect && sec.Scored {
				assert.InDelta(t, 18, sec.Score, 1e-9, "Connect 18/20: mcp_tested_execution is always unverified")
			}
		}
		for _, q := range r.Requirements {
			assert.True(t, q.Met, "%s: %s", q.ID, q.Why)
			assert.Equal(t, readiness.RequirementStatusPass, q.Status, q.ID)
		}
		for _, c := range r.Checks {
			switch {
			case c.ID == "mcp_tested_execution":
				assert.Equal(t, readiness.VerdictUnverified, c.Verdict)
			case c.Weight == 0:
				assert.Equal(t, readiness.VerdictOptional, c.Verdict, c.ID)
			default:
				assert.Equal(t, readiness.VerdictPass, c.Verdict, "%s: %s", c.ID, c.Receipt.Received)
			}
		}
	})
	t.Run("three forms", func(t *testing.T) { sameForms(t, o.report) })
	t.Run("files", func(t *testing.T) {
		dir := t.TempDir()
		files, err := write(dir, o)
		require.NoError(t, err)
		assert.Equal(t, []string{"readiness.html", "readiness.md", "readiness.json", "readiness.sarif", "readiness.junit.xml",
			"readiness-job-summary.md", "readiness-prompt.md", "readiness-badge.svg", "readiness-summary.json", "readiness-history.jsonl", "agentic/"}, files)
		for _, name := range []string{"agentic/agentic.json", "agentic/agentic.txt", "readiness.html"} {
			_, err := os.Stat(filepath.Join(dir, name))
			assert.NoError(t, err, name)
		}
		js, err := os.ReadFile(filepath.Join(dir, "agentic", "agentic.json"))
		require.NoError(t, err)
		_, err = agentic.ParseSite(js)
		assert.NoError(t, err)
	})
}

// sameForms checks that JSON, Markdown and HTML show the same total,
// section scores, requirements and verdicts.
func sameForms(t *testing.T, r *readiness.Report) {
	t.Helper()
	js, err := r.JSON()
	require.NoError(t, err)
	var back readiness.Report
	require.NoError(t, json.Unmarshal(js, &back))
	assert.InDelta(t, r.Score, back.Score, 1e-9)
	assert.Equal(t, r.Ready, back.Ready)
	require.Len(t, back.Checks, len(r.Checks))
	for i, c := range r.Checks {
		assert.Equal(t, c.Verdict, back.Checks[i].Verdict, c.ID)
		assert.InDelta(t, c.Earned, back.Checks[i].Earned, 1e-9, c.ID)
	}
	for i, s := range r.Sections {
		assert.InDelta(t, s.Score, back.Sections[i].Score, 1e-9, s.ID)
	}
	md, page := string(r.Markdown()), html.UnescapeString(string(r.HTML()))
	total := fmt.Sprintf("%.1f", math.Round(r.Score*10)/10)
	assert.Contains(t, md, "**"+total+" / 100**")
	assert.Contains(t, page, total)
	for _, s := range r.Sections {
		if s.Scored {
			sc := fmt.Sprintf("%.1f", s.Score)
			assert.Contains(t, md, fmt.Sprintf("| %s | %s | %.0f |", s.Title, sc, s.Points))
			assert.Contains(t, page, sc)
		}
	}
	for _, q := range r.Requirements {
		assert.Contains(t, md, "**"+q.ID+"**")
		assert.Contains(t, page, q.ID)
	}
	for _, c := range r.Checks {
		assert.Contains(t, md, "`"+c.ID+"`")
		assert.Contains(t, page, c.ID)
	}
}

// TestFlowBroken runs the flow against the site with the Broken defects:
// each client notices exactly what the defects target.
func TestFlowBroken(t *testing.T) {
	good := runFlow(t, startSite(t, 0), nil)
	s := startSite(t, demosite.Broken)
	o := runFlow(t, s, nil)

	// Untouched: agentic, openagent, the walk.
	assert.True(t, o.audit.Valid)
	assert.Len(t, o.agents, 1)
	assert.True(t, o.walk.Complete)

	// BadDigest: graph.nq, and only it, mismatches.
	var mismatched []string
	for _, a := range o.artefacts {
		if a.State != linkset.DigestVerified && a.State != linkset.DigestUnverified {
			mismatched = append(mismatched, a.Href+" "+string(a.State))
		}
	}
	assert.Equal(t, []string{"https://shop.example/graph.nq mismatch"}, mismatched)

	// StaleTerms: the document does not conform, for its terms hash only.
	require.NotNil(t, o.signup)
	assert.Nil(t, o.signup.Document)
	assert.ErrorIs(t, o.signupErr, agentsignup.ErrInvalid)
	var ve *agentsignup.ValidationError
	require.True(t, errors.As(o.signupErr, &ve))
	require.Len(t, ve.Problems, 1)
	assert.Equal(t, "/terms/sha256", ve.Problems[0].Pointer)

	// Readiness: exactly the targeted checks changed (among those that run).
	targets := map[string]readiness.Verdict{
		"vary_accept": readiness.VerdictFail, "markdown_representation": readiness.VerdictPartial,
		"structured_business_data": readiness.VerdictPartial, "manifest_twins": readiness.VerdictFail,
		"mcp_signin_discovery": readiness.VerdictPartial,
	}
	was := map[string]readiness.Verdict{}
	for _, c := range good.report.Checks {
		was[c.ID] = c.Verdict
	}
	for _, c := range o.report.Checks {
		want, ok := targets[c.ID]
		if !ok {
			want = was[c.ID]
		}
		assert.Equal(t, want, c.Verdict, "%s: %s", c.ID, c.Receipt.Received)
	}
	assert.InDelta(t, 87.0, o.report.Score, 1e-9)
	assert.False(t, o.report.Ready)
	var unmet []string
	for _, q := range o.report.Requirements {
		if !q.Met {
			unmet = append(unmet, q.ID+" "+string(q.Status))
		}
	}
	assert.Equal(t, []string{"R2 partial", "R7 partial"}, unmet)
	sameForms(t, o.report)

	var out bytes.Buffer
	difference(&out, good, o)
	for _, want := range []string{"manifest_twins", "vary_accept", "3/3 -> 2/3 verified", "agent-signup.json"} {
		assert.Contains(t, out.String(), want)
	}
	assert.Contains(t, out.String(), "agent_signup               (optional, not scored)")
}

func TestCommand(t *testing.T) {
	_, total := expected()
	for _, tc := range []struct {
		args []string
		code int
		want []string
	}{
		{nil, 0, []string{"ok   agentic", "ok   linkset", "digests 3/3 verified", "rp_attestation verified", fmt.Sprintf("readiness %.1f / 100", total),
			"mcp: https://shop.example/mcp listed, offered 2026-07-28, negotiated 2025-11-25, 3 tools listed without a token, sign-in oauth"}},
		{[]string{"-broken"}, 0, []string{"FAIL linkset", "FAIL agent-signup", "difference from the well-made site"}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			var stdout, stderr bytes.Buffer
			code := demo(append(tc.args, "-out", dir), &stdout, &stderr, nil)
			assert.Equal(t, tc.code, code, stderr.String())
			for _, w := range tc.want {
				assert.Contains(t, stdout.String(), w)
			}
			assert.Contains(t, stderr.String(), "[6/6] readiness.Scan")
			for _, f := range []string{"readiness.html", "readiness.md", "readiness.json", "readiness.sarif", "readiness.junit.xml",
				"readiness-job-summary.md", "readiness-prompt.md", "readiness-badge.svg", "readiness-summary.json", "readiness-history.jsonl", "agentic/agentic.txt"} {
				_, err := os.Stat(filepath.Join(dir, f))
				assert.NoError(t, err, f)
			}
			if slices.Contains(tc.args, "-broken") {
				// Every form shows the broken site against the well-made one.
				md, err := os.ReadFile(filepath.Join(dir, "readiness.md"))
				require.NoError(t, err)
				assert.Contains(t, string(md), "## Since the baseline")
				assert.Contains(t, string(md), "## Trend")
				job, err := os.ReadFile(filepath.Join(dir, "readiness-job-summary.md"))
				require.NoError(t, err)
				assert.Contains(t, string(job), "### Since the baseline")
				sarif, err := os.ReadFile(filepath.Join(dir, "readiness.sarif"))
				require.NoError(t, err)
				assert.Contains(t, string(sarif), `"baselineState": "new"`)
				hist, err := os.ReadFile(filepath.Join(dir, "readiness-history.jsonl"))
				require.NoError(t, err)
				assert.Equal(t, 2, bytes.Count(hist, []byte("\n")), "the well-made run, then the broken one")
			}
		})
	}
	// -site runs the same clients against any site; the demo shop stands in
	// for a real one here, and no broker key is trusted for it.
	s := startSite(t, 0)
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 0, demo([]string{"-site", s.URL, "-out", t.TempDir()}, &stdout, &stderr, s.Client()), stderr.String())
	assert.Contains(t, stdout.String(), "(a real site)")
	assert.Contains(t, stdout.String(), "--   agent-signup")
	assert.Contains(t, stdout.String(), "rp_attestation untrusted-issuer")
	assert.Contains(t, stdout.String(), "digests 3/3 verified")
	for _, args := range [][]string{{"extra"}, {"-broken", "-site", "https://example.com/"}, {"-site", "http://10.0.0.1/"}, {"-nope"}} {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, 2, demo(args, &stdout, &stderr, nil), "%q", args)
		assert.NotEmpty(t, stderr.String())
	}
}

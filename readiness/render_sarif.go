package readiness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// sarifSchema is the address of the SARIF 2.1.0 JSON schema (errata 01)
// that a log names.
const sarifSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// The SARIF 2.1.0 objects this package writes (OASIS Static Analysis
// Results Interchange Format 2.1.0, Section 3), with only the properties it sets.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool        sarifTool         `json:"tool"`
		Invocations []sarifInvocation `json:"invocations"`
		Results     []sarifResult     `json:"results"`
		Properties  map[string]any    `json:"properties"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		InformationURI string      `json:"informationUri"`
		SemanticVer    string      `json:"semanticVersion"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifText struct {
		Text     string `json:"text"`
		Markdown string `json:"markdown,omitempty"`
	}
	sarifRule struct {
		ID                   string         `json:"id"`
		Name                 string         `json:"name"`
		ShortDescription     sarifText      `json:"shortDescription"`
		FullDescription      sarifText      `json:"fullDescription"`
		Help                 sarifText      `json:"help"`
		HelpURI              string         `json:"helpUri"`
		DefaultConfiguration map[string]any `json:"defaultConfiguration"`
		Properties           map[string]any `json:"properties"`
	}
	sarifInvocation struct {
		ExecutionSuccessful bool   `json:"executionSuccessful"`
		StartTimeUTC        string `json:"startTimeUtc"`
	}
	sarifResult struct {
		RuleID              string            `json:"ruleId"`
		RuleIndex           int               `json:"ruleIndex"`
		Kind                string            `json:"kind,omitempty"`
		Level               string            `json:"level"`
		Message             sarifText         `json:"message"`
		Locations           []sarifLocation   `json:"locations"`
		PartialFingerprints map[string]string `json:"partialFingerprints"`
		BaselineState       string            `json:"baselineState,omitempty"`
		WebRequest          *sarifWebRequest  `json:"webRequest,omitempty"`
		WebResponse         *sarifWebResponse `json:"webResponse,omitempty"`
		Properties          map[string]any    `json:"properties"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
	}
	sarifArtifact struct {
		URI string `json:"uri"`
	}
	sarifWebRequest struct {
		Method string `json:"method"`
		Target string `json:"target"`
	}
	sarifWebResponse struct {
		StatusCode   int    `json:"statusCode,omitempty"`
		NoResponse   bool   `json:"noResponseReceived,omitempty"`
		ReasonPhrase string `json:"reasonPhrase,omitempty"`
	}
)

// sarifLevel is the level of a result: error for a fail, warning for a
// partial, note for an unverified check.
func sarifLevel(v Verdict) string {
	switch v {
	case VerdictFail:
		return "error"
	case VerdictPartial:
		return "warning"
	}
	return "note"
}

// ruleName turns a check id into the PascalCase name SARIF rules carry.
func ruleName(id string) string {
	var b strings.Builder
	for _, part := range strings.Split(id, "_") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

// SARIF renders the report as a SARIF 2.1.0 log (the OASIS Static Analysis
// Results Interchange Format). It is for code-scanning tools such as GitHub's.
// Its one run has a tool with one rule per catalogue check, all 35. Each rule
// has its title, what it requests and what passes, its fix as help, and the
// published text it follows as helpUri.
//
// There is one result per check that leaves points: the fix-first list. It is
// located at the URL of the check's first request (a
// physicalLocation.artifactLocation.uri). Its level is error for a fail,
// warning for a partial and note for an unverified check. The result's
// properties hold the points its fix adds and its prompt. With a Baseline, each
// result has a baselineState: new, updated or unchanged. A check that left
// points in the baseline and no longer does is a result of kind pass, with
// baselineState absent. The run's properties carry the score, readiness and the
// score delta.
func (r *Report) SARIF() ([]byte, error) {
	run := sarifRun{
		Tool:        sarifTool{Driver: sarifDriver{Name: "agentweb readiness", InformationURI: packageDoc, SemanticVer: MethodVersion + ".0"}},
		Invocations: []sarifInvocation{{ExecutionSuccessful: true, StartTimeUTC: r.ScannedAt.UTC().Format("2006-01-02T15:04:05Z")}},
		Results:     []sarifResult{},
		Properties: map[string]any{
			"site": r.Site, "score": round1(r.Score), "ready": r.Ready, "method": r.Method,
			"unmetRequirements": r.unmet(),
		},
	}
	index := map[string]int{}
	for i, row := range catalogueTable {
		spec := row.spec
		index[spec.ID] = i
		refs := refsOf(spec.ID)
		fix := fixFor(spec.ID, VerdictFail)
		if fix == "" {
			fix = "An optional convention, recorded as found or absent; it earns no points either way."
		}
		var md strings.Builder
		md.WriteString(fix + "\n\nFollow:\n")
		for _, ref := range refs {
			fmt.Fprintf(&md, "- [%s](%s)\n", ref.Title, ref.URL)
		}
		level := "error"
		if spec.Optional {
			level = "note"
		}
		props := map[string]any{"section": spec.Section, "weight": spec.Weight, "tags": []string{"agent-readiness", string(spec.Section)}}
		if spec.Requirement != "" {
			props["requirement"] = spec.Requirement
		}
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{
			ID: spec.ID, Name: ruleName(spec.ID),
			ShortDescription:     sarifText{Text: spec.Title},
			FullDescription:      sarifText{Text: fmt.Sprintf("Requests %s; passes with %s.", spec.Request, spec.Expected)},
			Help:                 sarifText{Text: fix, Markdown: md.String()},
			HelpURI:              refs[0].URL,
			DefaultConfiguration: map[string]any{"level": level},
			Properties:           props,
		})
	}
	byID := map[string]CheckResult{}
	for _, c := range r.Checks {
		byID[c.ID] = c
	}
	changes := map[string]CheckChange{}
	if r.Baseline != nil {
		for _, ch := range r.Baseline.Changes {
			changes[ch.Check] = ch
		}
		run.Properties["baseline"] = map[string]any{
			"before": round1(r.Baseline.Before), "after": round1(r.Baseline.After), "delta": round1(r.Baseline.Delta),
			"worse": r.Baseline.Worse, "changes": len(r.Baseline.Changes),
		}
	}
	inFixes := map[string]bool{}
	for _, f := range r.Fixes {
		inFixes[f.Check] = true
		c := byID[f.Check]
		res := sarifResultOf(r, c, index[f.Check])
		res.Level = sarifLevel(c.Verdict)
		res.Message = sarifText{Text: fmt.Sprintf("%s: %s (%s). Fixing it adds %s points. %s", c.ID, c.Verdict, clean(c.Receipt.Received), oneDecimal(f.Points), f.Fix)}
		res.Properties["points"] = round1(f.Points)
		res.Properties["prompt"] = f.Prompt
		if r.Baseline != nil {
			ch, changed := changes[f.Check]
			switch {
			case !changed:
				res.BaselineState = "unchanged"
			case stateRank(ch.From) == 3 || ch.From == "":
				res.BaselineState = "new"
			default:
				res.BaselineState = "updated"
				res.Properties["baselineVerdict"] = ch.From
			}
		}
		run.Results = append(run.Results, res)
	}
	if r.Baseline != nil {
		for _, ch := range r.Baseline.Changes {
			c, ok := byID[ch.Check]
			if !ok || inFixes[ch.Check] || stateRank(ch.From) == 3 || ch.From == "" || !leftPoints(ch.From, c) {
				continue
			}
			res := sarifResultOf(r, c, index[ch.Check])
			res.Kind, res.Level, res.BaselineState = "pass", "none", "absent"
			res.Message = sarifText{Text: fmt.Sprintf("%s: %s since the baseline (was %s).", c.ID, verdictLabel(c.Verdict), ch.From)}
			res.Properties["baselineVerdict"] = ch.From
			run.Results = append(run.Results, res)
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{run}}); err != nil {
		return nil, fmt.Errorf("readiness: encode sarif: %w", err)
	}
	return buf.Bytes(), nil
}

// leftPoints reports whether a check in the given earlier state left
// points: a weighted check that did not pass.
func leftPoints(state string, c CheckResult) bool {
	return c.Weight > 0 && state != string(VerdictPass) && state != string(VerdictNotApplicable)
}

// sarifResultOf is the part of a result every result shares. That is the rule,
// the location (the check's first request, else the site) and a fingerprint
// that stays the same from run to run. It adds the first request and its
// answer.
func sarifResultOf(r *Report, c CheckResult, ruleIndex int) sarifResult {
	uri := r.Site
	res := sarifResult{RuleID: c.ID, RuleIndex: ruleIndex, PartialFingerprints: map[string]string{"agentwebCheck/v1": r.Site + "#" + c.ID},
		Properties: map[string]any{"verdict": c.Verdict, "section": c.Section}}
	if len(c.Receipt.Requests) > 0 {
		q := c.Receipt.Requests[0]
		uri = q.URL
		res.WebRequest = &sarifWebRequest{Method: q.Method, Target: q.URL}
		if q.Response != nil {
			res.WebResponse = &sarifWebResponse{StatusCode: q.Response.Status}
		} else {
			res.WebResponse = &sarifWebResponse{NoResponse: true, ReasonPhrase: clean(q.Error)}
		}
	}
	res.Locations = []sarifLocation{{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: uri}}}}
	return res
}

// round1 rounds a score to one decimal, as every rendering shows it.
func round1(f float64) float64 { return math.Round(f*10) / 10 }

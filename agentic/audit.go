package agentic

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/agentweb/agentweb/internal/plural"
	"github.com/agentweb/agentweb/internal/weburl"
	"github.com/agentweb/agentweb/safefetch"
)

// AuditOptions configures Audit. The zero value is safe.
type AuditOptions struct {
	// Client makes every request; nil means safefetch.Default(), the shared
	// client. Audit charges it to a fresh budget with the generator's
	// [Limits], nested in the client's own. It adds the same-origin-or-www
	// redirect policy to the client's own.
	Client *safefetch.Client
	// SkipText leaves the TXT unread; TextIndex.Status is then TextStatusSkipped.
	SkipText bool
	// MaxDocuments lowers the number of documents read. 0, or more than
	// [Limits.AuditDocuments], means that number; a negative value reads
	// none.
	MaxDocuments int
	// Deadline shortens the audit deadline; 0, or more than
	// [Limits.Deadline], means that deadline.
	Deadline time.Duration
	// Now returns the current time; nil means time.Now.
	Now func() time.Time
	// Previous is the Retrieval of an earlier audit of the same profile
	// URL. When set, the profile request is conditional (If-None-Match,
	// If-Modified-Since). A 304 answer ends the audit with
	// Retrieval.NotModified set and nothing else checked. The profile is then
	// the one the caller audited before, whose report it keeps.
	Previous *safefetch.Provenance
}

// CheckStatus is the verdict of one audit [Check] or [DocumentCheck].
type CheckStatus string

// The statuses of a check.
const (
	// CheckStatusPass: the check passed.
	CheckStatusPass CheckStatus = "pass"
	// CheckStatusFail: the check failed; the report is not valid.
	CheckStatusFail CheckStatus = "fail"
	// CheckStatusWarn: something to fix that does not make the report invalid.
	CheckStatusWarn CheckStatus = "warn"
	// CheckStatusSkip: the check was not run.
	CheckStatusSkip CheckStatus = "skip"
	// CheckStatusInfo: an observation, neither pass nor fail.
	CheckStatusInfo CheckStatus = "info"
)

// Check is one audit check with its evidence.
type Check struct {
	// ID names the check: "fetch", "content-type", "structure", "origin",
	// "text-index", "document", "openapi-index" or "linked".
	ID string `json:"id"`
	// Target is the URL the check concerns.
	Target   string      `json:"target,omitempty"`
	Status   CheckStatus `json:"status"`
	Message  string      `json:"message"`
	Evidence string      `json:"evidence,omitempty"`
}

// TextIndexResult is the state of the TXT beside the profile.
type TextIndexResult struct {
	URL    string     `json:"url"`
	Status TextStatus `json:"status"`
	// Retrieval records the TXT's request (status, validators, time); nil
	// when the TXT was not fetched.
	Retrieval *safefetch.Provenance `json:"retrieval,omitempty"`
	// Detail holds the comparison (version matched, first differing line).
	Detail *TextCheck `json:"detail,omitempty"`
	Reason string     `json:"reason,omitempty"`
}

// DocumentCheck is the audit of one retrieved resource.
type DocumentCheck struct {
	URL  string `json:"url"`
	Kind Kind   `json:"kind"`
	// Status is CheckStatusPass or CheckStatusFail.
	Status     CheckStatus `json:"status"`
	HTTPStatus int         `json:"http_status,omitempty"`
	// Indexed and Missing are set for an OpenAPI document bound to an API
	// index: how many indexed operations were checked, and those
	// ("METHOD path") the live document does not have.
	Indexed int      `json:"indexed,omitempty"`
	Missing []string `json:"missing,omitempty"`
	Reason  string   `json:"reason,omitempty"`
}

// AuditReport is the result of Audit.
type AuditReport struct {
	// ProfileURL is the URL given to Audit, normalized (lower-case scheme
	// and host, IDNA A-labels, no trailing dot, no default port): every
	// spelling of one profile URL gives the same report.
	ProfileURL string `json:"profile_url"`
	// ServingOrigin is the origin that served the profile (after redirects).
	ServingOrigin string    `json:"serving_origin"`
	ObservedAt    time.Time `json:"observed_at"`
	// Provenance records the profile's request: declared and final URL,
	// redirects, status, content type, ETag, Last-Modified and time,
	// embedded as in every fetched record of this module.
	safefetch.Provenance
	// Valid is true when the structure is valid, its origin is the serving
	// origin and every document check passed. It excludes TXT consistency:
	// require Valid && TextIndex.Status == TextStatusMatched for a matching pair.
	Valid bool `json:"valid"`
	// Structure is true when the served JSON is a valid site profile.
	Structure bool `json:"structure"`
	// Problems are the profile's validation problems, if any.
	Problems []Problem `json:"problems,omitempty"`
	// Profile is the parsed profile when Structure is true.
	Profile   *Site           `json:"-"`
	TextIndex TextIndexResult `json:"text_index"`
	Documents []DocumentCheck `json:"documents"`
	Checks    []Check         `json:"checks"`
	Requests  []RequestRecord `json:"requests"`
	Budget    BudgetReport    `json:"budget"`
}

func (r *AuditReport) check(id, target string, status CheckStatus, msg, evidence string) {
	r.Checks = append(r.Checks, Check{ID: id, Target: target, Status: status, Message: msg, Evidence: evidence})
}

// Audit reads a published profile and checks it ([Agentic Site Profile 1.1],
// section "Discovery and auditing"). It checks the profile's structure, and
// that its origin is the origin serving it. It checks the matching TXT
// (TextIndex.Status: skipped, missing, matched, mismatch or unavailable).
// It reads up to [Limits.AuditDocuments] retrieved same-origin documents,
// OpenAPI indexes first. Each indexed operation must exist in the live
// document. Linked resources and external protocols are never fetched or
// invoked.
//
// profileURL is exactly the profile's URL (normally
// https://host/agentic.json), normalized. The report is returned whenever
// the profile URL is acceptable, also with an error. The error names the
// situation as every spec package of this module does:
//   - a refused profile URL wraps ErrProfileURL, and no report is returned;
//   - a profile that is not published (404 or 410) is a
//     *safefetch.StatusError, which errors.Is finds as safefetch.ErrNotFound;
//   - a profile that is not a valid Site Profile 1.1 is a *ValidationError
//     (errors.Is(err, ErrInvalid)); its problems are also the report's
//     Problems.
//
// Every other finding (an origin mismatch, a document check, the TXT) is in
// the report only.
//
// [Agentic Site Profile 1.1]: https://github.com/sam1siam/agentic
func Audit(ctx context.Context, profileURL string, opts *AuditOptions) (*AuditReport, error) {
	var o AuditOptions
	if opts != nil {
		o = *opts
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	pu, err := url.Parse(profileURL)
	if err != nil || pu.Scheme != "https" || pu.Host == "" || pu.User != nil || pu.RawQuery != "" || pu.ForceQuery || pu.Fragment != "" || strings.Contains(profileURL, "#") {
		return nil, fmt.Errorf("%w: %q", ErrProfileURL, weburl.Redact(profileURL))
	}
	if ps := checkSiteURL(profileURL); len(ps) > 0 {
		if ps[0].rule == RuleURLPrivateAddress {
			// A refused address is one answer in every package.
			return nil, fmt.Errorf("%w: %q: %s: %w", ErrProfileURL, weburl.Redact(profileURL), ps[0].message, safefetch.ErrForbiddenAddress)
		}
		return nil, fmt.Errorf("%w: %q: %s", ErrProfileURL, weburl.Redact(profileURL), ps[0].message)
	}
	// The profile URL is normalized (host case, IDNA, trailing dot, default
	// port) before any origin is compared with it; the report states it so.
	if n, err := weburl.NormalizeURL(pu); err == nil {
		pu, profileURL = n, n.String()
	}
	origin, _ := url.Parse(canonicalOrigin(pu))
	maxDocs := o.MaxDocuments
	if maxDocs == 0 || maxDocs > auditMaxDocuments {
		maxDocs = auditMaxDocuments
	}
	ctx, client, cancel := scanClient(ctx, o.Client, o.Deadline)
	defer cancel()
	budget := client.Budget()
	f := newFetcher(client, origin, scanMaxRedirects, scanMaxResponseBytes, o.Now)
	rep := &AuditReport{ProfileURL: profileURL, ServingOrigin: origin.String(), ObservedAt: o.Now().UTC(),
		Documents: []DocumentCheck{}, Checks: []Check{}, TextIndex: TextIndexResult{URL: textURL(profileURL), Status: TextStatusSkipped}}
	defer func() {
		rep.Budget = budgetReport(budget)
		rep.Requests = f.requests()
	}()

	// The profile and its TXT, in parallel.
	jobs := []job{{profileURL, "application/json", "profile", o.Previous}}
	if !o.SkipText {
		jobs = append(jobs, job{rep.TextIndex.URL, "text/plain", "text index", nil})
	}
	rs := f.getAll(ctx, jobs, scanMaxConcurrent)
	pr := rs[0]
	rep.Provenance = pr.rec.Provenance
	if o.Previous != nil && pr.err == nil && pr.rec.StatusCode == http.StatusNotModified {
		rep.Provenance.NotModified = true
		if rep.Provenance.ETag == "" {
			rep.Provenance.ETag = o.Previous.ETag
		}
		if rep.Provenance.LastModified == "" {
			rep.Provenance.LastModified = o.Previous.LastModified
		}
		rep.check("fetch", profileURL, CheckStatusPass, "the profile is unchanged since the previous audit", "HTTP 304")
		return rep, nil
	}
	if pr.rec.FinalURL != "" {
		if fu, err := url.Parse(pr.rec.FinalURL); err == nil {
			rep.ServingOrigin = canonicalOrigin(fu)
		}
	}
	if !pr.ok {
		rep.check("fetch", profileURL, CheckStatusFail, "the profile could not be read", failureReason(pr))
		rep.textOnly(rs, nil, o.SkipText)
		if sc := pr.rec.StatusCode; sc == http.StatusNotFound || sc == http.StatusGone {
			return rep, &safefetch.StatusError{URL: profileURL, StatusCode: sc}
		}
		return rep, nil
	}
	rep.check("fetch", profileURL, CheckStatusPass, "the profile was read", fmt.Sprintf("HTTP %d, %d bytes", pr.rec.StatusCode, pr.rec.Bytes))
	if mt := mediaType(pr.rec.ContentType); mt == "application/json" {
		rep.check("content-type", profileURL, CheckStatusPass, "served as application/json", pr.rec.ContentType)
	} else {
		rep.check("content-type", profileURL, CheckStatusWarn, "the profile should be served as application/json", "Content-Type: "+pr.rec.ContentType)
	}
	site, err := ParseSite(pr.body)
	var ve *ValidationError
	switch {
	case err == nil:
		rep.Structure, rep.Profile = true, site
		rep.check("structure", profileURL, CheckStatusPass, "the profile is a valid Site Profile 1.1", plural.N(len(site.Resources), "resource", "resources")+", "+plural.N(len(site.APIs), "API", "APIs")+", "+plural.N(site.operationCount(), "operation", "operations"))
	case errors.As(err, &ve):
		rep.Problems = ve.Problems
		rep.check("structure", profileURL, CheckStatusFail, fmt.Sprintf("the profile is not a valid Site Profile 1.1 (%s)", plural.N(len(ve.Problems), "problem", "problems")), strings.Join(ve.Rules(), ", "))
	default:
		rep.check("structure", profileURL, CheckStatusFail, "the document is not a site profile", err.Error())
	}
	if site == nil {
		rep.textOnly(rs, nil, o.SkipText)
		if ve != nil {
			return rep, ve.WithSource(profileURL)
		}
		return rep, fmt.Errorf("%w: %s: %w", ErrInvalid, weburl.Redact(profileURL), err)
	}
	originOK := site.Origin == rep.ServingOrigin
	if originOK {
		rep.check("origin", profileURL, CheckStatusPass, "the profile's origin is the origin serving it", site.Origin)
	} else {
		rep.check("origin", profileURL, CheckStatusFail, "the profile's origin differs from the origin serving it", "origin "+site.Origin+", served by "+rep.ServingOrigin)
	}
	rep.textOnly(rs, site, o.SkipText)

	docsOK := true
	if maxDocs > 0 && originOK {
		docsOK = rep.auditDocuments(ctx, f, site, maxDocs)
	}
	linked := 0
	for _, r := range site.Resources {
		if r.Availability == AvailabilityLinked {
			linked++
		}
	}
	if linked > 0 {
		rep.check("linked", "", CheckStatusInfo, fmt.Sprintf("%d linked resources were not fetched: linked and external protocols are never invoked by the auditor", linked), "")
	}
	rep.Valid = rep.Structure && originOK && docsOK
	return rep, nil
}

// textOnly fills the TXT result from the fetched TXT (rs[1]).
func (rep *AuditReport) textOnly(rs []*fetched, site *Site, skip bool) {
	t := &rep.TextIndex
	if skip {
		rep.check("text-index", t.URL, CheckStatusSkip, "the TXT check was skipped", "")
		return
	}
	tr := rs[1]
	p := tr.rec.Provenance
	t.Retrieval = &p
	switch {
	case tr.err == nil && (tr.rec.StatusCode == 404 || tr.rec.StatusCode == 410):
		t.Status, t.Reason = TextStatusMissing, fmt.Sprintf("HTTP %d", tr.rec.StatusCode)
		rep.check("text-index", t.URL, CheckStatusWarn, "no TXT index is published beside the profile", t.Reason)
		return
	case !tr.ok:
		t.Status, t.Reason = TextStatusUnavailable, failureReason(tr)
		rep.check("text-index", t.URL, CheckStatusWarn, "the TXT index could not be read", t.Reason)
		return
	case site == nil:
		t.Status, t.Reason = TextStatusMismatch, "the profile is not valid, so no TXT can match it"
		rep.check("text-index", t.URL, CheckStatusFail, "the TXT index cannot be checked against an invalid profile", "")
		return
	}
	c := site.CompareText(rep.ProfileURL, tr.body)
	t.Status, t.Detail = c.Status, &c
	if c.Status == TextStatusMatched {
		rep.check("text-index", t.URL, CheckStatusPass, "the TXT index matches the profile (TXT "+c.Version+")", "")
	} else {
		t.Reason = c.Reason
		rep.check("text-index", t.URL, CheckStatusFail, "the TXT index does not match the profile", fmt.Sprintf("%s; line %d: want %q, got %q", c.Reason, c.Line, c.Want, c.Got))
	}
	if mt := mediaType(tr.rec.ContentType); mt != "text/plain" {
		rep.check("content-type", t.URL, CheckStatusWarn, "the TXT index should be served as text/plain; charset=utf-8", "Content-Type: "+tr.rec.ContentType)
	}
}

// auditDocuments reads up to max retrieved same-origin resources, the
// OpenAPI documents of the API indexes first.
func (rep *AuditReport) auditDocuments(ctx context.Context, f *fetcher, site *Site, max int) bool {
	apiOf := map[string]*API{}
	for i := range site.APIs {
		apiOf[site.APIs[i].Document] = &site.APIs[i]
	}
	var picks []Resource
	seen := map[string]bool{}
	add := func(r Resource) {
		if len(picks) < max && !seen[r.URL] {
			seen[r.URL] = true
			picks = append(picks, r)
		}
	}
	sameOrigin := func(r Resource) bool {
		u, err := url.Parse(r.URL)
		if err != nil {
			return false
		}
		o, err := weburl.Origin(u)
		return err == nil && o == rep.ServingOrigin
	}
	for _, a := range site.APIs {
		for _, r := range site.Resources {
			if r.URL == a.Document && r.Kind == KindOpenAPI && r.Availability == AvailabilityRetrieved && sameOrigin(r) {
				add(r)
			}
		}
	}
	skipped := 0
	for _, r := range site.Resources {
		if r.Availability == AvailabilityRetrieved && sameOrigin(r) && !seen[r.URL] {
			if len(picks) < max {
				add(r)
			} else {
				skipped++
			}
		}
	}
	if skipped > 0 {
		rep.check("document", "", CheckStatusInfo, fmt.Sprintf("%d further retrieved documents were not read (the audit reads at most %d)", skipped, max), "")
	}
	jobs := make([]job, len(picks))
	for i, r := range picks {
		accept := "text/html, text/markdown;q=0.9, text/plain;q=0.8, application/json;q=0.7"
		if r.Kind == KindOpenAPI || r.Kind == KindA2A || r.Kind == KindAgentAuth || r.Kind == KindAgentic {
			accept = "application/json"
		}
		jobs[i] = job{r.URL, accept, "retrieved " + string(r.Kind) + " resource", nil}
	}
	ok := true
	for i, fr := range f.getAll(ctx, jobs, scanMaxConcurrent) {
		r := picks[i]
		dc := DocumentCheck{URL: r.URL, Kind: r.Kind, HTTPStatus: fr.rec.StatusCode, Status: CheckStatusPass}
		if !fr.ok {
			dc.Status, dc.Reason = CheckStatusFail, failureReason(fr)
			ok = false
			rep.check("document", r.URL, CheckStatusFail, "a retrieved resource could not be read", dc.Reason)
			rep.Documents = append(rep.Documents, dc)
			continue
		}
		api := apiOf[r.URL]
		if api == nil {
			rep.check("document", r.URL, CheckStatusPass, "the retrieved resource is readable", fmt.Sprintf("HTTP %d, %d bytes", fr.rec.StatusCode, fr.rec.Bytes))
			rep.Documents = append(rep.Documents, dc)
			continue
		}
		doc, err := parseOpenAPI(fr.body)
		if err != nil {
			dc.Status, dc.Reason = CheckStatusFail, "the live document is not OpenAPI 3 JSON: "+err.Error()
			ok = false
			rep.check("openapi-index", r.URL, CheckStatusFail, "the indexed OpenAPI document could not be read as OpenAPI 3", err.Error())
			rep.Documents = append(rep.Documents, dc)
			continue
		}
		live := map[string]bool{}
		for _, op := range doc.ops {
			live[op.method+" "+op.path] = true
		}
		dc.Indexed = len(api.Operations)
		for _, op := range api.Operations {
			if !live[op.Method+" "+op.Path] {
				dc.Missing = append(dc.Missing, op.Method+" "+op.Path)
			}
		}
		if len(dc.Missing) > 0 {
			dc.Status, ok = CheckStatusFail, false
			dc.Reason = fmt.Sprintf("%d of %d indexed operations are not in the live document", len(dc.Missing), dc.Indexed)
			rep.check("openapi-index", r.URL, CheckStatusFail, dc.Reason, strings.Join(firstN(dc.Missing, 10), ", "))
		} else {
			rep.check("openapi-index", r.URL, CheckStatusPass, fmt.Sprintf("all %d indexed operations exist in the live document", dc.Indexed), "")
		}
		if doc.version != api.OpenAPI {
			rep.check("openapi-index", r.URL, CheckStatusWarn, "the live document's openapi version differs from the index", fmt.Sprintf("index %q, live %q", api.OpenAPI, doc.version))
		}
		rep.Documents = append(rep.Documents, dc)
	}
	return ok
}

func firstN(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

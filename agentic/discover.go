package agentic

import (
	"context"
	"errors"
	"fmt"
	"github.com/agentweb/agentweb/internal/plural"
	"net/url"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/agentweb/agentweb/internal/linkheader"
	"github.com/agentweb/agentweb/internal/strictjson"
	"github.com/agentweb/agentweb/internal/weburl"
	"github.com/agentweb/agentweb/safefetch"
)

// conventionalPaths are the paths the generator always checks besides the
// profile, with the media types it asks for.
var conventionalPaths = []struct {
	path, accept, purpose string
}{
	{"/", "text/html, text/markdown;q=0.9, text/plain;q=0.8", "home page"},
	{"/llms.txt", "text/plain, text/markdown", "conventional llms.txt"},
	{"/openapi.json", "application/json, application/vnd.oai.openapi+json", "conventional OpenAPI document"},
	{"/api/openapi.json", "application/json, application/vnd.oai.openapi+json", "conventional OpenAPI document"},
	{"/docs", "text/html, text/markdown;q=0.9, text/plain;q=0.8", "conventional documentation"},
	{"/.well-known/agent-card.json", "application/json", "conventional A2A agent card"},
	{"/.well-known/agent-configuration", "application/json", "conventional Agent Auth configuration"},
}

// Errors of Discover.
var (
	// ErrOrigin reports an origin Discover will not scan.
	ErrOrigin = errors.New("agentic: origin must be a public https origin")
	// ErrNothingRetrieved reports a scan that read no usable document, so no
	// profile (which needs a retrieved resource) can be built.
	ErrNothingRetrieved = errors.New("agentic: no public document could be retrieved from the origin")
)

// DiscoverOptions configures Discover. The zero value is safe.
type DiscoverOptions struct {
	// Client makes every request; nil means safefetch.Default(), the shared client. Discover
	// charges it to a fresh budget with the generator's limits, nested in
	// the client's own, and adds the same-origin-or-www redirect policy to
	// the client's own.
	Client *safefetch.Client
	// ProfileURL names an existing profile to read instead of the root
	// /agentic.json, and the URL the generated TXT names. It must be on the
	// origin.
	ProfileURL string
	// Name and Description replace the values read from the home page.
	Name, Description string
	// TextVersion selects the TXT written to Discovery.Text: "" or "1.2"
	// for the publication form (TXT 1.2, the canonical index followed by the
	// project's fixed Reference records), which the reference tool's
	// current generators write for both profile kinds; "1.1" for the
	// canonical TXT 1.1 (TXT 1.0 for an Action Profile) alone. Readers
	// accept both.
	TextVersion string
	// Regenerate builds a fresh site profile from what the site publishes
	// even when a valid profile is already published at the profile URL
	// (the root /agentic.json, or ProfileURL). That profile is still read
	// and reported in DiscoveryReport.Existing (with a note), but it is not
	// returned: the Outcome is OutcomeGenerated and the new profile is meant
	// to replace it at the same URL. Nested profiles linked from the site's
	// pages are not read. Without Regenerate a valid published profile ends
	// the scan and is kept.
	Regenerate bool
	// Deadline shortens the scan deadline; 0 or anything above 40 s means
	// 40 s.
	Deadline time.Duration
	// Now returns the current time; nil means time.Now.
	Now func() time.Time
}

// Outcome says what a [Discovery] holds.
type Outcome string

// The outcomes of a discovery.
const (
	// OutcomeGenerated: a new site profile built from the scan.
	OutcomeGenerated Outcome = "generated"
	// OutcomeExistingSite: a valid published site profile, kept unchanged.
	OutcomeExistingSite Outcome = "existing-site"
	// OutcomeExistingAction: a valid Action Profile 1.0, preserved byte for byte.
	OutcomeExistingAction Outcome = "existing-action"
)

// Discovery is the result of a scan: the profile to publish, its TXT and
// the report.
type Discovery struct {
	Origin     string  `json:"origin"`
	ProfileURL string  `json:"profile_url"`
	Outcome    Outcome `json:"outcome"`
	// Site is the generated or existing site profile (nil for an action profile).
	Site *Site `json:"-"`
	// Action is the preserved action profile, if that is what was found.
	Action *ActionProfile `json:"-"`
	// JSON and Text are the agentic.json and agentic.txt to publish.
	JSON   []byte           `json:"-"`
	Text   []byte           `json:"-"`
	Report *DiscoveryReport `json:"report"`
}

// DiscoveryReport explains a scan: every request, what failed, what was
// shortened, which OpenAPI bindings could not be checked, and when the
// observation was made.
type DiscoveryReport struct {
	Origin     string    `json:"origin"`
	ProfileURL string    `json:"profile_url"`
	Outcome    Outcome   `json:"outcome"`
	ObservedAt time.Time `json:"observed_at"`
	FinishedAt time.Time `json:"finished_at"`
	// Requests lists every request in the order they finished.
	Requests []RequestRecord `json:"requests"`
	// Failures lists the requests that did not yield a usable document.
	Failures []Failure `json:"failures"`
	// Truncations lists what was shortened or left out to fit the profile limits.
	Truncations []Truncation `json:"truncations"`
	// Bindings lists the OpenAPI documents and whether their index was built.
	Bindings []BindingCheck `json:"bindings"`
	// Linked lists URLs recorded without being fetched, and why.
	Linked []LinkedURL `json:"linked"`
	// Budget is the budget's final usage.
	Budget BudgetReport `json:"budget"`
	// Notes are other observations, one sentence each.
	Notes []string `json:"notes"`
	// Existing is the valid profile found published at the profile URL
	// when DiscoverOptions.Regenerate asked for a fresh one instead; nil
	// otherwise (without Regenerate such a profile is the Discovery itself).
	Existing *ExistingProfile `json:"existing,omitempty"`
}

// ExistingProfile is a valid published profile that Discover did not keep
// because DiscoverOptions.Regenerate was set.
type ExistingProfile struct {
	// URL is where the profile was read (after any redirect).
	URL string `json:"url"`
	// Outcome is what Discover would have returned without Regenerate:
	// OutcomeExistingSite or OutcomeExistingAction.
	Outcome Outcome `json:"outcome"`
	// Site or Action is the parsed profile, by Outcome.
	Site   *Site          `json:"-"`
	Action *ActionProfile `json:"-"`
}

// Failure is one request that did not yield a usable document.
type Failure struct {
	URL    string `json:"url"`
	Status int    `json:"status,omitempty"`
	Reason string `json:"reason"`
}

// Truncation is one shortening of the profile to its limits.
type Truncation struct {
	// Pointer is where in the profile the shortening applies.
	Pointer string `json:"pointer"`
	Reason  string `json:"reason"`
	// Dropped counts the items left out (0 when values were shortened).
	Dropped int `json:"dropped,omitempty"`
}

// BindingStatus says whether an OpenAPI document got an operation index
// ([Agentic Site Profile 1.1], section "Discovery and auditing": missing
// binding checks are reported, not invented).
//
// [Agentic Site Profile 1.1]: https://github.com/sam1siam/agentic
type BindingStatus string

// The statuses of a [BindingCheck].
const (
	// BindingStatusIndexed: the document was read and its operations indexed.
	BindingStatusIndexed BindingStatus = "indexed"
	// BindingStatusNotRetrieved: the document was linked but not read.
	BindingStatusNotRetrieved BindingStatus = "not-retrieved"
	// BindingStatusNotOpenAPI3: the document is not OpenAPI 3 JSON the
	// index can hold.
	BindingStatusNotOpenAPI3 BindingStatus = "not-openapi-3"
	// BindingStatusNotChecked: the binding was not checked (an existing
	// profile kept as found, or over the limit of API indexes).
	BindingStatusNotChecked BindingStatus = "not-checked"
)

// BindingCheck reports an OpenAPI document and whether the profile indexes it.
type BindingCheck struct {
	Document string        `json:"document"`
	Status   BindingStatus `json:"status"`
	Reason   string        `json:"reason,omitempty"`
}

// LinkedURL is a URL recorded as linked (or left out) without being fetched.
type LinkedURL struct {
	URL    string `json:"url"`
	Kind   Kind   `json:"kind,omitempty"`
	Source string `json:"source"`
	Reason string `json:"reason"`
}

// BudgetReport is the scan budget's usage against its limits.
type BudgetReport struct {
	Attempts        int    `json:"attempts"`
	MaxAttempts     int    `json:"max_attempts"`
	Bytes           int64  `json:"bytes"`
	MaxBytes        int64  `json:"max_bytes"`
	PeakConcurrency int    `json:"peak_concurrency"`
	Exhausted       string `json:"exhausted,omitempty"`
}

// candidate is a URL found during a scan, with what it is thought to be.
type candidate struct {
	url    string
	kind   Kind
	source string
	title  string
}

// scan holds the state of one Discover call.
type scan struct {
	opts    DiscoverOptions
	origin  *url.URL
	originS string
	f       *fetcher
	report  *DiscoveryReport

	home      pageInfo
	homeOK    bool
	retrieved map[string]*retrievedDoc // by URL
	order     []string                 // retrieved URLs in the order found
	linked    map[string]candidate     // kind+" "+url -> candidate
	openapi   map[string]*openAPIDoc   // retrieved OpenAPI documents by resource URL
	queued    map[string]bool
	movedTo   map[string]string // declared URL -> final URL of a retrieved redirect
}

type retrievedDoc struct {
	url, source, title string
	kind               Kind
}

// Discover builds an Agentic Site Profile 1.1 for origin by reading its
// public documents ([Agentic Site Profile 1.1], section "Discovery and
// auditing"): the conventional paths (/agentic.json, /, /llms.txt,
// /openapi.json, /api/openapi.json, /docs, /.well-known/agent-card.json,
// /.well-known/agent-configuration), then the same-origin links that those
// documents select as documentation or API descriptions. It reads HTML,
// text/Markdown, JSON metadata and OpenAPI 3 JSON; never runs scripts, signs
// in or invokes a protocol; records MCP, A2A and Agent Auth URLs and
// cross-origin links as linked without fetching them; and holds the spec's
// limits through one safefetch budget. A valid published profile at the
// profile URL is kept unchanged (a site profile) or preserved byte for byte
// (an action profile), with its TXT regenerated, unless
// DiscoverOptions.Regenerate asks for a fresh profile (the existing one is
// then reported in DiscoveryReport.Existing).
//
// The Discovery is returned with its report even when the error is non-nil
// (ErrNothingRetrieved, or the context's error); the error wraps ErrOrigin
// when the origin is refused before any request.
//
// [Agentic Site Profile 1.1]: https://github.com/sam1siam/agentic
func Discover(ctx context.Context, origin string, opts *DiscoverOptions) (*Discovery, error) {
	var o DiscoverOptions
	if opts != nil {
		o = *opts
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	switch o.TextVersion {
	case "", textVersion11, textVersion12:
	default:
		return nil, fmt.Errorf("agentic: unsupported TXT version %q (want 1.1 or 1.2)", o.TextVersion)
	}
	ou, originS, err := parseScanOrigin(origin)
	if err != nil {
		return nil, err
	}
	profileURL, err := profileURLFor(originS, o.ProfileURL)
	if err != nil {
		return nil, err
	}
	ctx, client, cancel := scanClient(ctx, o.Client, o.Deadline)
	defer cancel()
	budget := client.Budget()

	s := &scan{
		opts: o, origin: ou, originS: originS,
		f:         newFetcher(client, ou, scanMaxRedirects, scanMaxResponseBytes, o.Now),
		retrieved: map[string]*retrievedDoc{}, linked: map[string]candidate{},
		openapi: map[string]*openAPIDoc{}, queued: map[string]bool{}, movedTo: map[string]string{},
		report: &DiscoveryReport{
			Origin: originS, ProfileURL: profileURL, ObservedAt: o.Now().UTC(),
			Requests: []RequestRecord{}, Failures: []Failure{}, Truncations: []Truncation{},
			Bindings: []BindingCheck{}, Linked: []LinkedURL{}, Notes: []string{},
		},
	}
	d := &Discovery{Origin: originS, ProfileURL: profileURL, Report: s.report}
	defer func() {
		s.report.Budget = budgetReport(budget)
		s.report.Requests = s.f.requests()
		s.report.FinishedAt = o.Now().UTC()
		if ex := s.report.Budget.Exhausted; ex != "" {
			s.report.Notes = append(s.report.Notes, "The scan budget ran out ("+ex+"); later documents were not read.")
		}
	}()

	// Round 1: the profile and the conventional paths, five at a time.
	jobs := []job{{profileURL, "application/json", "profile", nil}}
	for _, c := range conventionalPaths {
		u := originS + c.path
		s.queued[u] = true
		jobs = append(jobs, job{u, c.accept, c.purpose, nil})
	}
	s.queued[profileURL] = true
	results := s.f.getAll(ctx, jobs, scanMaxConcurrent)
	if done := s.existingProfile(results[0], d, o.ProfileURL != ""); done {
		return d, s.finish(d)
	}
	for i, r := range results[1:] {
		s.analyse(r, jobs[i+1].url, jobs[i+1].url, "")
	}
	// Rounds 2 and 3: same-origin links selected as documentation or API
	// descriptions, OpenAPI first, while the budget lasts.
	for round := 0; round < 2 && ctx.Err() == nil; round++ {
		next := s.nextJobs(budget)
		if len(next) == 0 {
			break
		}
		rs := s.f.getAll(ctx, next.jobs(), scanMaxConcurrent)
		for i, r := range rs {
			c := next[i]
			if c.kind == KindAgentic { // a nested profile: used if valid, never indexed
				if r.ok && s.existingProfile(r, d, false) {
					return d, s.finish(d)
				}
				if !r.ok {
					s.fail(r)
				}
				continue
			}
			s.analyse(r, c.url, c.source, c.title)
		}
	}
	if err := ctx.Err(); err != nil && len(s.retrieved) == 0 {
		return d, fmt.Errorf("%w: %w", ErrNothingRetrieved, err)
	}
	if err := s.build(d); err != nil {
		return d, err
	}
	return d, s.finish(d)
}

// parseScanOrigin accepts "https://host" with an optional "/" path.
func parseScanOrigin(origin string) (*url.URL, string, error) {
	u, err := url.Parse(strings.TrimSpace(origin))
	if err != nil || u.Scheme != "https" || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return nil, "", fmt.Errorf("%w: %q", ErrOrigin, weburl.Redact(origin))
	}
	o, err := weburl.Origin(u)
	if err != nil {
		return nil, "", fmt.Errorf("%w: %q: %v", ErrOrigin, weburl.Redact(origin), err)
	}
	if ps := checkOrigin(o); len(ps) > 0 {
		return nil, "", fmt.Errorf("%w: %q: %s", ErrOrigin, weburl.Redact(origin), ps[0].message)
	}
	ou, _ := url.Parse(o)
	return ou, o, nil
}

type plan []candidate

func (p plan) jobs() []job {
	out := make([]job, len(p))
	for i, c := range p {
		accept := "text/html, text/markdown;q=0.9, text/plain;q=0.8"
		if c.kind == KindOpenAPI || c.kind == KindAgentic || c.kind == KindA2A || c.kind == KindAgentAuth {
			accept = "application/json"
		}
		out[i] = job{c.url, accept, "linked " + string(c.kind) + " from " + c.source, nil}
	}
	return out
}

// kindRank orders what to fetch first: API descriptions, then nested
// profiles, then documentation.
func kindRank(k Kind) int {
	switch k {
	case KindOpenAPI:
		return 0
	case KindAgentic:
		return 1
	case KindLLMs:
		return 2
	case KindDocumentation:
		return 3
	}
	return 4
}

// nextJobs picks the same-origin candidates to fetch next, within what the
// budget has left.
func (s *scan) nextJobs(b *safefetch.Budget) plan {
	left := scanMaxAttempts - b.Usage().Attempts
	if left <= 0 {
		return nil
	}
	var p plan
	for _, c := range s.linked {
		if s.queued[c.url] || !s.fetchable(c) {
			continue
		}
		p = append(p, c)
	}
	sort.Slice(p, func(i, j int) bool {
		if kindRank(p[i].kind) != kindRank(p[j].kind) {
			return kindRank(p[i].kind) < kindRank(p[j].kind)
		}
		return p[i].url < p[j].url
	})
	if len(p) > left {
		for _, c := range p[left:] {
			s.report.Notes = append(s.report.Notes, "Not read within the attempt budget: "+c.url+".")
		}
		p = p[:left]
	}
	for _, c := range p {
		s.queued[c.url] = true
	}
	return p
}

// fetchable: same origin (or its www counterpart) and a kind the generator
// reads. MCP endpoints and other protocols are never fetched.
func (s *scan) fetchable(c candidate) bool {
	switch c.kind {
	case KindOpenAPI, KindDocumentation, KindLLMs:
	case KindAgentic:
		// Nested profiles are read only when the caller named none: the
		// root, or the named profile, takes priority. A regeneration reads
		// none.
		if s.opts.ProfileURL != "" || s.opts.Regenerate {
			return false
		}
	default:
		return false
	}
	return s.sameSite(c.url)
}

func (s *scan) sameSite(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "https" {
		return false
	}
	return safefetch.SameOriginOrWWW(s.origin, u) == nil
}

// existingProfile reads a fetched profile: a valid site profile on this
// origin or a valid action profile ends the scan.
func (s *scan) existingProfile(r *fetched, d *Discovery, explicit bool) bool {
	if !r.ok {
		if r.rec.StatusCode != 404 && r.rec.StatusCode != 410 {
			s.fail(r)
		}
		if explicit {
			s.report.Notes = append(s.report.Notes, "The named profile "+r.rec.URL+" could not be read; a new profile was generated.")
		}
		return false
	}
	pu := r.rec.URL
	if site, err := ParseSite(r.body); err == nil {
		if site.Origin != s.originS {
			s.report.Notes = append(s.report.Notes, fmt.Sprintf("The profile at %s is valid but describes origin %s; it was not used.", pu, site.Origin))
			return false
		}
		if s.opts.Regenerate {
			s.report.Existing = &ExistingProfile{URL: pu, Outcome: OutcomeExistingSite, Site: site}
			s.report.Notes = append(s.report.Notes, "A valid site profile is already published at "+pu+"; Regenerate was asked, so a new profile was built from what the site publishes to replace it.")
			return false
		}
		d.Outcome, d.Site, d.ProfileURL = OutcomeExistingSite, site, pu
		s.report.Notes = append(s.report.Notes, "A valid site profile is already published at "+pu+"; it is kept unchanged and its TXT regenerated.")
		return true
	} else if errors.Is(err, ErrActionProfile) {
		ap, aerr := ParseActionProfile(r.body)
		if aerr != nil {
			s.report.Notes = append(s.report.Notes, "The action profile at "+pu+" is not valid: "+aerr.Error())
			return false
		}
		if ap.Origin != s.originS {
			s.report.Notes = append(s.report.Notes, fmt.Sprintf("The action profile at %s describes origin %s; it was not used.", pu, ap.Origin))
			return false
		}
		if s.opts.Regenerate {
			s.report.Existing = &ExistingProfile{URL: pu, Outcome: OutcomeExistingAction, Action: ap}
			s.report.Notes = append(s.report.Notes, "A valid Action Profile 1.0 is already published at "+pu+"; Regenerate was asked, so a site profile was built from what the site publishes to replace it.")
			return false
		}
		d.Outcome, d.Action, d.ProfileURL = OutcomeExistingAction, ap, pu
		s.report.Notes = append(s.report.Notes, "A valid Action Profile 1.0 is published at "+pu+"; it is preserved byte for byte and its Action TXT regenerated.")
		for _, a := range ap.Actions {
			s.report.Bindings = append(s.report.Bindings, BindingCheck{Document: pu, Status: BindingStatusNotChecked,
				Reason: "the OpenAPI binding of action " + quoteTXT(a.ID) + " is not checked by this generator"})
		}
		return true
	} else {
		s.report.Notes = append(s.report.Notes, "The profile at "+pu+" is not valid and was replaced by a generated one: "+firstLine(err.Error()))
	}
	return false
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

func (s *scan) fail(r *fetched) {
	s.report.Failures = append(s.report.Failures, Failure{URL: r.rec.URL, Status: r.rec.StatusCode, Reason: failureReason(r)})
}

// analyse reads one fetched document: what it is, and the links it selects.
func (s *scan) analyse(r *fetched, declared, source, title string) {
	if !r.ok {
		// A conventional path that does not exist is not a failure; a
		// broken link is.
		missing := r.err == nil && (r.rec.StatusCode == 404 || r.rec.StatusCode == 410)
		if !missing || !isConventional(s.originS, declared) {
			s.fail(r)
		}
		return
	}
	docURL := declared
	if r.rec.FinalURL != "" && r.rec.FinalURL != declared && s.sameSite(r.rec.FinalURL) {
		docURL = r.rec.FinalURL
		s.movedTo[declared] = docURL
	}
	du, err := url.Parse(docURL)
	if err != nil {
		return
	}
	if !validResourceURL(docURL) {
		s.report.Linked = append(s.report.Linked, LinkedURL{URL: docURL, Source: source, Reason: "URL breaks the profile's URL rules; left out"})
		return
	}
	// HTTP Link headers (RFC 8288) select documents as well: service-desc,
	// service-doc, describedby and the like.
	if vals := r.hdr.Values("Link"); len(vals) > 0 {
		if ls, err := linkheader.Parse(vals, du); err == nil {
			var pl []pageLink
			for _, l := range ls {
				if len(pl) == maxLinksPerDocument {
					break
				}
				if u, ok := resolveHref(du, l.Target); ok {
					pl = append(pl, pageLink{href: u, rel: l.Rel, typ: strings.ToLower(l.Type), text: cleanText(l.Title)})
				}
			}
			s.addLinks(pl, docURL)
		}
	}
	mt := mediaType(r.rec.ContentType)
	isJSON := strings.Contains(mt, "json") || (mt == "" && len(r.body) > 0 && r.body[0] == '{')
	p := du.Path
	switch {
	case isJSON:
		s.analyseJSON(r, docURL, source, p, title)
	case mt == "text/html" || mt == "application/xhtml+xml":
		info := parseHTML(r.body, du)
		kind := KindDocumentation
		if p == "/" || p == "" {
			kind = KindWebsite
			s.home, s.homeOK = info, true
		}
		s.addRetrieved(docURL, source, pick(info.title, title), kind)
		s.addLinks(info.links, docURL)
	case strings.HasPrefix(mt, "text/plain") || mt == "text/markdown" || mt == "text/x-markdown":
		info := parseMarkdown(r.body, du)
		kind := KindDocumentation
		if path.Base(p) == "llms.txt" || path.Base(p) == "llms-full.txt" {
			kind = KindLLMs
		}
		if p == "/" || p == "" {
			kind = KindWebsite
			s.home, s.homeOK = info, true
		}
		s.addRetrieved(docURL, source, pick(info.title, title), kind)
		s.addLinks(info.links, docURL)
	default:
		s.report.Failures = append(s.report.Failures, Failure{URL: r.rec.URL, Status: r.rec.StatusCode, Reason: "unsupported media type " + quoteTXT(mt)})
	}
}

func pick(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func isConventional(origin, u string) bool {
	for _, c := range conventionalPaths {
		if origin+c.path == u {
			return true
		}
	}
	return false
}

func (s *scan) analyseJSON(r *fetched, docURL, source, p, title string) {
	switch {
	case strings.HasSuffix(p, "/.well-known/agent-card.json") || strings.HasSuffix(p, "/agent.json"):
		tree, err := strictjson.Decode(r.body)
		if name, ok := isA2ACard(tree); err == nil && ok {
			s.addRetrieved(docURL, source, pick(cleanText(name), title), KindA2A)
			return
		}
		s.report.Failures = append(s.report.Failures, Failure{URL: r.rec.URL, Status: r.rec.StatusCode, Reason: "not an A2A agent card (needs a string name and a skills array)"})
	case strings.HasSuffix(p, "/.well-known/agent-configuration"):
		tree, err := strictjson.Decode(r.body)
		if err == nil && isAgentAuthConfig(tree) {
			s.addRetrieved(docURL, source, title, KindAgentAuth)
			return
		}
		s.report.Failures = append(s.report.Failures, Failure{URL: r.rec.URL, Status: r.rec.StatusCode, Reason: "not an Agent Auth configuration (needs a string issuer and an endpoints object)"})
	default:
		doc, err := parseOpenAPI(r.body)
		if err != nil {
			s.report.Bindings = append(s.report.Bindings, BindingCheck{Document: docURL, Status: BindingStatusNotOpenAPI3, Reason: err.Error()})
			return
		}
		s.openapi[docURL] = doc
		s.addRetrieved(docURL, source, pick(doc.title, title), KindOpenAPI)
	}
}

// validResourceURL applies the profile's URL rules to a URL before it is
// recorded.
func validResourceURL(u string) bool {
	return len(u) <= maxURLLength && len(checkSiteURL(u)) == 0
}

func (s *scan) addRetrieved(u, source, title string, kind Kind) {
	if _, ok := s.retrieved[u]; ok {
		return
	}
	if !validResourceURL(source) {
		source = u
	}
	s.retrieved[u] = &retrievedDoc{url: u, source: source, title: title, kind: kind}
	s.order = append(s.order, u)
}

// classify decides what a link is, or "" when the generator ignores it.
func classify(l pageLink, u *url.URL) Kind {
	p := strings.ToLower(u.Path)
	base := path.Base(p)
	text := strings.ToLower(l.text)
	has := func(r string) bool {
		for _, x := range l.rel {
			if x == r {
				return true
			}
		}
		return false
	}
	switch {
	case base == "agentic.json":
		return KindAgentic
	case base == "agent-card.json" || has("a2a"):
		return KindA2A
	case strings.HasSuffix(p, "/.well-known/agent-configuration") || has("agent-auth"):
		return KindAgentAuth
	case has("mcp") || base == "mcp" || base == "sse" && strings.Contains(p, "mcp") || strings.Contains(text, "mcp server") || strings.HasPrefix(u.Host, "mcp."):
		return KindMCP
	case base == "llms.txt" || base == "llms-full.txt":
		return KindLLMs
	case has("service-desc") || strings.Contains(l.typ, "openapi") || base == "openapi.json" || base == "swagger.json" ||
		(strings.HasSuffix(base, ".json") && strings.Contains(p, "openapi")):
		return KindOpenAPI
	case has("service-doc") || has("help") || strings.HasSuffix(base, ".md") || strings.HasSuffix(base, ".markdown"):
		return KindDocumentation
	}
	for _, w := range []string{"docs", "doc", "documentation", "developers", "developer", "guide", "guides", "reference", "api"} {
		for _, seg := range strings.Split(p, "/") {
			if seg == w {
				return KindDocumentation
			}
		}
	}
	for _, w := range []string{"documentation", "docs", "developer", "api reference", "guide"} {
		if strings.Contains(text, w) {
			return KindDocumentation
		}
	}
	return ""
}

// addLinks records the links a retrieved document selects.
func (s *scan) addLinks(links []pageLink, source string) {
	for _, l := range links {
		u, err := url.Parse(l.href)
		if err != nil {
			continue
		}
		kind := classify(l, u)
		if kind == "" {
			continue
		}
		if u.RawQuery != "" || u.ForceQuery {
			s.report.Linked = append(s.report.Linked, LinkedURL{URL: l.href, Kind: kind, Source: source, Reason: "URL has a query, which a profile URL must not; left out"})
			continue
		}
		if !validResourceURL(l.href) {
			s.report.Linked = append(s.report.Linked, LinkedURL{URL: l.href, Kind: kind, Source: source, Reason: "URL breaks the profile's URL rules; left out"})
			continue
		}
		key := string(kind) + " " + l.href
		if _, ok := s.linked[key]; ok {
			continue
		}
		c := candidate{url: l.href, kind: kind, source: source, title: cutRunes(l.text, maxTitleLength)}
		s.linked[key] = c
		switch {
		case !s.sameSite(l.href):
			s.report.Linked = append(s.report.Linked, LinkedURL{URL: l.href, Kind: kind, Source: source, Reason: "another origin: recorded, not fetched"})
		case kind == KindMCP || kind == KindA2A || kind == KindAgentAuth:
			s.report.Linked = append(s.report.Linked, LinkedURL{URL: l.href, Kind: kind, Source: source, Reason: "agent connection: recorded, never invoked"})
		}
	}
}

// build assembles the site profile from what the scan read.
func (s *scan) build(d *Discovery) error {
	if len(s.retrieved) == 0 {
		return ErrNothingRetrieved
	}
	site := &Site{Agentic: Version, Type: TypeSite, Origin: s.originS, APIs: []API{}}
	site.Name = cutRunes(cleanText(pick(s.opts.Name, pick(s.home.siteName, s.home.title))), maxNameLength)
	if site.Name == "" {
		site.Name = s.origin.Hostname()
	}
	site.Description = cutRunes(cleanText(pick(s.opts.Description, s.home.description)), maxDescriptionLength)
	if site.Description == "" {
		site.Description = "Public documents and agent connections of " + s.origin.Hostname() + "."
	}
	var res []Resource
	for _, u := range s.order {
		r := s.retrieved[u]
		res = append(res, Resource{Kind: r.kind, URL: r.url, Source: r.source, Availability: AvailabilityRetrieved, Title: cutRunes(r.title, maxTitleLength)})
	}
	for _, c := range s.linked {
		if rd, ok := s.retrieved[c.url]; ok && rd.kind == c.kind {
			continue
		}
		if _, moved := s.movedTo[c.url]; moved {
			continue // read at the URL it redirected to
		}
		if c.kind == KindAgentic && s.sameSite(c.url) {
			continue // a nested profile that was not used is not a resource of this one
		}
		res = append(res, Resource{Kind: c.kind, URL: c.url, Source: c.source, Availability: AvailabilityLinked, Title: c.title})
	}
	res = dedupeResources(res)
	sort.SliceStable(res, func(i, j int) bool {
		if res[i].Kind != res[j].Kind {
			return res[i].Kind < res[j].Kind
		}
		return res[i].URL < res[j].URL
	})
	if len(res) > maxResources {
		res = s.trimResources(res)
	}
	site.Resources = res
	s.buildAPIs(site)
	s.fitSize(site)
	if err := site.Validate(); err != nil {
		return fmt.Errorf("agentic: generated profile is invalid: %w", err)
	}
	d.Site, d.Outcome = site, OutcomeGenerated
	return nil
}

func dedupeResources(res []Resource) []Resource {
	seen := map[string]bool{}
	out := res[:0]
	for _, r := range res {
		k := string(r.Kind) + " " + r.URL
		if !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	return out
}

// trimResources keeps the forty most useful resources: retrieved before
// linked, then by kind order, and reports the rest.
func (s *scan) trimResources(res []Resource) []Resource {
	keep := append([]Resource(nil), res...)
	sort.SliceStable(keep, func(i, j int) bool {
		ri, rj := keep[i].Availability == AvailabilityRetrieved, keep[j].Availability == AvailabilityRetrieved
		if ri != rj {
			return ri
		}
		return kindRank(keep[i].Kind) < kindRank(keep[j].Kind)
	})
	dropped := keep[maxResources:]
	keep = keep[:maxResources]
	for _, r := range dropped {
		s.report.Linked = append(s.report.Linked, LinkedURL{URL: r.URL, Kind: r.Kind, Source: r.Source, Reason: "left out: the profile holds at most 40 resources"})
	}
	s.report.Truncations = append(s.report.Truncations, Truncation{Pointer: "/resources", Reason: fmt.Sprintf("%d resources found; the profile holds at most %d", len(res), maxResources), Dropped: len(dropped)})
	sort.SliceStable(keep, func(i, j int) bool {
		if keep[i].Kind != keep[j].Kind {
			return keep[i].Kind < keep[j].Kind
		}
		return keep[i].URL < keep[j].URL
	})
	return keep
}

// buildAPIs copies the operation index of every retrieved OpenAPI resource.
func (s *scan) buildAPIs(site *Site) {
	for _, r := range site.Resources {
		if r.Kind != KindOpenAPI {
			continue
		}
		if r.Availability != AvailabilityRetrieved {
			s.report.Bindings = append(s.report.Bindings, BindingCheck{Document: r.URL, Status: BindingStatusNotRetrieved, Reason: "the OpenAPI document was linked but not read, so no operation index is built"})
			continue
		}
		doc := s.openapi[r.URL]
		if doc == nil {
			continue
		}
		ptr := idx("/apis", len(site.APIs))
		if len(site.APIs) == maxAPIs {
			s.report.Truncations = append(s.report.Truncations, Truncation{Pointer: "/apis", Reason: "the profile holds at most 5 OpenAPI indexes; " + r.URL + " was not indexed", Dropped: 1})
			s.report.Bindings = append(s.report.Bindings, BindingCheck{Document: r.URL, Status: BindingStatusNotChecked, Reason: "over the limit of 5 indexes"})
			continue
		}
		version := doc.version
		if len([]rune(version)) > maxOpenAPIVersionLength {
			s.report.Bindings = append(s.report.Bindings, BindingCheck{Document: r.URL, Status: BindingStatusNotOpenAPI3, Reason: "the openapi version string is over 32 characters"})
			continue
		}
		api := API{Document: r.URL, OpenAPI: version, Operations: []Operation{}}
		type key struct{ m, p string }
		seen := map[key]bool{}
		skipped, cutSummaries, droppedIDs, over := 0, 0, 0, 0
		for _, ro := range doc.ops {
			if !validMethod(ro.method) || pathProblem(ro.path) != "" || len([]rune(ro.path)) > maxPathLength || seen[key{ro.method, ro.path}] {
				skipped++
				continue
			}
			if len(api.Operations) == maxOperations {
				over++
				continue
			}
			seen[key{ro.method, ro.path}] = true
			op := Operation{Method: ro.method, Path: ro.path}
			if ro.operationID != nil {
				if n := len([]rune(*ro.operationID)); n >= 1 && n <= maxOperationIDLength {
					op.OperationID = *ro.operationID
				} else {
					droppedIDs++
				}
			} else if ro.operationIDNotText {
				droppedIDs++
			}
			if ro.summary != nil {
				sum := strings.TrimSpace(*ro.summary)
				if len([]rune(sum)) > maxSummaryLength {
					sum = cutRunes(sum, maxSummaryLength)
					cutSummaries++
				}
				op.Summary = sum
			}
			api.Operations = append(api.Operations, op)
		}
		if over > 0 {
			s.report.Truncations = append(s.report.Truncations, Truncation{Pointer: ptr + "/operations", Reason: fmt.Sprintf("%s documents %d operations; the index holds the first %d", r.URL, len(api.Operations)+over, maxOperations), Dropped: over})
		}
		if skipped > 0 {
			s.report.Truncations = append(s.report.Truncations, Truncation{Pointer: ptr + "/operations", Reason: fmt.Sprintf("%s of %s %s left out: their method or path breaks the index rules, or repeats a method and path", plural.N(skipped, "operation", "operations"), r.URL, wasWere(skipped)), Dropped: skipped})
		}
		if cutSummaries > 0 {
			s.report.Truncations = append(s.report.Truncations, Truncation{Pointer: ptr + "/operations", Reason: fmt.Sprintf("%s %s shortened to %d characters", plural.N(cutSummaries, "summary", "summaries"), wasWere(cutSummaries), maxSummaryLength)})
		}
		if droppedIDs > 0 {
			s.report.Truncations = append(s.report.Truncations, Truncation{Pointer: ptr + "/operations", Reason: fmt.Sprintf("%s could not be copied verbatim (not a string of 1 to 160 characters) and %s left out, not invented", plural.N(droppedIDs, "operationId value", "operationId values"), wasWere(droppedIDs))})
		}
		s.report.Bindings = append(s.report.Bindings, BindingCheck{Document: r.URL, Status: BindingStatusIndexed, Reason: plural.N(len(api.Operations), "operation", "operations") + " indexed"})
		site.APIs = append(site.APIs, api)
	}
}

// fitSize shortens operation indexes, then linked resources, until the
// compact JSON and both TXT forms fit in 64 KiB.
func (s *scan) fitSize(site *Site) {
	fits := func() bool {
		if len(site.compact()) > maxProfileBytes {
			return false
		}
		pu, err := profileURLFor(site.Origin, s.report.ProfileURL)
		if err != nil {
			return true
		}
		b := site.appendText(nil, pu, textVersion12)
		return len(appendReferences(b)) <= maxTextBytes
	}
	droppedOps := map[int]int{}
	for guard := 0; !fits() && guard < 1000; guard++ {
		largest := -1
		for i, a := range site.APIs {
			if len(a.Operations) > 0 && (largest < 0 || len(a.Operations) > len(site.APIs[largest].Operations)) {
				largest = i
			}
		}
		if largest >= 0 {
			ops := site.APIs[largest].Operations
			n := max(1, len(ops)/10)
			site.APIs[largest].Operations = ops[:len(ops)-n]
			droppedOps[largest] += n
			continue
		}
		// Only resources are left: drop the last linked one.
		dropped := false
		for i := len(site.Resources) - 1; i >= 0; i-- {
			if site.Resources[i].Availability == AvailabilityLinked {
				r := site.Resources[i]
				site.Resources = append(site.Resources[:i], site.Resources[i+1:]...)
				s.report.Truncations = append(s.report.Truncations, Truncation{Pointer: "/resources", Reason: "left out " + r.URL + " to keep the files within 64 KiB", Dropped: 1})
				dropped = true
				break
			}
		}
		if !dropped {
			break
		}
	}
	for i, n := range droppedOps {
		s.report.Truncations = append(s.report.Truncations, Truncation{Pointer: idx("/apis", i) + "/operations", Reason: "shortened to keep agentic.json and agentic.txt within 64 KiB", Dropped: n})
	}
}

// finish generates the files to publish.
func (s *scan) finish(d *Discovery) error {
	s.report.Outcome = d.Outcome
	s.report.ProfileURL = d.ProfileURL
	var err error
	switch {
	case d.Action != nil:
		d.JSON = d.Action.Bytes()
		if s.opts.TextVersion != textVersion11 {
			d.Text, err = d.Action.PublicationText(d.ProfileURL)
		} else {
			d.Text, err = d.Action.Text(d.ProfileURL)
		}
	case d.Site != nil:
		d.JSON, err = d.Site.JSON()
		if err == nil {
			if s.opts.TextVersion != textVersion11 {
				d.Text, err = d.Site.PublicationText(d.ProfileURL)
			} else {
				d.Text, err = d.Site.Text(d.ProfileURL)
			}
		}
	default:
		return ErrNothingRetrieved
	}
	return err
}

// wasWere is the verb that agrees with a count of n.
func wasWere(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

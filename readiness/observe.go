package readiness

import (
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/agentweb/agentweb/internal/plural"
)

// Observation is one fact beyond the method's checks that other scanners
// report: a document or signal an agent may use, read and validated as
// the text it follows defines it. An observation never changes a verdict,
// a section, a requirement or the score; it is reported after the checks in
// every form of the report. [ObservationIDs] lists them, and the package
// doc says which text each follows and that text's standing.
type Observation struct {
	// ID is one of [ObservationIDs].
	ID string `json:"id"`
	// Title names the observation for a person.
	Title string `json:"title"`
	// Found is true when the document or signal was found, valid or not.
	Found bool `json:"found"`
	// Status is what came of the observation: found and valid, found with
	// problems (invalid), absent, or unverified (what it needed went
	// unanswered).
	Status ObservationStatus `json:"status"`
	// Meaning says in a sentence what the finding means for an agent.
	Meaning string `json:"meaning"`
	// Text is the text the observation follows.
	Text ObservedText `json:"text"`
	// Receipt is the evidence, as a check's: the requests relied on, what
	// was expected and received, and notes; a document found with problems
	// lists them in Notes.
	Receipt Receipt `json:"receipt"`
}

// ObservationStatus says what came of an observation.
type ObservationStatus string

// The observation statuses.
const (
	// ObservationFound: found, and valid as its text defines it.
	ObservationFound ObservationStatus = "found"
	// ObservationInvalid: found, with the problems the receipt lists.
	ObservationInvalid ObservationStatus = "invalid"
	// ObservationAbsent: not published.
	ObservationAbsent ObservationStatus = "absent"
	// ObservationUnverified: what it needed went unanswered (a refusal, a
	// timeout, the budget, a body over its cap).
	ObservationUnverified ObservationStatus = "unverified"
)

// ObservedText is the text an observation follows: its title, where to
// read it, and its standing ("Internet-Draft", "draft", "proposal", ...);
// none of them is a published standard.
type ObservedText struct {
	Title  string `json:"title"`
	URL    string `json:"url"`
	Status string `json:"status"`
}

// observer is one observation's code.
type observer struct {
	id, title string
	text      ObservedText
	run       func(s *scan) obsOutcome
}

// obsOutcome is what an observer returns.
type obsOutcome struct {
	status   ObservationStatus
	meaning  string
	expected string
	received string
	requests []*fetched
	notes    []string
}

// observers are the observations, in report order.
var observers = []observer{
	{"agent_skills", "Agent skills index", ObservedText{"Agent Skills Discovery via Well-Known URIs, version 0.2.0", "https://github.com/cloudflare/agent-skills-discovery-rfc", "draft"}, observeAgentSkills},
	{"content_signals", "Content signals", ObservedText{"Vocabulary For Expressing Content Signals (draft-romm-aipref-contentsignals); Associating AI Usage Preferences with Content in HTTP (draft-ietf-aipref-attach)", "https://datatracker.ietf.org/doc/draft-romm-aipref-contentsignals/", "Internet-Draft"}, observeContentSignals},
	{"web_bot_auth", "Web Bot Auth key directory", ObservedText{"HTTP Message Signatures Directory and the Web Bot Auth protocol (draft-meunier-webbotauth-httpsig-directory-00, draft-meunier-webbotauth-httpsig-protocol-00), with cloudflare/web-bot-auth's test vectors", "https://datatracker.ietf.org/doc/draft-meunier-webbotauth-httpsig-directory/", "Internet-Draft"}, observeWebBotAuth},
	{"auth_md", "auth.md", ObservedText{"auth.md", "https://workos.com/auth-md/docs/auth-md", "proposal"}, observeAuthMD},
	{"x402", "x402 payment requirements", ObservedText{"x402 protocol specification", "https://github.com/coinbase/x402", "proposal"}, observeX402},
	{"ucp", "Universal Commerce Protocol profile", ObservedText{"Universal Commerce Protocol", "https://ucp.dev/", "proposal"}, observeUCP},
	{"acp", "Agentic Commerce Protocol discovery", ObservedText{"Agentic Commerce Protocol", "https://www.agenticcommerce.dev/", "proposal"}, observeACP},
	{"ai_catalog", "AI catalog (ai-catalog.json)", ObservedText{"Agentic Resource Discovery (ARD) 1.0, ai-catalog.json, as Lighthouse 13.5.0's ard-schema audit finds and validates it", "https://github.com/ards-project/ard-spec", "draft"}, observeAICatalog},
	{"document_contracts", "Documents agree with each other", ObservedText{"What the site's own documents say about each other: robots.txt (RFC 9309) against llms.txt, the card and the API catalog; the page as an AI agent gets it; MCP server cards against the live server", "https://www.rfc-editor.org/rfc/rfc9309", "method"}, observeDocumentContracts},
	{"llms_txt_links", "llms.txt links resolve", ObservedText{"Agent-Friendly Documentation Spec (afdocs), llms-txt-links-resolve", "https://agentdocsspec.com/", "proposal"}, observeLLMsLinks},
	{"markdown_twin", "Markdown twin at .md", ObservedText{"The /llms.txt file: Markdown versions of pages at the same URL with .md appended", "https://llmstxt.org/", "proposal"}, observeMarkdownTwin},
}

// ObservationIDs returns the ids of the observations, in report order.
func ObservationIDs() []string {
	out := make([]string, len(observers))
	for i, o := range observers {
		out[i] = o.id
	}
	return out
}

// obsMaxBody bounds each body an observation reads, below the scan's own
// cap: none of the documents it reads needs more.
const obsMaxBody = 256 << 10

// observe makes every observation, concurrently, after the checks are done.
// What they fetch is charged to the scan's budget. But no check waits for them
// or shares a fetch that only they make, so they can change no verdict.
func (s *scan) observe() []Observation {
	s.paid = s.answered402()
	out := make([]Observation, len(observers))
	var wg sync.WaitGroup
	for i, o := range observers {
		wg.Go(func() {
			r := o.run(s)
			ob := Observation{ID: o.id, Title: o.title, Status: r.status, Meaning: r.meaning, Text: o.text,
				Found:   r.status == ObservationFound || r.status == ObservationInvalid,
				Receipt: Receipt{Requests: []RequestRecord{}, Expected: r.expected, Received: r.received, Notes: capNotes(r.notes)}}
			seen := map[*fetched]bool{}
			for _, f := range r.requests {
				if f != nil && !seen[f] {
					seen[f] = true
					ob.Receipt.Requests = append(ob.Receipt.Requests, f.record())
				}
			}
			out[i] = ob
		})
	}
	wg.Wait()
	return out
}

// obsOrigin is the origin the observations read the site's documents at. The
// page may have redirected to another origin of the same site: an apex that
// redirects to www, or the reverse. Then it is the page's final origin, else
// the page's own. Every hop of a redirect is one attempt of the budget. An
// observation that asked at the origin that redirects would pay two attempts
// for each document.
func (s *scan) obsOrigin() *url.URL {
	return readOnce(s, "obs-origin", func() *url.URL {
		p := s.pageRead()
		if p == nil || p.f == nil || p.f.resp == nil || p.f.resp.FinalURL == "" {
			return s.page
		}
		u, err := url.Parse(p.f.resp.FinalURL)
		if err != nil || u.Host == "" || !s.sameRegistrable(u) {
			return s.page
		}
		return &url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/"}
	})
}

// obsResolve resolves a path against [scan.obsOrigin].
func (s *scan) obsResolve(path string) string {
	o := s.obsOrigin()
	u := url.URL{Scheme: o.Scheme, Host: o.Host, Path: path}
	return u.String()
}

// obsAt moves a URL of the scanned origin to [scan.obsOrigin] when the page
// redirected there. It does not when the scan has fetched the URL as asked
// already: the memo then answers it at no cost. A URL at the final origin whose
// path the scan fetched at the origin given is answered from the memo too.
func (s *scan) obsAt(u, accept string) string {
	o := s.obsOrigin()
	if o == s.page {
		return u
	}
	pu, err := url.Parse(u)
	if err != nil {
		return u
	}
	memoized := func(v string) bool {
		s.memoMu.Lock()
		defer s.memoMu.Unlock()
		_, ok := s.memo[memoKey(v, accept)]
		return ok
	}
	switch {
	case s.sameOrigin(pu):
		if memoized(u) {
			return u
		}
		pu.Scheme, pu.Host = o.Scheme, o.Host
	case pu.Scheme == o.Scheme && pu.Host == o.Host:
		// At the final origin already; the checks may have read the same
		// path at the origin given.
		alt := *pu
		alt.Scheme, alt.Host = s.page.Scheme, s.page.Host
		if memoized(alt.String()) {
			return alt.String()
		}
	}
	return pu.String()
}

// obsGet fetches a URL for an observation, its body capped at obsMaxBody.
func (s *scan) obsGet(u, accept string) *fetched {
	return s.getCapped(u, accept, 0, obsMaxBody)
}

// docOutcome is the common ending of an observation of one document:
// unverified when unanswered, absent when not a 2xx document, else found or
// invalid by its problems.
func docOutcome(f *fetched, found bool, what string, problems []string, notes []string) obsOutcome {
	out := obsOutcome{requests: []*fetched{f}}
	switch {
	case !f.answered():
		out.status, out.received = ObservationUnverified, f.url+": "+f.why()
	case !found:
		out.status, out.received = ObservationAbsent, fmt.Sprintf("absent (%s: %d)", f.url, f.status())
	case len(problems) > 0:
		out.status = ObservationInvalid
		out.received = fmt.Sprintf("found at %s, with %s: %s", f.url, plural.N(len(problems), "problem", "problems"), what)
		// What was left unread comes first: the problems may be capped.
		out.notes = append(notes, problems...)
	default:
		out.status, out.received, out.notes = ObservationFound, "found: "+what+" at "+f.url, notes
	}
	return out
}

// isDocument reports whether f is a 2xx answer that is not an HTML page.
func isDocument(f *fetched) bool { return f.ok() && !looksLikeHTML(f.body()) }

// meaning picks what a finding means: yes when found, no otherwise (with
// a word on problems or unanswered requests).
func meaning(st ObservationStatus, yes, no string) string {
	switch st {
	case ObservationFound:
		return "Published: " + yes + "."
	case ObservationInvalid:
		return "Published with problems: " + yes + ", if it can read past them."
	case ObservationUnverified:
		return "Unknown: the request went unanswered."
	}
	return "Not published: " + no + "."
}

// obsSameSite resolves ref against base and returns it when it is on the
// scanned site (its registrable domain), else "".
func (s *scan) obsSameSite(base, ref string) string {
	b, err := url.Parse(base)
	if err != nil {
		return ""
	}
	u, err := b.Parse(strings.TrimSpace(ref))
	if err != nil || !s.sameRegistrable(u) {
		return ""
	}
	u.Fragment, u.RawFragment = "", ""
	return u.String()
}

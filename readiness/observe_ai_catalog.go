package readiness

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/agentweb/agentweb/internal/ard"
	"github.com/agentweb/agentweb/internal/plural"
	"github.com/agentweb/agentweb/internal/shorten"
)

// agentmapRE is how Lighthouse 13.5.0's ard gatherer reads robots.txt: the
// first line, in any group, whose field is Agentmap, case-insensitively.
var agentmapRE = regexp.MustCompile(`(?im)^\s*Agentmap:\s*(\S+)`)

// catalogSignal is one place that points to the AI catalog.
type catalogSignal struct{ where, url string }

// catalogSignals are the places that point to the site's AI catalog. They come
// in the order Lighthouse 13.5.0's ard gatherer
// (core/gather/gatherers/agentic/ard.js) tries them. First is a robots.txt
// Agentmap line, which may name any URL. Then come a <link rel~="ai-catalog">
// element of the page and a Link header field with rel="ai-catalog" on the
// page. Each URL is resolved against the page's final URL, as the gatherer
// resolves it.
func (s *scan) catalogSignals() []catalogSignal {
	base := s.page.String()
	p := s.pageRead()
	if p != nil && p.f != nil {
		base = p.f.finalURL()
	}
	var out []catalogSignal
	if r := s.robotsRead(); isDocument(r.f) {
		if m := agentmapRE.FindSubmatch(r.f.body()); m != nil {
			if u := resolveRef(base, string(m[1])); u != "" {
				out = append(out, catalogSignal{"robots.txt Agentmap", u})
			}
		}
	}
	if p.readable() {
		for _, l := range p.head.Links {
			if l.HasRel(ard.Rel) && l.Href != "" {
				out = append(out, catalogSignal{`<link rel="ai-catalog">`, l.Href})
				break
			}
		}
	}
	if p != nil {
		for _, l := range p.headerLinks {
			if l.HasRel(ard.Rel) && l.Target != "" {
				out = append(out, catalogSignal{`Link: rel="ai-catalog" header`, l.Target})
				break
			}
		}
	}
	return out
}

func observeAICatalog(s *scan) obsOutcome {
	signals := s.catalogSignals()
	u, via := s.obsResolve(ard.WellKnownPath), "well-known location"
	if len(signals) > 0 {
		u, via = s.obsAt(signals[0].url, "application/json"), signals[0].where
	}
	f := s.obsGet(u, "application/json")
	var notes []string
	for _, sg := range signals {
		notes = append(notes, fmt.Sprintf("advertised by the %s: %s", sg.where, shorten.Runes(clean(sg.url), 200)))
	}
	if len(signals) > 1 && slices.ContainsFunc(signals, func(sg catalogSignal) bool { return sg.url != signals[0].url }) {
		notes = append(notes, "the signals name different catalogs: Lighthouse reads the first of Agentmap, <link>, Link header, as this reader does")
	}
	if len(signals) > 0 && signals[0].where == "robots.txt Agentmap" {
		notes = append(notes, lighthouseRobotsNotes(s.robotsRead().f.body(), "agentmap")...)
	}
	out := obsOutcome{requests: []*fetched{f}, notes: notes,
		expected: "an AI catalog (ai-catalog.json, ARD 1.0) found as Lighthouse 13.5.0 finds it (a robots.txt Agentmap line, then <link rel=\"ai-catalog\">, then a Link rel=\"ai-catalog\" header, then " + ard.WellKnownPath + "), answering 200 and valid by the ARD JSON Schema and the conformance test's rules (errors make it invalid; warnings, such as an entry without representativeQueries, are listed)"}
	out.meaning = "Unknown: the request went unanswered."
	switch {
	case !f.answered():
		out.status, out.received = ObservationUnverified, f.url+": "+f.why()
	case f.status() != 200 && len(signals) > 0:
		// Lighthouse's ard-schema audit scores an advertised catalog that
		// does not load 0.
		out.status, out.received = ObservationInvalid, fmt.Sprintf("advertised by the %s, but %s answered %d", via, f.url, f.status())
	case f.status() != 200:
		out.status, out.received = ObservationAbsent, fmt.Sprintf("absent (%s: %d), and advertised nowhere", f.url, f.status())
	case len(signals) == 0 && !isDocument(f):
		out.status, out.received = ObservationAbsent, fmt.Sprintf("absent: %s answered 200 with an HTML page", f.url)
		out.notes = append(out.notes, "Lighthouse 13.5.0's ard-schema audit takes any 200 answer at "+ard.WellKnownPath+" for a catalog, and fails this page as malformed JSON: answer 404 there")
	default:
		r := ard.Validate(f.body())
		var types []string
		for t, n := range r.Types {
			types = append(types, fmt.Sprintf("%d %s", n, t))
		}
		slices.Sort(types)
		what := fmt.Sprintf("an AI catalog of %s", plural.N(r.Entries, "entry", "entries"))
		if len(types) > 0 {
			what += " (" + shorten.Runes(clean(strings.Join(types, ", ")), 200) + ")"
		}
		var findings []string
		for _, fd := range r.Findings {
			findings = append(findings, shorten.Runes(clean(fd.String()), 300))
		}
		errs := r.Errors()
		switch {
		case errs > 0:
			out.status = ObservationInvalid
			out.received = fmt.Sprintf("found at %s (through the %s), with %s and %s: %s", f.url, via, plural.N(errs, "error", "errors"),
				plural.N(len(r.Findings)-errs, "warning", "warnings"), what)
		default:
			out.status = ObservationFound
			out.received = fmt.Sprintf("found at %s (through the %s): %s", f.url, via, what)
			if n := len(r.Findings); n > 0 {
				out.received += ", with " + plural.N(n, "warning", "warnings")
			}
		}
		out.notes = append(findings, out.notes...)
	}
	if out.status != ObservationUnverified {
		out.meaning = meaning(out.status, "an agent or registry finds the site's agents, MCP servers and skills in one catalog", "an agent or registry finds no AI catalog of the site")
	}
	return out
}

// resolveRef resolves ref against base, "" when either does not parse.
func resolveRef(base, ref string) string {
	b, err := url.Parse(base)
	if err != nil {
		return ""
	}
	u, err := b.Parse(strings.TrimSpace(ref))
	if err != nil || u.Scheme != "https" && u.Scheme != "http" {
		return ""
	}
	u.Fragment, u.RawFragment = "", ""
	return u.String()
}

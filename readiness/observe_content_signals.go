package readiness

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/agentweb/agentweb/internal/shorten"
	"github.com/agentweb/agentweb/internal/webread"
)

// headerSignals is what one response said in its Content-Signal and
// Content-Usage header fields.
type headerSignals struct {
	f     *fetched
	lines []webread.PreferenceLine
}

// pageSignals reads the Content-Signal and Content-Usage response header fields
// of the site's pages. It reads the responses the scan already has: the page,
// its Markdown form, the further routes. It makes no request of its own.
func (s *scan) pageSignals() []headerSignals {
	var fs []*fetched
	if p := s.pageRead(); p != nil {
		fs = append(fs, p.f)
	}
	fs = append(fs, s.markdownRead())
	for _, p := range s.extraPages() {
		fs = append(fs, p.f)
	}
	var out []headerSignals
	for _, f := range fs {
		if !f.ok() {
			continue
		}
		h := headerSignals{f: f}
		if v := f.resp.Header.Values(webread.ContentSignalName); len(v) > 0 {
			h.lines = append(h.lines, webread.ParseContentSignal(strings.Join(v, ", ")))
		}
		if v := f.resp.Header.Values(webread.ContentUsageName); len(v) > 0 {
			l := webread.ParseContentUsage(strings.Join(v, ", "))
			if l.Path != "" {
				l.Problems = append(l.Problems, "a path in a header field: the header applies to its own response")
			}
			h.lines = append(h.lines, l)
		}
		if len(h.lines) > 0 {
			out = append(out, h)
		}
	}
	return out
}

// prefLine formats one preference line's values, keys sorted.
func prefLine(l webread.PreferenceLine) string {
	keys := make([]string, 0, len(l.Values))
	for k := range l.Values {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var kv []string
	for _, k := range keys {
		kv = append(kv, k+"="+l.Values[k])
	}
	line := l.Name + ": "
	if l.Path != "" {
		line += l.Path + " "
	}
	return line + strings.Join(kv, ", ")
}

// signalsPrecedence is what the receipt says when robots.txt and a header
// state the same signal differently. Content Signals defines the
// robots.txt line only; draft-ietf-aipref-attach defines both the
// robots.txt rule and the header field and does not say which wins when
// they disagree. The scanner reads the stricter one ("no", "n") as the
// site's preference: it is the reading that cannot use content against the
// publisher's wish.
const signalsPrecedence = "the texts are silent on which wins (Content Signals defines the robots.txt line only; draft-ietf-aipref-attach defines both and orders neither): this reader takes the stricter"

func observeContentSignals(s *scan) obsOutcome {
	r := s.robotsRead()
	f := r.f
	found := isDocument(f)
	var problems, notes, groups []string
	// robotsAll are the preferences of the group for every crawler, by line
	// name then key, for the comparison with the headers.
	robotsAll := map[string]map[string]string{}
	if found {
		p := webread.ReadPreferences(f.body())
		if p.Truncated {
			notes = append(notes, "robots.txt or its preference lines were longer than this reader keeps: the rest was not read")
		}
		for _, g := range p.Groups {
			agents := strings.Join(g.UserAgents, ", ")
			if agents == "" {
				agents = "(no user-agent group)"
				problems = append(problems, "a preference line before any User-agent line applies to no crawler")
			}
			var parts []string
			for _, l := range g.Lines {
				parts = append(parts, prefLine(l))
				for _, pr := range l.Problems {
					problems = append(problems, fmt.Sprintf("robots.txt line %d (%s): %s", l.Line, l.Name, clean(pr)))
				}
				if slices.Contains(g.UserAgents, "*") && l.Path == "" {
					if robotsAll[l.Name] == nil {
						robotsAll[l.Name] = map[string]string{}
					}
					maps.Copy(robotsAll[l.Name], l.Values)
				}
			}
			groups = append(groups, shorten.Runes(clean("robots.txt: User-agent "+agents+" — "+strings.Join(parts, "; ")), 300))
		}
		found = len(p.Groups) > 0
		notes = append(notes, lighthouseRobotsNotes(f.body(), "content-usage")...)
	}
	headers := s.pageSignals()
	requests := []*fetched{f}
	for _, h := range headers {
		requests = append(requests, h.f)
		var parts []string
		for _, l := range h.lines {
			parts = append(parts, prefLine(l))
			for _, pr := range l.Problems {
				problems = append(problems, fmt.Sprintf("the %s header of %s: %s", l.Name, h.f.url, clean(pr)))
			}
			for k, hv := range l.Values {
				rv, ok := robotsAll[l.Name][k]
				if !ok || rv == hv {
					continue
				}
				stricter := "no"
				if l.Name == webread.ContentUsageName {
					stricter = "n"
				}
				notes = append(notes, fmt.Sprintf("%s %s: robots.txt (User-agent *) says %s, the header of %s says %s; %s, %s",
					l.Name, clean(k), rv, h.f.url, hv, signalsPrecedence, stricter))
			}
		}
		if len(groups) < 8 {
			groups = append(groups, shorten.Runes(clean("header of "+h.f.url+" — "+strings.Join(parts, "; ")), 300))
		}
	}
	if len(headers) > 0 {
		found = true
		if !isDocument(f) {
			// What the headers say stands without robots.txt.
			f = headers[0].f
		}
	}
	out := docOutcome(f, found, strings.Join(groups, " | "), problems, notes)
	out.requests = requests
	if out.status == ObservationAbsent && r.f.ok() {
		out.received = "absent: robots.txt has no Content-Signal or Content-Usage line, and no page read answered with either header"
	}
	out.expected = "Content-Signal lines (search, ai-input, ai-train = yes/no) or IETF aipref Content-Usage lines (y/n), read per user-agent group of /robots.txt, and the same fields as response headers of the pages the scan read; where both state a signal differently, the stricter is read"
	out.meaning = meaning(out.status, "crawlers and agents that honour them know which uses of the content the site allows", "the site states no preference on search, AI input or AI training beyond its crawl rules")
	return out
}

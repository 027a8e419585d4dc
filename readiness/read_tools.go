package readiness

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agentweb/agentweb/internal/plural"
	"github.com/agentweb/agentweb/internal/shorten"
	"github.com/agentweb/agentweb/safefetch"
)

// toolsRead is what the Act checks read from the scanned routes.
type toolsRead struct {
	pages    []*pageRead // the routes read as HTML
	forms    []pageForm
	scripts  []scriptTool
	requests []*fetched // the pages and the external scripts read
	unread   []*fetched // routes or scripts that did not answer
	notes    []string
	// sources counts the scripts read, inline and external.
	sources int

	// What the scan did not read that may hold page tools (the method's Section
	// 07: findings state their scope). These are scripts past the bounds on
	// their number and bytes, and app-shell pages, whose content a script
	// builds.
	skippedScripts []string
	tooBigScripts  []string
	shells         []string

	// rendered holds the renderings of the pages a Renderer rendered, by
	// page URL; failed the pages whose rendering failed, with the reason.
	rendered []*pageRendering
	failed   []string
}

// notRead says what the scan did not read that may hold page tools, or ""
// when it read everything.
func (o *toolsRead) notRead() string {
	var parts []string
	list := func(what string, urls []string) {
		if len(urls) == 0 {
			return
		}
		shown := urls
		if len(shown) > 3 {
			shown = shown[:3]
		}
		s := what + ": " + strings.Join(shown, ", ")
		if len(urls) > len(shown) {
			s += fmt.Sprintf(" and %d more", len(urls)-len(shown))
		}
		parts = append(parts, s)
	}
	list(fmt.Sprintf("scripts past the first %d, not fetched", MaxScripts), o.skippedScripts)
	list(fmt.Sprintf("scripts over the bound on script bytes (%d MiB in all, the scan's cap each), not read", MaxScriptBytes>>20), o.tooBigScripts)
	list("app-shell pages whose content is built by script, which the scan does not run", o.shells)
	list("pages whose rendering failed", o.failed)
	list("scripts the browser was refused while rendering, which did not run", o.refusedScripts())
	if len(o.unread) > 0 {
		parts = append(parts, o.unread[0].url+": "+o.unread[0].why())
	}
	return strings.Join(parts, "; ")
}

// registrations counts the script registrations through each API.
func (o *toolsRead) registrations() (document, navigator int) {
	for _, t := range o.scripts {
		if t.api == apiDocument {
			document++
		} else {
			navigator++
		}
	}
	return document, navigator
}

// formsText says which current forms of the WebMCP draft the script
// registrations use and which deprecated ones, for the receipts: "" when
// there is no script registration.
func (o *toolsRead) formsText() (current, deprecated []string) {
	var ro, un, ex, sig, provide, nav int
	for _, t := range o.scripts {
		if t.rendered {
			continue
		}
		ro, un, ex, sig = ro+b2i(t.readOnly), un+b2i(t.untrusted), ex+b2i(t.exposedTo), sig+b2i(t.signal)
		provide += b2i(t.call == "provideContext")
		nav += b2i(t.api == apiNavigator)
	}
	add := func(list *[]string, n int, what string) {
		if n > 0 {
			*list = append(*list, fmt.Sprintf("%s on %s", what, plural.N(n, "registration", "registrations")))
		}
	}
	add(&current, ro, "the readOnlyHint annotation")
	add(&current, un, "the untrustedContentHint annotation")
	add(&current, ex, "exposedTo")
	add(&current, sig, "an abort signal")
	add(&deprecated, nav, "navigator.modelContext (deprecated by Chrome 150 for document.modelContext, the object the WebMCP draft defines)")
	add(&deprecated, provide, "provideContext (which the WebMCP draft no longer defines: registerTool is the call)")
	return current, deprecated
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// actionForms returns the forms that count as actions: every form but a
// plain site search.
func (o *toolsRead) actionForms() []pageForm {
	var out []pageForm
	for _, f := range o.forms {
		if !f.search || f.declared() {
			out = append(out, f)
		}
	}
	return out
}

// tools reports how many page tools are declared, declaratively and by
// registration.
func (o *toolsRead) tools() int {
	n := len(o.scripts)
	for _, f := range o.forms {
		if f.declared() {
			n++
		}
	}
	return n
}

// scope lists the routes the tools were read from.
func (o *toolsRead) scope() []string {
	var out []string
	for _, p := range o.pages {
		out = append(out, p.url)
	}
	return out
}

// toolsRead reads the forms and scripts of the given page and of the further
// routes the scan read, once per scan.
func (s *scan) toolsRead() *toolsRead {
	return readOnce(s, "tools", s.readTools)
}

func (s *scan) readTools() *toolsRead {
	o := &toolsRead{}
	pages := append([]*pageRead{s.pageRead()}, s.extraPages()...)
	var readable []*pageRead
	for i, p := range pages {
		if p == nil {
			continue
		}
		if !p.readable() {
			if !p.f.answered() {
				o.unread = append(o.unread, p.f)
			}
			if i == 0 {
				o.requests = append(o.requests, p.f)
			}
			continue
		}
		o.pages = append(o.pages, p)
		o.requests = append(o.requests, p.f)
		readable = append(readable, p)
	}
	renders := s.renderPages(readable)
	var scriptURLs []string
	seenScript := map[string]bool{}
	for i, p := range readable {
		if r := renders[i]; r != nil && r.err == nil {
			o.rendered = append(o.rendered, r)
			for _, n := range r.r.Notes {
				o.notes = append(o.notes, p.url+": "+shorten.Runes(clean(n), 300))
			}
			o.forms = append(o.forms, r.forms...)
			for _, t := range r.tools {
				if len(o.scripts) < maxScriptTools {
					o.scripts = append(o.scripts, t)
				}
			}
			if len(r.tools) > 0 {
				continue
			}
			// The browser registered no tool: what the scripts' text
			// shows is kept, since a rendering can end before a script
			// registers (a timer after the load, say). The rendered
			// forms stand for the page's.
			o.addStatic(p.url, p.inline, p.srcs, &scriptURLs, seenScript)
			continue
		} else if r != nil {
			o.failed = append(o.failed, p.url+" ("+r.why()+")")
		}
		if p.text < minVisibleChars && p.scripts > 0 {
			// The page is short and a script could have built it: its
			// forms and tools may be written at run time.
			o.shells = append(o.shells, p.url)
		}
		o.forms = append(o.forms, p.forms...)
		o.addStatic(p.url, p.inline, p.srcs, &scriptURLs, seenScript)
	}
	if len(scriptURLs) > MaxScripts {
		o.notes = append(o.notes, fmt.Sprintf("read only the first %d external scripts of %d", MaxScripts, len(scriptURLs)))
		o.skippedScripts = scriptURLs[MaxScripts:]
		scriptURLs = scriptURLs[:MaxScripts]
	}
	for _, f := range s.readScripts(scriptURLs) {
		o.requests = append(o.requests, f)
		switch {
		case errors.Is(f.err, safefetch.ErrTooLarge):
			o.tooBigScripts = append(o.tooBigScripts, f.url)
		case !f.answered():
			o.unread = append(o.unread, f)
		case f.ok():
			o.sources++
			o.addScriptTools(f.url, string(f.body()))
		}
		// A script that answered 404 or 410 does not exist: nothing runs.
	}
	// Checks append to the shared requests: clipped, every append copies.
	o.requests = slices.Clip(o.requests)
	return o
}

// addStatic reads the tools of a page's inline scripts and queues its
// external scripts, each once, to be read.
func (o *toolsRead) addStatic(page string, inline, srcs []string, queue *[]string, seen map[string]bool) {
	for _, text := range inline {
		o.sources++
		o.addScriptTools(page, text)
	}
	for _, src := range srcs {
		if !seen[src] {
			seen[src] = true
			*queue = append(*queue, src)
		}
	}
}

func (o *toolsRead) addScriptTools(source, text string) {
	for _, t := range findScriptTools(text) {
		if len(o.scripts) >= maxScriptTools {
			return
		}
		t.source = source
		o.scripts = append(o.scripts, t)
	}
}

// browsers names the browsers that rendered, for receipts.
func (o *toolsRead) browsers() string {
	var names []string
	for _, r := range o.rendered {
		if r.r.Browser != "" && !slices.Contains(names, r.r.Browser) {
			names = append(names, r.r.Browser)
		}
	}
	if len(names) == 0 {
		return "a browser"
	}
	return strings.Join(names, ", ")
}

// renderedSummary says what the renderings saw: the browser, the pages and
// the tools it registered, or "" when nothing was rendered.
func (o *toolsRead) renderedSummary() string {
	if len(o.rendered) == 0 {
		return ""
	}
	var tools []string
	n := 0
	for _, pr := range o.rendered {
		for _, t := range pr.r.Tools {
			n++
			if len(tools) >= 8 {
				continue
			}
			kind := "imperative"
			if t.Declarative {
				kind = "declarative"
			}
			where := t.Script
			if where == "" {
				where = t.Frame
			}
			label := fmt.Sprintf("%q (%s", shorten.Runes(clean(t.Name), 60), kind)
			if where != "" {
				label += ", " + shorten.Runes(clean(where), 100)
			}
			tools = append(tools, label+")")
		}
	}
	s := fmt.Sprintf("rendered in %s (%s)", o.browsers(), plural.N(len(o.rendered), "page", "pages"))
	switch {
	case n == 0:
		s += ": no tool registered"
	default:
		s += fmt.Sprintf(": %s registered: %s", plural.N(n, "tool", "tools"), strings.Join(tools, ", "))
		if n > len(tools) {
			s += fmt.Sprintf(" and %d more", n-len(tools))
		}
	}
	return s
}

// renderRecords turns the renderings' requests into receipt records, at most
// maxRenderedRecords a page.
func (o *toolsRead) renderRecords() []RequestRecord {
	var out []RequestRecord
	for _, pr := range o.rendered {
		for i, q := range pr.r.Requests {
			if i >= maxRenderedRecords {
				break
			}
			rec := RequestRecord{Method: q.Method, URL: shorten.Runes(clean(q.URL), 300)}
			switch {
			case q.Skipped:
				rec.Skipped = shorten.Runes(clean(q.Refused), 200)
			case q.Refused != "":
				rec.Error = shorten.Runes(clean(q.Refused), 200)
			default:
				rec.Response = &ResponseRecord{Status: q.Status, Bytes: q.Bytes}
			}
			out = append(out, rec)
		}
	}
	return out
}

// refusedScripts lists the scripts a browser was refused while rendering:
// they did not run, and may hold tools.
func (o *toolsRead) refusedScripts() []string {
	var out []string
	for _, pr := range o.rendered {
		for _, q := range pr.r.Requests {
			if q.Type == "Script" && q.Refused != "" {
				out = append(out, shorten.Runes(clean(q.URL), 200)+" ("+shorten.Runes(clean(q.Refused), 80)+")")
			}
		}
	}
	return out
}

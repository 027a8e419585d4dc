package readiness

import (
	"bytes"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Bounds on what the page-tool reader keeps (the check catalogue, Act).
const (
	maxForms          = 64 // forms read per page
	maxControls       = 64 // named controls read per form
	maxScriptFetches  = 6  // same-origin external scripts read per scan
	maxScriptTools    = 64 // registrations kept per scan
	maxScriptText     = 1 << 20
	registrationSlice = 4096 // characters after a registerTool( call searched for its name and description
)

// pageForm is one <form> of a page as the Act checks read it: its WebMCP
// declarative attributes (toolname, tooldescription, toolautosubmit; the
// WebMCP declarative API explainer) and its named controls.
type pageForm struct {
	page       string
	toolName   string
	toolDesc   string
	autoSubmit bool
	method     string
	action     string
	// search is true for a plain site search, which is not an action.
	search   bool
	controls []formControl
}

// declared reports whether the form is declared as a page tool: it has a
// toolname.
func (f pageForm) declared() bool { return strings.TrimSpace(f.toolName) != "" }

// registered reports whether a browser registers the form as a tool: a
// toolname and a tooldescription (Chromium registers no declarative tool
// without a description).
func (f pageForm) registered() bool { return f.declared() && strings.TrimSpace(f.toolDesc) != "" }

// formControl is one named control of a form.
type formControl struct {
	name      string
	paramDesc bool // a non-empty toolparamdescription
}

// scriptTool is one tool registration found by reading script text, never
// by running it: document.modelContext.registerTool (WebMCP, 2026) or the
// older navigator.modelContext form.
type scriptTool struct {
	source      string // the page (inline script) or the script URL
	api         string // "document.modelContext" or "navigator.modelContext"
	name        string
	description bool
}

// toolsObs is what the Act checks read from the scanned routes.
type toolsObs struct {
	pages    []*pageObs // the routes read as HTML
	forms    []pageForm
	scripts  []scriptTool
	requests []*fetched // the pages and the external scripts read
	unread   []*fetched // routes or scripts that did not answer
	notes    []string

	// What the scan did not read that may hold page tools (the method's
	// §07: findings state their scope): scripts of another origin, which
	// are never fetched; same-origin scripts over the per-scan bound; and
	// pages that are app shells, whose content a script builds.
	foreignScripts []string
	skippedScripts []string
	shells         []string
}

// notRead says what the scan did not read that may hold page tools, or ""
// when it read everything.
func (o *toolsObs) notRead() string {
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
	list("scripts of another origin, never fetched", o.foreignScripts)
	list(fmt.Sprintf("same-origin scripts past the first %d, not fetched", maxScriptFetches), o.skippedScripts)
	list("app-shell pages whose content is built by script, which the scan does not run", o.shells)
	if len(o.unread) > 0 {
		parts = append(parts, o.unread[0].url+": "+o.unread[0].why())
	}
	return strings.Join(parts, "; ")
}

// registrations counts the script registrations through each API.
func (o *toolsObs) registrations() (document, navigator int) {
	for _, t := range o.scripts {
		if t.api == apiDocument {
			document++
		} else {
			navigator++
		}
	}
	return document, navigator
}

// actionForms returns the forms that count as actions: every form but a
// plain site search.
func (o *toolsObs) actionForms() []pageForm {
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
func (o *toolsObs) tools() int {
	n := len(o.scripts)
	for _, f := range o.forms {
		if f.declared() {
			n++
		}
	}
	return n
}

// scope lists the routes the tools were read from.
func (o *toolsObs) scope() []string {
	var out []string
	for _, p := range o.pages {
		out = append(out, p.url)
	}
	return out
}

// toolsObs reads the forms and scripts of the given page and of the further
// routes the scan read, once per scan.
func (s *scan) toolsObs() *toolsObs {
	// Checks append to the shared requests: clipped, every append copies.
	return lazyObs(s, "tools", func() *toolsObs {
		o := s.readTools()
		o.requests = slices.Clip(o.requests)
		return o
	})
}

func (s *scan) readTools() *toolsObs {
	o := &toolsObs{}
	pages := append([]*pageObs{s.pageObs()}, s.extraPages()...)
	var scriptURLs []string
	seenScript := map[string]bool{}
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
		if p.text < minVisibleChars && p.scripts > 0 {
			// The page is an app shell by initial_html_content's measure:
			// its forms and tools may be written by a script at run time.
			o.shells = append(o.shells, p.url)
		}
		forms, inline, srcs, foreign := readPageTools(p)
		for _, u := range foreign {
			if !seenScript[u] && len(o.foreignScripts) < maxScriptTools {
				seenScript[u] = true
				o.foreignScripts = append(o.foreignScripts, u)
			}
		}
		o.forms = append(o.forms, forms...)
		for _, text := range inline {
			o.addScriptTools(p.url, text)
		}
		for _, src := range srcs {
			if !seenScript[src] {
				seenScript[src] = true
				scriptURLs = append(scriptURLs, src)
			}
		}
	}
	if len(scriptURLs) > maxScriptFetches {
		o.notes = append(o.notes, fmt.Sprintf("read only the first %d same-origin scripts of %d", maxScriptFetches, len(scriptURLs)))
		o.skippedScripts = scriptURLs[maxScriptFetches:]
		scriptURLs = scriptURLs[:maxScriptFetches]
	}
	fetchedScripts := make([]*fetched, len(scriptURLs))
	done := make(chan struct{}, len(scriptURLs))
	for i, u := range scriptURLs {
		go func() { fetchedScripts[i] = s.get(u, ""); done <- struct{}{} }()
	}
	for range scriptURLs {
		<-done
	}
	for _, f := range fetchedScripts {
		o.requests = append(o.requests, f)
		if !f.answered() {
			o.unread = append(o.unread, f)
			continue
		}
		if f.ok() {
			o.addScriptTools(f.url, string(f.body()))
		}
	}
	return o
}

func (o *toolsObs) addScriptTools(source, text string) {
	for _, t := range findScriptTools(text) {
		if len(o.scripts) >= maxScriptTools {
			return
		}
		t.source = source
		o.scripts = append(o.scripts, t)
	}
}

// readPageTools parses a page's HTML (without running scripts) and returns
// its forms, the text of its inline scripts, the URLs of its same-origin
// external scripts and those of its scripts on another origin (never
// fetched).
func readPageTools(p *pageObs) (forms []pageForm, inline, srcs, foreign []string) {
	base, err := url.Parse(p.url)
	if err != nil {
		return nil, nil, nil, nil
	}
	if p.f.resp != nil {
		if fu, err := url.Parse(p.f.resp.FinalURL); err == nil && fu.IsAbs() {
			base = fu
		}
	}
	if p.head != nil && p.head.Base != "" {
		if b, err := url.Parse(p.head.Base); err == nil && b.IsAbs() {
			base = b
		}
	}
	doc, err := html.ParseWithOptions(bytes.NewReader(p.f.body()), html.ParseOptionEnableScripting(true))
	if err != nil {
		return nil, nil, nil, nil
	}
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode || inTemplate(n) {
			continue
		}
		switch n.DataAtom {
		case atom.Form:
			if len(forms) < maxForms {
				forms = append(forms, readForm(p.url, n))
			}
		case atom.Script:
			t := strings.ToLower(strings.TrimSpace(attr(n, "type")))
			if t != "" && t != "module" && !strings.Contains(t, "javascript") && !strings.Contains(t, "ecmascript") {
				continue // JSON-LD, templates and other data blocks
			}
			if src, ok := attrOK(n, "src"); ok {
				u, err := base.Parse(strings.TrimSpace(src))
				if err == nil && (u.Scheme == "https" || u.Scheme == "http") {
					u.Fragment, u.RawFragment = "", ""
					if strings.EqualFold(u.Host, base.Host) {
						srcs = append(srcs, u.String())
					} else {
						foreign = append(foreign, truncate(clean(u.String()), 200))
					}
				}
				continue
			}
			var b strings.Builder
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.TextNode && b.Len() < maxScriptText {
					b.WriteString(c.Data)
				}
			}
			inline = append(inline, b.String())
		}
	}
	return forms, inline, srcs, foreign
}

func inTemplate(n *html.Node) bool {
	for a := n.Parent; a != nil; a = a.Parent {
		if a.Type == html.ElementNode && a.DataAtom == atom.Template {
			return true
		}
	}
	return false
}

// searchNames are the control names of a plain site search.
var searchNames = map[string]bool{"q": true, "query": true, "s": true, "search": true, "keyword": true, "keywords": true, "term": true, "terms": true, "k": true}

func readForm(page string, n *html.Node) pageForm {
	f := pageForm{page: page, method: strings.ToLower(strings.TrimSpace(attr(n, "method"))), action: attr(n, "action")}
	f.toolName = strings.TrimSpace(attr(n, "toolname"))
	f.toolDesc = strings.TrimSpace(attr(n, "tooldescription"))
	_, f.autoSubmit = attrOK(n, "toolautosubmit")
	var textInputs, searchInputs, other int
	for c := range n.Descendants() {
		if c.Type != html.ElementNode {
			continue
		}
		var kind string
		switch c.DataAtom {
		case atom.Input:
			kind = strings.ToLower(strings.TrimSpace(attr(c, "type")))
			if kind == "" {
				kind = "text"
			}
		case atom.Select, atom.Textarea:
			kind = c.DataAtom.String()
		default:
			continue
		}
		switch kind {
		case "hidden", "submit", "button", "image", "reset":
			continue
		}
		name := strings.TrimSpace(attr(c, "name"))
		switch {
		case kind == "search" || (kind == "text" && searchNames[strings.ToLower(name)]):
			searchInputs++
		case kind == "text":
			textInputs++
		default:
			other++
		}
		if name != "" && len(f.controls) < maxControls {
			f.controls = append(f.controls, formControl{name: name, paramDesc: strings.TrimSpace(attr(c, "toolparamdescription")) != ""})
		}
	}
	role := strings.EqualFold(strings.TrimSpace(attr(n, "role")), "search")
	for a := n.Parent; a != nil && !role; a = a.Parent {
		if a.Type == html.ElementNode && (a.Data == "search" || strings.EqualFold(strings.TrimSpace(attr(a, "role")), "search")) {
			role = true
		}
	}
	onlySearch := searchInputs == 1 && textInputs == 0 && other == 0
	f.search = f.method != "post" && (onlySearch || (role && searchInputs+textInputs == 1 && other == 0))
	return f
}

var (
	// modelContextRef finds a reference to the WebMCP API object, new
	// (document.modelContext) or old (navigator.modelContext).
	modelContextRef = regexp.MustCompile(`\b(document|navigator)\s*\.\s*modelContext\b`)
	// registration finds a tool registration call: registerTool (WebMCP)
	// or the older provideContext.
	registration = regexp.MustCompile(`\b(registerTool|provideContext)\s*\(`)
	toolNameProp = regexp.MustCompile(`\bname\s*:\s*(?:"([^"\n]{1,200})"|'([^'\n]{1,200})'|` + "`" + `([^` + "`" + `]{1,200})` + "`" + `)`)
	toolDescProp = regexp.MustCompile(`\bdescription\s*:\s*(?:"\s*[^"\s]|'\s*[^'\s]|` + "`" + `\s*[^` + "`" + `\s])`)
)

// The two WebMCP API objects a script may register tools on.
const (
	apiDocument  = "document.modelContext"
	apiNavigator = "navigator.modelContext"
)

// findScriptTools reads script text for tool registrations: a call of
// registerTool (or the older provideContext) in a script that refers to
// document.modelContext or navigator.modelContext. A script that refers to
// document.modelContext anywhere registers through it (current browsers
// expose only that one); else through navigator.modelContext. The name and
// description are read from the object literal that follows the call, when
// it has them. The script is never run, so a registration built at run time
// is found as a registration without a name.
func findScriptTools(text string) []scriptTool {
	api := ""
	for _, m := range modelContextRef.FindAllStringSubmatch(text, maxScriptTools) {
		if m[1] == "document" {
			api = apiDocument
			break
		}
		api = apiNavigator
	}
	if api == "" {
		return nil
	}
	var out []scriptTool
	for _, loc := range registration.FindAllStringIndex(text, maxScriptTools) {
		end := min(len(text), loc[1]+registrationSlice)
		window := text[loc[1]:end]
		// Stop at the next registration: its properties are its own.
		if next := registration.FindStringIndex(window); next != nil {
			window = window[:next[0]]
		}
		t := scriptTool{api: api}
		if m := toolNameProp.FindStringSubmatch(window); m != nil {
			t.name = strings.TrimSpace(m[1] + m[2] + m[3])
		}
		t.description = toolDescProp.MatchString(window)
		out = append(out, t)
	}
	return out
}

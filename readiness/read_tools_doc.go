package readiness

import (
	"net/url"
	"regexp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Bounds on what the page-tool reader keeps (the check catalogue, Act).
const (
	maxForms          = 64 // forms read per page
	maxControls       = 64 // named controls read per form
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
	// call is the registration call: "registerTool", or "provideContext",
	// an earlier form the WebMCP draft no longer defines.
	call string
	// The current forms the registration uses, read in the object literal and
	// options that follow the call (WebMCP, "ToolAnnotations" and
	// "ModelContextRegisterToolOptions"). They are the readOnlyHint and
	// untrustedContentHint annotations, exposedTo and an abort signal.
	readOnly, untrusted, exposedTo, signal bool
	// rendered is true for a tool a browser registered while rendering,
	// false for one found by reading script text.
	rendered bool
	// literal is true when the registration's argument is an object literal the
	// scan read: what it lacks, it lacks. It is false for a variable or an
	// expression the script computes.
	literal bool
}

// isScriptType reports whether a script element's type attribute makes it a
// script that runs: absent or empty, a JavaScript MIME type essence, or
// "module". Any other type is a data block, which is never run (HTML Living
// Standard, the script element, "the type attribute"). The language
// attribute is not read: an empty type wins over it, and an absent one with
// a language is rare.
//
// [the script element]: https://html.spec.whatwg.org/multipage/scripting.html#the-script-element
func isScriptType(n *html.Node) bool {
	t, ok := attrOK(n, "type")
	if !ok {
		return true
	}
	t = strings.ToLower(strings.Trim(t, " \t\n\f\r"))
	switch t {
	case "", "module",
		"application/ecmascript", "application/javascript", "application/x-ecmascript", "application/x-javascript",
		"text/ecmascript", "text/javascript", "text/javascript1.0", "text/javascript1.1", "text/javascript1.2",
		"text/javascript1.3", "text/javascript1.4", "text/javascript1.5", "text/jscript", "text/livescript",
		"text/x-ecmascript", "text/x-javascript":
		return true
	}
	return false
}

// readDocTools reads the forms and scripts of a parsed document.
func readDocTools(page string, base *url.URL, doc *html.Node) (forms []pageForm, inline, srcs []string) {
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode || inTemplate(n) {
			continue
		}
		switch n.DataAtom {
		case atom.Form:
			if len(forms) < maxForms {
				forms = append(forms, readForm(page, n))
			}
		case atom.Script:
			if !isScriptType(n) {
				continue // JSON-LD, templates and other data blocks
			}
			if src, ok := attrOK(n, "src"); ok {
				u, err := base.Parse(strings.TrimSpace(src))
				if err == nil && (u.Scheme == "https" || u.Scheme == "http") {
					u.Fragment, u.RawFragment = "", ""
					srcs = append(srcs, u.String())
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
	return forms, inline, srcs
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
	registration  = regexp.MustCompile(`\b(registerTool|provideContext)\s*\(`)
	toolNameProp  = regexp.MustCompile(`\bname\s*:\s*(?:"([^"\n]{1,200})"|'([^'\n]{1,200})'|` + "`" + `([^` + "`" + `]{1,200})` + "`" + `)`)
	readOnlyProp  = regexp.MustCompile(`\breadOnlyHint\s*:`)
	untrustedProp = regexp.MustCompile(`\buntrustedContentHint\s*:`)
	exposedToProp = regexp.MustCompile(`\bexposedTo\s*:`)
	signalProp    = regexp.MustCompile(`\bsignal\s*[:,}]`)
	toolDescProp  = regexp.MustCompile(`\bdescription\s*:\s*(?:"\s*[^"\s]|'\s*[^'\s]|` + "`" + `\s*[^` + "`" + `\s])`)
)

// The two WebMCP API objects a script may register tools on.
const (
	apiDocument  = "document.modelContext"
	apiNavigator = "navigator.modelContext"
)

// findScriptTools reads script text for tool registrations. A registration is a
// call of registerTool (or the older provideContext) in a script that refers to
// document.modelContext or navigator.modelContext. A script that refers to
// document.modelContext anywhere registers through it, since current browsers
// expose only that one. Else it registers through navigator.modelContext. The
// name and description are read from the object literal that follows the call,
// when it has them. So are the current forms of the WebMCP draft: the
// readOnlyHint and untrustedContentHint annotations, and exposedTo and an abort
// signal in the options. The script is never run, so a registration built at
// run time is found as a registration without a name.
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
		t := scriptTool{api: api, call: strings.TrimRight(strings.TrimSpace(text[loc[0]:loc[1]]), "( \t\n")}
		t.readOnly, t.untrusted = readOnlyProp.MatchString(window), untrustedProp.MatchString(window)
		t.exposedTo, t.signal = exposedToProp.MatchString(window), signalProp.MatchString(window)
		if m := toolNameProp.FindStringSubmatch(window); m != nil {
			t.name = strings.TrimSpace(m[1] + m[2] + m[3])
		}
		t.description = toolDescProp.MatchString(window)
		t.literal = strings.HasPrefix(strings.TrimSpace(window), "{")
		out = append(out, t)
	}
	return out
}

package agentic

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/url"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/agentweb/agentweb/internal/strictjson"
)

// Bounds of the extractors, so that no remote document can make a scan do
// unbounded work.
const (
	maxLinksPerDocument = 300
	maxTextRun          = 4096
	maxOperationsRead   = 2000 // operations examined per OpenAPI document
)

// pageLink is one link found in a document.
type pageLink struct {
	href  string // resolved absolute URL
	rel   []string
	typ   string
	text  string
	inNav bool
}

// pageInfo is what a scan reads from an HTML page.
type pageInfo struct {
	title, siteName, description string
	links                        []pageLink
}

// parseHTML reads the title, site name, description and links of a page
// with a streaming tokenizer: no script runs, and links inside comments,
// <script>, <style>, <noscript> and <template> are ignored.
func parseHTML(body []byte, pageURL *url.URL) pageInfo {
	var p pageInfo
	z := html.NewTokenizer(bytes.NewReader(body))
	z.SetMaxBuf(len(body) + 1)
	base := pageURL
	skip := 0 // depth inside elements whose content is not a page link
	var inTitle bool
	var title strings.Builder
	var anchor *pageLink
	var anchorText strings.Builder
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken: // io.EOF, or the buffer bound
			if p.title == "" {
				p.title = cleanText(title.String())
			}
			return p
		case html.TextToken:
			if inTitle && title.Len() < maxTextRun {
				title.Write(z.Text())
			}
			if anchor != nil && anchorText.Len() < maxTextRun {
				anchorText.Write(z.Text())
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			a := atom.Lookup(name)
			attrs := map[string]string{}
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				if _, dup := attrs[string(k)]; !dup && len(attrs) < 32 {
					attrs[string(k)] = string(v)
				}
			}
			switch a {
			case atom.Script, atom.Style, atom.Noscript, atom.Template:
				if tt == html.StartTagToken {
					skip++
				}
			case atom.Title:
				if skip == 0 && p.title == "" && tt == html.StartTagToken {
					inTitle = true
				}
			case atom.Base:
				if u, err := base.Parse(strings.TrimSpace(attrs["href"])); err == nil && skip == 0 && attrs["href"] != "" {
					base = u
				}
			case atom.Meta:
				name := strings.ToLower(attrs["name"])
				prop := strings.ToLower(attrs["property"])
				c := cleanText(attrs["content"])
				switch {
				case (name == "description") && p.description == "":
					p.description = c
				case prop == "og:description" && p.description == "":
					p.description = c
				case prop == "og:site_name" || name == "application-name":
					if p.siteName == "" {
						p.siteName = c
					}
				}
			case atom.Link:
				if skip == 0 && len(p.links) < maxLinksPerDocument {
					if u, ok := resolveHref(base, attrs["href"]); ok {
						p.links = append(p.links, pageLink{href: u, rel: strings.Fields(strings.ToLower(attrs["rel"])), typ: strings.ToLower(attrs["type"]), text: cleanText(attrs["title"])})
					}
				}
			case atom.A:
				if skip == 0 && len(p.links) < maxLinksPerDocument && tt == html.StartTagToken {
					if u, ok := resolveHref(base, attrs["href"]); ok {
						anchor = &pageLink{href: u, rel: strings.Fields(strings.ToLower(attrs["rel"])), typ: strings.ToLower(attrs["type"])}
						anchorText.Reset()
						if t := attrs["title"]; t != "" {
							anchorText.WriteString(t + " ")
						}
					}
				}
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			switch atom.Lookup(name) {
			case atom.Script, atom.Style, atom.Noscript, atom.Template:
				if skip > 0 {
					skip--
				}
			case atom.Title:
				if inTitle {
					inTitle = false
					p.title = cleanText(title.String())
				}
			case atom.A:
				if anchor != nil {
					anchor.text = cleanText(anchorText.String())
					p.links = append(p.links, *anchor)
					anchor = nil
				}
			}
		}
	}
}

// resolveHref resolves an href against base; only https and http results
// are kept (the URL rules later refuse http).
func resolveHref(base *url.URL, href string) (string, bool) {
	href = strings.TrimSpace(href)
	if href == "" || len(href) > maxURLLength || strings.HasPrefix(href, "#") {
		return "", false
	}
	u, err := base.Parse(href)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return "", false
	}
	u.Fragment, u.RawFragment = "", ""
	return u.String(), true
}

var (
	markdownLink = regexp.MustCompile(`\[([^\]\n]{0,300})\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"\n]{0,300}")?\s*\)`)
	autoLink     = regexp.MustCompile(`<(https://[^>\s]+)>`)
)

// parseMarkdown reads the first heading, the first blockquote (llms.txt's
// summary) and the links of a text or Markdown document.
func parseMarkdown(body []byte, docURL *url.URL) pageInfo {
	var p pageInfo
	for _, l := range strings.SplitN(string(body), "\n", 200) {
		l = strings.TrimSpace(l)
		if p.title == "" && strings.HasPrefix(l, "# ") {
			p.title = cleanText(strings.TrimPrefix(l, "# "))
		}
		if p.description == "" && strings.HasPrefix(l, "> ") {
			p.description = cleanText(strings.TrimPrefix(l, "> "))
		}
	}
	for _, m := range markdownLink.FindAllStringSubmatch(string(body), maxLinksPerDocument) {
		if u, ok := resolveHref(docURL, m[2]); ok {
			p.links = append(p.links, pageLink{href: u, text: cleanText(m[1])})
		}
	}
	for _, m := range autoLink.FindAllStringSubmatch(string(body), maxLinksPerDocument-len(p.links)) {
		if u, ok := resolveHref(docURL, m[1]); ok {
			p.links = append(p.links, pageLink{href: u})
		}
	}
	return p
}

// cleanText collapses white space, drops control, invisible and
// directional formatting characters, and trims.
func cleanText(s string) string {
	if len(s) > maxTextRun {
		s = s[:maxTextRun]
	}
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case r == utf8.RuneError:
			continue
		case unicode.IsSpace(r) || r < 0x20 || r == 0x2028 || r == 0x2029:
			space = true
			continue
		case txtEscaped(r):
			continue // invisible, directional or C1 control: dropped
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// cutRunes returns s cut to at most n code points.
func cutRunes(s string, n int) string {
	i := 0
	for pos := range s {
		if i == n {
			return strings.TrimSpace(s[:pos])
		}
		i++
	}
	return s
}

// openAPIDoc is what a scan reads from an OpenAPI 3 JSON document.
type openAPIDoc struct {
	version string
	title   string
	ops     []rawOperation
}

type rawOperation struct {
	method, path       string
	operationID        *string
	summary            *string
	operationIDNotText bool
}

var errNotOpenAPI3 = errors.New("not an OpenAPI 3 document")

// parseOpenAPI reads the version, title and operations of an OpenAPI 3 JSON
// document in document order (paths, then methods as written). The body is
// first checked as strict JSON (no duplicate members, bounded depth).
func parseOpenAPI(body []byte) (*openAPIDoc, error) {
	if err := strictjson.Valid(body); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errNotOpenAPI3
	}
	doc := &openAPIDoc{}
	var paths json.RawMessage
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, err
		}
		switch kt.(string) {
		case "openapi":
			var v any
			if err := dec.Decode(&v); err != nil {
				return nil, err
			}
			doc.version, _ = v.(string)
		case "info":
			var info struct {
				Title any `json:"title"`
			}
			if err := dec.Decode(&info); err != nil {
				return nil, err
			}
			t, _ := info.Title.(string)
			doc.title = cleanText(t)
		case "paths":
			if err := dec.Decode(&paths); err != nil {
				return nil, err
			}
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, err
			}
		}
	}
	if !strings.HasPrefix(doc.version, "3.") {
		return nil, errNotOpenAPI3
	}
	if len(paths) > 0 {
		ops, err := orderedOperations(paths)
		if err != nil {
			return nil, err
		}
		doc.ops = ops
	}
	return doc, nil
}

var openAPIMethods = map[string]bool{"get": true, "put": true, "post": true, "delete": true, "options": true, "head": true, "patch": true, "trace": true}

// orderedOperations lists the operations of a "paths" object in order.
func orderedOperations(paths json.RawMessage) ([]rawOperation, error) {
	dec := json.NewDecoder(bytes.NewReader(paths))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil // not an object: no operations
	}
	var out []rawOperation
	for dec.More() {
		pt, err := dec.Token()
		if err != nil {
			return nil, err
		}
		path := pt.(string)
		var item json.RawMessage
		if err := dec.Decode(&item); err != nil {
			return nil, err
		}
		idec := json.NewDecoder(bytes.NewReader(item))
		if t, err := idec.Token(); err != nil || t != json.Delim('{') {
			continue
		}
		for idec.More() {
			mt, err := idec.Token()
			if err != nil {
				return nil, err
			}
			var raw json.RawMessage
			if err := idec.Decode(&raw); err != nil {
				return nil, err
			}
			m := mt.(string)
			if !openAPIMethods[m] || len(out) >= maxOperationsRead {
				continue
			}
			var op map[string]any
			if json.Unmarshal(raw, &op) != nil {
				continue
			}
			ro := rawOperation{method: strings.ToUpper(m), path: path}
			if v, ok := op["operationId"]; ok {
				if s, ok := v.(string); ok {
					ro.operationID = &s
				} else {
					ro.operationIDNotText = true
				}
			}
			if s, ok := op["summary"].(string); ok {
				ro.summary = &s
			}
			out = append(out, ro)
		}
	}
	return out, nil
}

// isA2ACard reports whether a JSON document counts as an A2A agent card:
// "name" is a string and "skills" an array.
func isA2ACard(tree any) (string, bool) {
	m, ok := tree.(map[string]any)
	if !ok {
		return "", false
	}
	name, ok := m["name"].(string)
	_, skills := m["skills"].([]any)
	return name, ok && skills
}

// isAgentAuthConfig reports whether a JSON document counts as an Agent Auth
// configuration: "issuer" is a string and "endpoints" an object.
func isAgentAuthConfig(tree any) bool {
	m, ok := tree.(map[string]any)
	if !ok {
		return false
	}
	_, issuer := m["issuer"].(string)
	_, endpoints := m["endpoints"].(map[string]any)
	return issuer && endpoints
}

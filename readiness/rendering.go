package readiness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/html"

	"github.com/agentweb/agentweb/internal/shorten"
	"github.com/agentweb/agentweb/safefetch"
)

// Renderer renders a page in a browser for the Act checks: it runs the
// page's scripts and reports the DOM they leave and the WebMCP tools the
// browser registered. Every request the browser makes must be fulfilled by
// client (the scan's own, charged to its budget), or refused.
//
// The package github.com/agentweb/agentweb/readiness/browser implements it
// with the system's Chromium. A Renderer is safe for concurrent use: one
// serves many scans at once ([ScanAll] shares [Options.Renderer]).
type Renderer interface {
	Render(ctx context.Context, pageURL string, client *safefetch.Client) (*Rendering, error)
}

// Rendering is a page as a browser left it after running its scripts.
type Rendering struct {
	// URL is the page rendered: the document the page landed on after its
	// redirects.
	URL string
	// Browser names the browser and its version ("Chromium 156.0.8078.114").
	Browser string
	// HTML is the document serialised after scripts ran
	// (document.documentElement.outerHTML), within the renderer's bound.
	HTML []byte
	// Tools are the WebMCP tools the browser registered, declarative (a
	// form's toolname) and imperative (document.modelContext.registerTool),
	// in the order it registered them, less those it removed again.
	Tools []RenderedTool
	// Requests are the requests the browser made while rendering, each
	// fulfilled by the scan's client or refused, in the order made.
	Requests []RenderedRequest
	// Loaded reports whether the page's load event fired before the
	// snapshot; a page that never finishes loading is read as it stands at
	// the renderer's settle deadline.
	Loaded bool
	// Elapsed is how long the rendering took.
	Elapsed time.Duration
	// Notes are what the renderer has to say about the rendering that
	// bounds the findings: tools it could not read, a browser it had to
	// start again. The checks that read the rendering note them.
	Notes []string
}

// RenderedTool is one WebMCP tool a browser registered.
type RenderedTool struct {
	Name        string
	Description string
	// InputSchema is the tool's input schema as the browser reported it
	// (JSON), or nil.
	InputSchema json.RawMessage
	// Declarative is true for a tool declared by a form's toolname, false
	// for one registered by a script.
	Declarative bool
	// Frame is the URL of the frame that registered the tool.
	Frame string
	// Script is the URL of the script whose call registered the tool
	// (the top of the registration's stack), for an imperative tool.
	Script string
}

// RenderedRequest is one request a browser made while rendering.
type RenderedRequest struct {
	Method string
	URL    string
	// Type is the browser's resource type ("Document", "Script", "XHR",
	// "Fetch", "Image", ...).
	Type string
	// Status is the status the scan's client received, 0 when refused.
	Status int
	// Bytes is the length of the body handed to the browser.
	Bytes int
	// Refused says why the request was not fulfilled, "" when it was. It names
	// the fetch policy, the budget, a bound of the renderer, or a kind of
	// request the renderer never sends.
	Refused string
	// Skipped is true when the renderer did not fetch the request by design: an
	// image, a stylesheet, a font or media, none of which a rendering needs.
	// Refused then says so. It is no error, and receipts do not list it as one.
	Skipped bool
}

// maxRenderedRecords bounds the rendered requests a receipt lists per page.
const maxRenderedRecords = 32

// pageRendering is one page's rendering as the Act checks read it.
type pageRendering struct {
	page  string
	r     *Rendering
	err   error
	forms []pageForm
	tools []scriptTool
	text  int
}

func (p *pageRendering) why() string {
	if p.err == nil {
		return ""
	}
	return clean(shorten.Runes(p.err.Error(), 200))
}

// renderPages renders the given pages with the scan's Renderer, all at once
// (the Renderer bounds its own tabs). It returns nil entries when the scan
// has no Renderer.
func (s *scan) renderPages(pages []*pageRead) []*pageRendering {
	out := make([]*pageRendering, len(pages))
	if s.renderer == nil {
		return out
	}
	var wg sync.WaitGroup
	for i, p := range pages {
		wg.Go(func() { out[i] = s.renderPage(p.url) })
	}
	wg.Wait()
	return out
}

func (s *scan) renderPage(page string) *pageRendering {
	r, err := s.renderer.Render(s.ctx, page, s.client)
	if err == nil && r == nil {
		err = fmt.Errorf("readiness: the renderer returned no rendering")
	}
	if err != nil {
		return &pageRendering{page: page, err: err}
	}
	return readRendering(page, r)
}

// readRendering reads a rendering as the Act checks do. It reads the forms and
// the visible text of its DOM, and the imperative tools the browser registered.
// A declarative tool is read from its form, with its parameters.
func readRendering(page string, r *Rendering) *pageRendering {
	pr := &pageRendering{page: page, r: r}
	base, err := documentURL(page, r.URL)
	if err != nil {
		pr.err = err
		return pr
	}
	doc, err := html.ParseWithOptions(bytes.NewReader(r.HTML), html.ParseOptionEnableScripting(true))
	if err != nil {
		pr.err = fmt.Errorf("readiness: the rendered DOM does not parse: %w", err)
		return pr
	}
	pr.forms, _, _ = readDocTools(page, base, doc)
	p := &pageRead{url: page, base: base}
	p.walk(doc)
	pr.text = p.text
	for _, t := range r.Tools {
		if t.Declarative {
			continue
		}
		if len(pr.tools) >= maxScriptTools {
			break
		}
		src := t.Script
		if src == "" {
			src = t.Frame
		}
		if src == "" {
			src = page
		}
		pr.tools = append(pr.tools, scriptTool{source: src, api: apiDocument, name: t.Name,
			description: strings.TrimSpace(t.Description) != "", rendered: true})
	}
	return pr
}

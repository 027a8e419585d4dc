package publish

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/agentweb/agentweb/internal/serve"
)

// MCP describes the site's MCP endpoint for the kit. The kit serves
// Handler at Path. When the endpoint needs sign-in, it serves its OAuth
// 2.0 protected-resource metadata (RFC 9728) too. It then sends the
// WWW-Authenticate challenge that points to it (RFC 9728 Section 5.1; MCP
// 2025-11-25, "Authorization").
//
// [RFC 9728]: https://www.rfc-editor.org/rfc/rfc9728
// [MCP 2025-11-25]: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
type MCP struct {
	// Path is where the endpoint is served ("/mcp").
	Path string
	// Handler is the endpoint (for example the go-sdk's streamable HTTP
	// handler).
	Handler http.Handler
	// Name and Description name the endpoint for llms.txt and the card.
	Name, Description string
	// AuthorizationServers are the issuer identifiers of the authorization
	// servers that grant its tokens. Empty: the endpoint needs no sign-in,
	// and no metadata is published.
	AuthorizationServers []string
	// Scopes are the scopes a client may ask for (scopes_supported).
	Scopes []string
	// PublicTools are the tools any agent may call without a token, and
	// TokenTools those that need one: the documented access the card and
	// llms.txt state, so that an agent knows before it asks.
	PublicTools, TokenTools []string
}

// prmPath is the path-inserted well-known location of the endpoint's
// protected-resource metadata (RFC 9728 Section 3.1).
func (m *MCP) prmPath() string {
	return "/.well-known/oauth-protected-resource" + strings.TrimSuffix(m.Path, "/")
}

func (m *MCP) validate() error {
	switch {
	case !strings.HasPrefix(m.Path, "/") || strings.HasPrefix(m.Path, "/.well-known/") || strings.ContainsAny(m.Path, "?# "):
		return siteErr("MCP.Path", "%q is not a path of its own", m.Path)
	case m.Handler == nil:
		return siteErr("MCP.Handler", "nil")
	}
	for i, a := range m.AuthorizationServers {
		u, err := url.Parse(a)
		if err != nil || u.Scheme != "https" && !(u.Scheme == "http" && isLoopbackHost(u.Hostname())) || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
			return siteErr(fmt.Sprintf("MCP.AuthorizationServers[%d]", i), "%q is not an https issuer identifier (RFC 8414 Section 2)", a)
		}
	}
	for i, s := range m.Scopes {
		if s == "" || strings.ContainsAny(s, " \"\\") {
			return siteErr(fmt.Sprintf("MCP.Scopes[%d]", i), "%q is not a scope token (RFC 6749 Section 3.3)", s)
		}
	}
	for _, t := range m.PublicTools {
		if slices.Contains(m.TokenTools, t) {
			return siteErr("MCP.PublicTools", "%q is both public and token-only", t)
		}
	}
	return nil
}

// protectedResource is the RFC 9728 Section 2 metadata document.
type protectedResource struct {
	Resource               string   `json:"resource"`
	AuthorizationServers   []string `json:"authorization_servers"`
	ScopesSupported        []string `json:"scopes_supported,omitempty"`
	BearerMethodsSupported []string `json:"bearer_methods_supported"`
	ResourceName           string   `json:"resource_name,omitempty"`
	ResourceDocumentation  string   `json:"resource_documentation,omitempty"`
}

// buildMCP adds the endpoint and, when it needs sign-in, its metadata.
func (k *kit) buildMCP() error {
	m := k.site.MCP
	if m == nil {
		return nil
	}
	if err := m.validate(); err != nil {
		return err
	}
	resource := k.abs(m.Path)
	if len(m.AuthorizationServers) == 0 {
		k.routes[m.Path] = m.Handler
		return nil
	}
	body, err := json.MarshalIndent(protectedResource{
		Resource: resource, AuthorizationServers: m.AuthorizationServers, ScopesSupported: m.Scopes,
		BearerMethodsSupported: []string{"header"}, ResourceName: m.Name, ResourceDocumentation: k.abs(llmsPath),
	}, "", "  ")
	if err != nil {
		return siteErr("MCP", "%v", err)
	}
	k.routes[m.prmPath()] = serve.Handler(serve.Document{Body: append(body, '\n'), ContentType: "application/json",
		CacheControl: cacheControl, Header: http.Header{"Access-Control-Allow-Origin": {"*"}}})
	challenge := `Bearer resource_metadata="` + k.abs(m.prmPath()) + `"`
	if len(m.Scopes) > 0 {
		challenge += `, scope="` + strings.Join(m.Scopes, " ") + `"`
	}
	k.routes[m.Path] = &challenger{next: m.Handler, challenge: challenge}
	return nil
}

// challenger adds the RFC 9728 Section 5.1 challenge to a 401 the endpoint
// sends without one.
type challenger struct {
	next      http.Handler
	challenge string
}

func (c *challenger) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.next.ServeHTTP(&challengeWriter{ResponseWriter: w, challenge: c.challenge}, r)
}

type challengeWriter struct {
	http.ResponseWriter
	challenge string
	wrote     bool
}

func (cw *challengeWriter) WriteHeader(code int) {
	if !cw.wrote && code == http.StatusUnauthorized && cw.Header().Get("WWW-Authenticate") == "" {
		cw.Header().Set("WWW-Authenticate", cw.challenge)
	}
	if code >= 200 {
		cw.wrote = true
	}
	cw.ResponseWriter.WriteHeader(code)
}

func (cw *challengeWriter) Write(p []byte) (int, error) {
	cw.wrote = true
	return cw.ResponseWriter.Write(p)
}

// Flush passes streaming (the MCP endpoint's SSE) through.
func (cw *challengeWriter) Flush() {
	if f, ok := cw.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the real writer.
func (cw *challengeWriter) Unwrap() http.ResponseWriter { return cw.ResponseWriter }

// buildOpenAPI serves the OpenAPI document after checking that it is a
// JSON object with an "openapi" member of version 3.
func (k *kit) buildOpenAPI() error {
	if k.site.OpenAPI == nil {
		return nil
	}
	var doc struct {
		OpenAPI string `json:"openapi"`
	}
	if err := json.Unmarshal(k.site.OpenAPI, &doc); err != nil {
		return &SiteError{Field: "OpenAPI", Reason: "not a JSON document", Err: err}
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.") {
		return siteErr("OpenAPI", "openapi is %q, want a 3.x version", doc.OpenAPI)
	}
	k.routes[openAPIPath] = serve.Handler(serve.Document{Body: k.site.OpenAPI, ContentType: "application/json",
		CacheControl: cacheControl, Header: http.Header{"Access-Control-Allow-Origin": {"*"}}})
	return nil
}

// interfaces lists what an agent can call, for llms.txt and the card.
func (k *kit) interfaces() []anInterface {
	var out []anInterface
	if m := k.site.MCP; m != nil {
		name := m.Name
		if name == "" {
			name = "MCP server"
		}
		notes := m.Description
		if len(m.PublicTools) > 0 {
			notes = join(notes, "public: "+strings.Join(m.PublicTools, ", "))
		}
		if len(m.TokenTools) > 0 {
			notes = join(notes, "with a token: "+strings.Join(m.TokenTools, ", "))
		}
		out = append(out, anInterface{name, k.abs(m.Path), notes})
	}
	if k.site.OpenAPI != nil {
		out = append(out, anInterface{"OpenAPI", k.abs(openAPIPath), "the HTTP API, described"})
	}
	return out
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

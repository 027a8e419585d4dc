package mcpprobe

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/agentweb/agentweb/internal/weburl"
	"github.com/agentweb/agentweb/readiness/internal/oauthmeta"
	"github.com/agentweb/agentweb/readiness/internal/refusal"
	"github.com/agentweb/agentweb/safefetch"
)

// maxDocuments bounds the requests of sign-in discovery.
const maxDocuments = 10

// discovery is the state of one sign-in discovery.
type discovery struct {
	ctx context.Context
	c   *safefetch.Client
	get func(ctx context.Context, url string) (*safefetch.Response, error)
	r   *Receipt
}

// fetch requests one discovery document and records it. It returns the
// body of a 2xx answer, or nil. A request that fails because a pooled
// connection was closed is made once more, since GET is idempotent.
func (d *discovery) fetch(kind DocumentKind, u, rule, version string) (*Document, []byte) {
	for _, have := range d.r.Auth.Documents {
		if have.URL == u && have.Kind == kind {
			return nil, nil
		}
	}
	if len(d.r.Auth.Documents) >= maxDocuments {
		return nil, nil
	}
	d.r.Auth.Documents = append(d.r.Auth.Documents, Document{Kind: kind, URL: u, Rule: rule, Version: version})
	doc := &d.r.Auth.Documents[len(d.r.Auth.Documents)-1]
	get := d.get
	if get == nil {
		get = func(ctx context.Context, u string) (*safefetch.Response, error) {
			return d.c.Do(ctx, &safefetch.Request{Method: http.MethodGet, URL: u, Header: http.Header{"Accept": {"application/json"}}, MaxBodyBytes: MaxBodyBytes})
		}
	}
	resp, err := get(d.ctx, u)
	if err != nil && isClosedConn(err) && d.ctx.Err() == nil && d.get == nil {
		resp, err = get(d.ctx, u)
	}
	if err == nil && resp == nil {
		err = fmt.Errorf("mcpprobe: no response for %s", u)
	}
	switch {
	case err != nil:
		doc.Unanswered = true
		doc.Problem = "no answer: " + errorKind(err)
		return doc, nil
	case !refusal.Answered(resp.StatusCode):
		doc.Status = resp.StatusCode
		doc.Unanswered = true
		doc.Problem = fmt.Sprintf("the server answered %d: a refusal or failure is not an answer", resp.StatusCode)
		return doc, nil
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		doc.Status = resp.StatusCode
		doc.Problem = fmt.Sprintf("answered %d: no document here", resp.StatusCode)
		return doc, nil
	}
	doc.Status = resp.StatusCode
	return doc, resp.Body
}

// The discovery steps, in the words of the receipt.
const (
	ruleChallenge    = "WWW-Authenticate resource_metadata (RFC 9728 Section 5.1)"
	rulePRMInserted  = "protected resource metadata, path-inserted well-known URI (RFC 9728 Section 3.1)"
	rulePRMRoot      = "protected resource metadata, root well-known URI (RFC 9728 Section 3.1)"
	ruleASInserted   = "authorization server metadata, path-inserted well-known URI (RFC 8414 Section 3.1)"
	ruleOIDCInserted = "OpenID Connect discovery, path-inserted well-known URI"
	ruleOIDCAppended = "OpenID Connect discovery, well-known URI appended to the issuer (OpenID Connect Discovery 1.0 Section 4)"
	ruleOrigin       = "authorization server metadata at the MCP server origin (2025-03-26 rule)"
)

// discoverSignIn applies the authorization discovery of the negotiated
// protocol version to the receipt. When no version was negotiated, it
// applies the 2025-11-25 rules, which find the most. The package doc lists
// each version's steps under "Sign-in discovery".
func discoverSignIn(ctx context.Context, c *safefetch.Client, get func(context.Context, string) (*safefetch.Response, error), endpoint *url.URL, r *Receipt, s *session) {
	d := &discovery{ctx: ctx, c: c, get: get, r: r}
	a := &r.Auth
	version := s.negotiated
	switch {
	case version == "":
		a.BeforeVersion = true
		a.Rules = Version20251125
		a.RulesReason = "no protocol version was negotiated before the 401: the 2025-11-25 rules, which find the most"
	default:
		a.Rules = version
		a.RulesReason = "the negotiated version"
	}
	// Probe normalized the endpoint, so its origin has no error.
	orig, _ := weburl.Origin(endpoint)
	if a.Rules <= Version20250326 {
		d.authServer([]asCandidate{{KindAuthorizationServer, mustInsert(orig, "oauth-authorization-server"), ruleOrigin, Version20250326}}, orig)
		return
	}
	prm, refusedPRM := d.protectedResource(endpoint.String(), orig, a.Rules >= Version20251125)
	if prm == nil {
		if refusedPRM || len(a.Documents) > 0 && allUnanswered(a.Documents) {
			// Protected resource metadata that does not match is a
			// misconfigured resource, not a missing document. Nothing
			// else is read.
			return
		}
		// Without protected resource metadata, the server origin's RFC 8414
		// metadata (the 2025-03-26 rule) is still read, and marked.
		if d.authServer([]asCandidate{{KindAuthorizationServer, mustInsert(orig, "oauth-authorization-server"), ruleOrigin, Version20250326}}, orig) {
			a.OriginFallback = true
		}
		return
	}
	if len(prm.AuthorizationServers) == 0 {
		a.Documents[indexOf(a.Documents, a.ResourceMetadataURL)].Problem = "no authorization_servers"
		return
	}
	issuer := prm.AuthorizationServers[0]
	var cands []asCandidate
	if u, ok := oauthmeta.WellKnownInsert(issuer, "oauth-authorization-server"); ok {
		cands = append(cands, asCandidate{KindAuthorizationServer, u, ruleASInserted, Version20250618})
	}
	if a.Rules >= Version20251125 {
		if u, ok := oauthmeta.WellKnownInsert(issuer, "openid-configuration"); ok {
			cands = append(cands, asCandidate{KindOpenIDConfiguration, u, ruleOIDCInserted, Version20251125})
		}
		if u, ok := oauthmeta.WellKnownAppend(issuer, "openid-configuration"); ok {
			cands = append(cands, asCandidate{KindOpenIDConfiguration, u, ruleOIDCAppended, Version20251125})
		}
	}
	if len(cands) == 0 {
		a.Documents[indexOf(a.Documents, a.ResourceMetadataURL)].Problem = fmt.Sprintf("authorization server %q is not a URL", clip(issuer, 120))
		return
	}
	d.authServer(cands, issuer)
}

func mustInsert(id, suffix string) string {
	u, _ := oauthmeta.WellKnownInsert(id, suffix)
	return u
}

func indexOf(docs []Document, u string) int {
	for i := range docs {
		if docs[i].URL == u {
			return i
		}
	}
	return len(docs) - 1
}

func allUnanswered(docs []Document) bool {
	for _, d := range docs {
		if !d.Unanswered {
			return false
		}
	}
	return true
}

// protectedResource reads the first protected resource metadata found. It
// tries the challenge's resource_metadata first. With wellKnown, it then
// tries the path-inserted and the root well-known URI. A document whose
// resource does not match the endpoint is not used (RFC 9728 Section 3.3).
// Discovery stops there, and refused is true.
func (d *discovery) protectedResource(endpoint, orig string, wellKnown bool) (m *ProtectedResourceMetadata, refused bool) {
	a := &d.r.Auth
	type cand struct{ u, rule, version string }
	var cands []cand
	if ch := a.Challenge; ch != nil && ch.ResourceMetadata != "" {
		if u, err := url.Parse(ch.ResourceMetadata); err == nil && u.IsAbs() {
			cands = append(cands, cand{ch.ResourceMetadata, ruleChallenge, Version20250618})
		} else {
			a.Documents = append(a.Documents, Document{Kind: KindProtectedResource, URL: clip(ch.ResourceMetadata, 200), Rule: ruleChallenge, Version: Version20250618, Problem: "resource_metadata is not an absolute URL"})
		}
	}
	if wellKnown {
		if u, ok := oauthmeta.WellKnownInsert(endpoint, "oauth-protected-resource"); ok {
			cands = append(cands, cand{u, rulePRMInserted, Version20251125})
		}
		if u, ok := oauthmeta.WellKnownInsert(orig, "oauth-protected-resource"); ok {
			cands = append(cands, cand{u, rulePRMRoot, Version20251125})
		}
	}
	for _, c := range cands {
		doc, body := d.fetch(KindProtectedResource, c.u, c.rule, c.version)
		if body == nil {
			continue
		}
		m = &ProtectedResourceMetadata{}
		if err := decodeMetadata(body, m); err != nil {
			doc.Problem = err.Error()
			continue
		}
		if !oauthmeta.SameResource(m.Resource, endpoint) && !oauthmeta.SameResource(m.Resource, orig) {
			doc.Problem = fmt.Sprintf("resource %q does not match the endpoint %q (RFC 9728 Section 3.3, compared after RFC 3986 Section 6 normalization): not used", clip(m.Resource, 120), endpoint)
			return nil, true
		}
		doc.Used = true
		a.ResourceMetadataURL, a.ProtectedResource = c.u, m
		return m, false
	}
	return nil, false
}

type asCandidate struct {
	kind          DocumentKind
	u, rule, vers string
}

// authServer reads authorization server metadata at the candidates in
// order. It uses the first whose issuer is the one its URL was built from
// (RFC 8414 Section 3.3). Otherwise the data MUST NOT be used, and none of
// it reaches the receipt. authServer reports whether one was used.
func (d *discovery) authServer(cands []asCandidate, issuer string) bool {
	a := &d.r.Auth
	for _, c := range cands {
		doc, body := d.fetch(c.kind, c.u, c.rule, c.vers)
		if body == nil {
			continue
		}
		m := &AuthServerMetadata{}
		if err := decodeMetadata(body, m); err != nil {
			doc.Problem = err.Error()
			continue
		}
		if !oauthmeta.SameIdentifier(m.Issuer, issuer) {
			doc.Problem = fmt.Sprintf("issuer %q does not match %q (RFC 8414 Section 3.3): its data is not used", clip(m.Issuer, 120), clip(issuer, 120))
			continue
		}
		missing := oauthmeta.MissingEndpoints(m.AuthorizationEndpoint, m.TokenEndpoint)
		if !m.HasS256() {
			missing = append(missing, "code_challenge_methods_supported does not contain S256")
		}
		doc.Used = true
		doc.Problem = strings.Join(missing, "; ")
		a.MetadataURL, a.AuthorizationServer = c.u, m
		a.PKCE = append([]string{}, m.CodeChallengeMethodsSupported...)
		a.DynamicRegistration = m.RegistrationEndpoint != "" || m.ClientIDMetadataDocumentSupported
		a.OAuthMetadata = m.AuthorizationEndpoint != "" && m.TokenEndpoint != ""
		return true
	}
	return false
}

// Failure returns the first discovery document that failed, with its URL
// and reason. It returns nil when discovery found what it looked for, or
// did not run.
func (a *Auth) Failure() *Document {
	if a.OAuthMetadata {
		return nil
	}
	for i := range a.Documents {
		if a.Documents[i].Problem != "" && (a.Documents[i].Status >= 200 && a.Documents[i].Status < 300 || a.Documents[i].Status == 0 && !a.Documents[i].Unanswered) {
			return &a.Documents[i]
		}
	}
	for i := len(a.Documents) - 1; i >= 0; i-- {
		if a.Documents[i].Problem != "" {
			return &a.Documents[i]
		}
	}
	return nil
}

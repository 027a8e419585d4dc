package readiness

import (
	"fmt"
	"strings"

	"github.com/agentweb/agentweb/internal/shorten"
	"github.com/agentweb/agentweb/readiness/internal/oauthmeta"
	"github.com/agentweb/agentweb/readiness/mcpprobe"
)

// authServerMeta is OAuth 2.0 Authorization Server Metadata as the MCP
// probe reads it (RFC 8414 Section 2), for the documents the scan reads
// outside the probe.
type authServerMeta = mcpprobe.AuthServerMetadata

// validateAuthServer checks AS metadata against the issuer its URL was
// built from ([oauthmeta.SameIdentifier], RFC 8414 Section 3.3), and for the
// members an authorization code flow needs.
func validateAuthServer(m *authServerMeta, issuer string) []string {
	var problems []string
	if !oauthmeta.SameIdentifier(m.Issuer, issuer) {
		problems = append(problems, fmt.Sprintf("issuer %q does not match %q", shorten.Runes(clean(m.Issuer), 120), issuer))
	}
	return append(problems, oauthmeta.MissingEndpoints(m.AuthorizationEndpoint, m.TokenEndpoint)...)
}

// signinResult is what the MCP probe's sign-in discovery found, in the
// form the Connect and Trust checks read.
type signinResult struct {
	// version is the protocol version whose rules were applied; rules says
	// which, and why, in words.
	version string
	rules   string
	tried   []*fetched

	prmURL string
	prm    *mcpprobe.ProtectedResourceMetadata
	asURL  string
	// as is the authorization server metadata used: nil when none was
	// found or its issuer did not match (RFC 8414 Section 3.3: none of its
	// data is used).
	as *authServerMeta
	// resolved: AS metadata was found and its issuer (and, from 2025-06-18,
	// the resource of the protected resource metadata) matches.
	resolved bool
	// legacyFallback: from 2025-06-18, no protected resource metadata was
	// found and the server origin's RFC 8414 metadata was used instead.
	legacyFallback bool
	problems       []string
	// failure is the document that failed, with its URL and reason.
	failure    *mcpprobe.Document
	unanswered *fetched
}

// newSignin reads the sign-in discovery of a probe receipt.
// memo returns the scan's fetch of a URL discovery requested.
func newSignin(a *mcpprobe.Auth, memo func(u string) *fetched) *signinResult {
	r := &signinResult{version: a.Rules, prmURL: a.ResourceMetadataURL, prm: a.ProtectedResource,
		asURL: a.MetadataURL, as: a.AuthorizationServer, resolved: a.OAuthMetadata, legacyFallback: a.OriginFallback, failure: a.Failure()}
	r.rules = a.Rules + " (" + a.RulesReason + "): " + rulesText(a.Rules)
	for _, d := range a.Documents {
		var f *fetched
		if d.Status != 0 || d.Unanswered {
			f = memo(d.URL)
			r.tried = append(r.tried, f)
		}
		if d.Problem != "" {
			r.problems = append(r.problems, d.URL+": "+d.Problem)
		}
		if d.Unanswered && r.unanswered == nil {
			r.unanswered = f
		}
	}
	if r.as == nil {
		r.asURL = ""
	}
	return r
}

// rulesText names the discovery steps of a version's rules.
func rulesText(version string) string {
	switch {
	case version <= mcpprobe.Version20250326:
		return "RFC 8414 metadata at the MCP server origin"
	case version < mcpprobe.Version20251125:
		return "RFC 9728 protected resource metadata from the challenge, then RFC 8414"
	}
	return "RFC 9728 protected resource metadata from the challenge, then path-inserted, then at the root, then RFC 8414, then OpenID Connect discovery"
}

// usable returns the metadata of an OAuth document whose issuer matches, nil
// otherwise. The data of a document whose issuer does not match must not be
// used (RFC 8414 Section 3.3).
func (d *oauthDoc) usable() *authServerMeta {
	if d.meta == nil {
		return nil
	}
	for _, p := range d.problems {
		if strings.HasPrefix(p, "issuer ") {
			return nil
		}
	}
	return d.meta
}

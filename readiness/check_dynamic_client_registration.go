package readiness

import (
	"strings"

	"github.com/agentweb/agentweb/internal/shorten"
)

func init() {
	register(checkDef{id: "dynamic_client_registration", needs: []resource{resCards}, run: checkDynamicClientRegistration})
}

// checkDynamicClientRegistration: whether the OAuth metadata the scan read
// advertises a way for an agent to register a client. That metadata is the MCP
// sign-in discovery's authorization server's, else the site's own. The ways are
// client ID metadata documents and an RFC 7591 registration_endpoint; either is
// found. Each is labelled in the notes with the MCP version that introduced or
// demoted it. MCP 2026-07-28 puts client ID metadata documents first, with
// Dynamic Client Registration as the fallback. A server that offers client ID
// metadata documents and no registration endpoint loses nothing.
func checkDynamicClientRegistration(s *scan) outcome {
	out := outcome{verdict: VerdictOptional}
	var metas []struct {
		url string
		m   *authServerMeta
	}
	if si := s.mcpRead().signin; si != nil {
		out.requests = append(out.requests, si.tried...)
		if si.as != nil {
			metas = append(metas, struct {
				url string
				m   *authServerMeta
			}{si.asURL, si.as})
		}
	}
	o := s.oauthRead()
	out.requests = append(out.requests, o.f)
	if m := o.usable(); m != nil {
		metas = append(metas, struct {
			url string
			m   *authServerMeta
		}{o.f.url, m})
	}
	for _, x := range metas {
		var how []string
		if x.m.ClientIDMetadataDocumentSupported {
			how = append(how, "client ID metadata documents")
			out.notes = append(out.notes, "client ID metadata documents: the registration MCP 2025-11-25 introduced and 2026-07-28 asks clients to try first (client-registration)")
		}
		if x.m.RegistrationEndpoint != "" {
			how = append(how, "registration_endpoint "+shorten.Runes(clean(x.m.RegistrationEndpoint), 120)+" (RFC 7591)")
			note := "Dynamic Client Registration (RFC 7591): the registration MCP authorization has named since 2025-03-26; 2026-07-28 keeps it as the fallback for backwards compatibility, after client ID metadata documents"
			if !x.m.ClientIDMetadataDocumentSupported {
				note += "; an authorization server that advertises client_id_metadata_document_supported too serves 2026-07-28 clients first"
			}
			out.notes = append(out.notes, note)
		}
		if len(how) > 0 {
			out.received = "found: " + strings.Join(how, " and ") + " in " + x.url
			return out
		}
	}
	switch {
	case len(metas) > 0:
		out.received = "absent: the OAuth metadata at " + metas[0].url + " advertises no registration method"
	case !o.f.answered():
		out.verdict, out.received = VerdictUnverified, o.f.url+": "+o.f.why()
	default:
		out.received = "absent: no OAuth metadata"
	}
	return out
}

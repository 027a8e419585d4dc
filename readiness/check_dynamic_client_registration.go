package readiness

import "strings"

func init() {
	register(checkDef{id: "dynamic_client_registration", needs: []resource{resCards}, run: checkDynamicClientRegistration})
}

// checkDynamicClientRegistration: whether the OAuth metadata the scan read
// (the MCP sign-in discovery's authorization server, else the site's own)
// advertises a way for an agent to register a client: an RFC 7591
// registration_endpoint or client ID metadata documents.
func checkDynamicClientRegistration(s *scan) outcome {
	out := outcome{verdict: VerdictOptional}
	var metas []struct {
		url string
		m   *authServerMeta
	}
	if si := s.mcpObs().signin; si != nil {
		out.requests = append(out.requests, si.tried...)
		if si.as != nil {
			metas = append(metas, struct {
				url string
				m   *authServerMeta
			}{si.asURL, si.as})
		}
	}
	o := s.oauthObs()
	out.requests = append(out.requests, o.f)
	if m := o.usable(); m != nil {
		metas = append(metas, struct {
			url string
			m   *authServerMeta
		}{o.f.url, m})
	}
	for _, x := range metas {
		var how []string
		if x.m.RegistrationEndpoint != "" {
			how = append(how, "registration_endpoint "+truncate(clean(x.m.RegistrationEndpoint), 120)+" (RFC 7591)")
		}
		if x.m.ClientIDMetadataDocumentSupported {
			how = append(how, "client ID metadata documents")
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

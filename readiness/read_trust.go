package readiness

import (
	"fmt"
	"strings"

	"github.com/agentweb/agentweb/agentsignup"
	"github.com/agentweb/agentweb/internal/strictjson"
	"github.com/agentweb/agentweb/readiness/internal/oauthmeta"
)

// signupDoc is /.well-known/agent-signup.json as read and validated with
// package agentsignup (agent-identity-v1 discovery).
type signupDoc struct {
	f       *fetched
	present bool // a 2xx answer that is not an HTML page
	doc     *agentsignup.Document
	err     error
}

// signupRead reads /.well-known/agent-signup.json once per scan.
func (s *scan) signupRead() *signupDoc {
	return readOnce(s, "agent-signup", func() *signupDoc {
		d := &signupDoc{f: s.get(s.resolve(agentsignup.WellKnownPath), "application/json")}
		if !d.f.ok() || looksLikeHTML(d.f.body()) {
			return d
		}
		d.present = true
		d.doc, d.err = agentsignup.Parse(d.f.body())
		return d
	})
}

// agentConfigDoc is /.well-known/agent-configuration (Agent Auth configuration)
// as read. It counts as valid discovery when it is a JSON object whose "issuer"
// is a string and whose "endpoints" is an object. That is the recognition rule
// the Agentic Site Profile's reference generator applies to this path. The
// scanner reads no further into it.
type agentConfigDoc struct {
	f       *fetched
	present bool
	err     error
}

func (s *scan) agentConfigRead() *agentConfigDoc {
	return readOnce(s, "agent-configuration", func() *agentConfigDoc {
		d := &agentConfigDoc{f: s.get(s.resolve("/.well-known/agent-configuration"), "application/json")}
		if !d.f.ok() || looksLikeHTML(d.f.body()) {
			return d
		}
		d.present = true
		v, err := strictjson.Decode(d.f.body())
		if err == nil {
			err = checkAgentConfig(v)
		}
		d.err = err
		return d
	})
}

// oauthDoc is OAuth authorization server metadata found outside the MCP
// probe: at the card's auth.metadata URL, else at the site origin's RFC 8414
// location.
type oauthDoc struct {
	f        *fetched
	present  bool
	meta     *authServerMeta
	problems []string
}

// oauthRead reads the OAuth metadata found outside the MCP probe, once per
// scan.
func (s *scan) oauthRead() *oauthDoc {
	return readOnce(s, "oauth-metadata", func() *oauthDoc {
		u, _ := oauthmeta.WellKnownInsert(s.resolve("/"), "oauth-authorization-server")
		issuer := s.resolve("/")
		if c := s.firstCard(); c != nil && c.Auth != nil && c.Auth.Metadata != "" {
			if mu, err := s.page.Parse(c.Auth.Metadata); err == nil && s.sameRegistrable(mu) {
				u, issuer = mu.String(), ""
			}
		}
		d := &oauthDoc{f: s.get(u, "application/json")}
		if !d.f.ok() || looksLikeHTML(d.f.body()) {
			return d
		}
		d.present = true
		m := &authServerMeta{}
		if err := oauthmeta.Decode(d.f.body(), m); err != nil {
			d.problems = append(d.problems, clean(err.Error()))
			return d
		}
		d.meta = m
		if issuer == "" {
			// The metadata URL must be the issuer's well-known URL
			// (RFC 8414 Section 3.1), so the issuer is checked through it.
			if w, ok := oauthmeta.WellKnownInsert(m.Issuer, "oauth-authorization-server"); !ok || w != u {
				issuer = "the issuer whose metadata is at " + u
			} else {
				issuer = m.Issuer
			}
		}
		d.problems = validateAuthServer(m, issuer)
		return d
	})
}

// firstCard is the card read at /.well-known/agents.json, else at
// /agents.json, or nil.
func (s *scan) firstCard() *card {
	c := s.cardsRead()
	if c.wellKnown.card != nil {
		return c.wellKnown.card
	}
	return c.root.card
}

// checkAgentConfig applies the recognition rule of an Agent Auth
// configuration: a JSON object with a string "issuer" and an object
// "endpoints".
func checkAgentConfig(v any) error {
	obj, ok := v.(map[string]any)
	if !ok {
		return errNotObject
	}
	var missing []string
	if _, ok := obj["issuer"].(string); !ok {
		missing = append(missing, `"issuer" is not a string`)
	}
	if _, ok := obj["endpoints"].(map[string]any); !ok {
		missing = append(missing, `"endpoints" is not an object`)
	}
	if len(missing) > 0 {
		return fmt.Errorf("not an Agent Auth configuration: %s", strings.Join(missing, " and "))
	}
	return nil
}

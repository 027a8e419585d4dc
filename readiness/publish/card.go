package publish

import (
	"strings"

	"github.com/agentweb/agentweb/readiness/agentsjson"
)

// card returns the capability card the kit serves: Site.Card when given,
// else one built from the site's facts. The built card says what the site
// publishes: llms.txt, the sitemap, every spec document the kit serves. It
// lists its interfaces, the MCP endpoint and the OpenAPI document, each
// with the sign-in it needs. Its sign-in section says which tools are
// public and which need a token, or that nothing needs sign-in. It ends
// with the contact. A site with neither MCP nor OpenAPI gets an explicitly
// empty interface list. The card then states that the site offers no tool
// or API. The scoring method counts that as an honest answer (requirement
// R9).
func (k *kit) card() *agentsjson.Card {
	if k.site.Card != nil {
		return k.site.Card
	}
	c := &agentsjson.Card{
		Name:        k.site.Name,
		URL:         k.abs("/"),
		Description: k.site.Description,
		Publishes:   map[string]string{"llms_txt": k.abs(llmsPath), "sitemap": k.abs(sitemapPath)},
		Interfaces:  []agentsjson.Interface{},
	}
	for _, d := range k.documents {
		if d.key != "" {
			c.Publishes[d.key] = k.abs(d.path)
		}
	}
	auth := &agentsjson.Auth{}
	if m := k.site.MCP; m != nil {
		it := agentsjson.Interface{ID: "mcp", Type: "mcp", URL: k.abs(m.Path), Auth: "none"}
		if len(m.AuthorizationServers) > 0 {
			it.Auth = "oauth2"
			auth.Type = "oauth2"
			auth.Metadata = strings.TrimSuffix(m.AuthorizationServers[0], "/") + "/.well-known/oauth-authorization-server"
		}
		c.Interfaces = append(c.Interfaces, it)
		auth.Public = append(auth.Public, m.PublicTools...)
		auth.TokenRequired = append(auth.TokenRequired, m.TokenTools...)
	}
	if k.site.OpenAPI != nil {
		c.Interfaces = append(c.Interfaces, agentsjson.Interface{ID: "openapi", Type: "openapi", URL: k.abs(openAPIPath), Auth: "none"})
	}
	if auth.Type == "" {
		no := false
		auth.Type, auth.Required = "none", &no
	}
	c.Auth = auth
	c.Contact = &agentsjson.Contact{Email: k.site.Contact.Email}
	if k.site.Contact.URL != "" {
		c.Contact.URL = k.absOrSelf(k.site.Contact.URL)
	}
	return c
}

// buildCard serves the card at both addresses.
func (k *kit) buildCard() error {
	h, err := agentsjson.Handler(k.card())
	if err != nil {
		return &SiteError{Field: "Card", Reason: "the capability card cannot be written", Err: err}
	}
	k.routes[agentsjson.WellKnownPath] = h
	k.routes[agentsjson.RootPath] = h
	return nil
}

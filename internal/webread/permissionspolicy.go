package webread

import (
	"net/url"
	"strings"

	"github.com/dunglas/httpsfv"
)

// ToolsPolicyKind is what a Permissions-Policy header says of the WebMCP
// "tools" feature, whose default allowlist is 'self' (WebMCP, "Permissions
// policy integration").
type ToolsPolicyKind string

// The kinds of tools policy.
const (
	// ToolsPolicyDefault: no tools member (or a header the browser ignores),
	// so the default allowlist 'self' applies.
	ToolsPolicyDefault ToolsPolicyKind = "default"
	// ToolsPolicySelf: an allowlist that includes the page's own origin.
	ToolsPolicySelf ToolsPolicyKind = "self"
	// ToolsPolicyAll: tools=*, every origin, frames of other sites included.
	ToolsPolicyAll ToolsPolicyKind = "all"
	// ToolsPolicyNone: tools=() or an allowlist without the page's own
	// origin: the page's own tools are disabled.
	ToolsPolicyNone ToolsPolicyKind = "none"
)

// ToolsPolicy is the tools member of a Permissions-Policy header, read as an
// RFC 9651 structured-field dictionary (Permissions Policy, "Policy
// directives").
type ToolsPolicy struct {
	Kind ToolsPolicyKind
	// Member is the tools member as received, re-serialised ("" when
	// absent).
	Member string
	// Origins are the origins the allowlist names besides the page's own.
	Origins []string
	// Invalid is set when the header is not a valid dictionary: browsers
	// ignore such a header, so the default applies.
	Invalid error
}

// ParseToolsPolicy reads the tools member of the Permissions-Policy field
// values of a response for a page at pageOrigin ("https://host").
//
// [RFC 9651]: https://www.rfc-editor.org/rfc/rfc9651
func ParseToolsPolicy(values []string, pageOrigin string) ToolsPolicy {
	if len(values) == 0 {
		return ToolsPolicy{Kind: ToolsPolicyDefault}
	}
	d, err := httpsfv.UnmarshalDictionary(values)
	if err != nil {
		return ToolsPolicy{Kind: ToolsPolicyDefault, Invalid: err}
	}
	m, ok := d.Get("tools")
	if !ok {
		return ToolsPolicy{Kind: ToolsPolicyDefault}
	}
	p := ToolsPolicy{}
	md := httpsfv.NewDictionary()
	md.Add("tools", m)
	if s, err := httpsfv.Marshal(md); err == nil {
		p.Member = s
	}
	var items []httpsfv.Item
	switch v := m.(type) {
	case httpsfv.Item:
		items = []httpsfv.Item{v}
	case httpsfv.InnerList:
		items = v.Items
	}
	self := false
	for _, it := range items {
		switch x := it.Value.(type) {
		case httpsfv.Token:
			switch string(x) {
			case "*":
				p.Kind = ToolsPolicyAll
				return p
			case "self":
				self = true
			}
		case string:
			o := Origin(x)
			if o == "" {
				continue
			}
			if strings.EqualFold(o, pageOrigin) {
				self = true
			} else {
				p.Origins = append(p.Origins, o)
			}
		}
	}
	if self {
		p.Kind = ToolsPolicySelf
	} else {
		p.Kind = ToolsPolicyNone
	}
	return p
}

// Origin returns the serialised origin of an absolute URL (scheme and host,
// lower-cased, the default port left out), "" when it is not one.
func Origin(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	host := strings.ToLower(u.Host)
	if p := u.Port(); (u.Scheme == "https" && p == "443") || (u.Scheme == "http" && p == "80") {
		host = strings.ToLower(u.Hostname())
	}
	return strings.ToLower(u.Scheme) + "://" + host
}

package readiness

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/dunglas/httpsfv"
)

// toolsPolicyKind is what a Permissions-Policy header says of the WebMCP
// "tools" feature (WebMCP index.bs, "Permissions policy integration"): the
// feature's default allowlist is 'self'.
type toolsPolicyKind string

const (
	// policyDefault: no tools member (or a header the browser ignores), so
	// the default allowlist 'self' applies.
	policyDefault toolsPolicyKind = "default"
	// policySelf: an allowlist that includes the page's own origin.
	policySelf toolsPolicyKind = "self"
	// policyAll: tools=*, every origin, frames of other sites included.
	policyAll toolsPolicyKind = "all"
	// policyNone: tools=() or an allowlist without the page's own origin:
	// the page's own tools are disabled.
	policyNone toolsPolicyKind = "none"
)

// toolsPolicy is the tools member of a Permissions-Policy header, read as an
// RFC 9651 structured-field dictionary (Permissions Policy §5.2).
type toolsPolicy struct {
	kind toolsPolicyKind
	// member is the tools member as received, re-serialised ("" when absent).
	member string
	// origins are the origins the allowlist names besides self.
	origins []string
	// invalid is set when the header is not a valid dictionary: browsers
	// ignore such a header, so the default applies.
	invalid error
}

// parseToolsPolicy reads the tools member of the Permissions-Policy field
// values of a response for a page at pageOrigin ("https://host").
func parseToolsPolicy(values []string, pageOrigin string) toolsPolicy {
	if len(values) == 0 {
		return toolsPolicy{kind: policyDefault}
	}
	d, err := httpsfv.UnmarshalDictionary(values)
	if err != nil {
		return toolsPolicy{kind: policyDefault, invalid: err}
	}
	m, ok := d.Get("tools")
	if !ok {
		return toolsPolicy{kind: policyDefault}
	}
	p := toolsPolicy{}
	if s, err := httpsfv.Marshal(memberDict(m)); err == nil {
		p.member = s
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
				p.kind = policyAll
				return p
			case "self":
				self = true
			}
		case string:
			o := originOf(x)
			if o == "" {
				continue
			}
			if strings.EqualFold(o, pageOrigin) {
				self = true
			} else {
				p.origins = append(p.origins, o)
			}
		}
	}
	if self {
		p.kind = policySelf
	} else {
		p.kind = policyNone
	}
	return p
}

func memberDict(m httpsfv.Member) *httpsfv.Dictionary {
	d := httpsfv.NewDictionary()
	d.Add("tools", m)
	return d
}

// originOf returns the serialised origin of an absolute URL, "" when it is
// not one.
func originOf(s string) string {
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

// describe says what the policy means, for receipts.
func (p toolsPolicy) describe() string {
	switch p.kind {
	case policySelf:
		if len(p.origins) > 0 {
			return fmt.Sprintf("%s: the page's own origin and %d more", p.member, len(p.origins))
		}
		return p.member + ": the page's own origin"
	case policyAll:
		return p.member + ": every origin, frames of other sites included"
	case policyNone:
		if len(p.origins) > 0 {
			return p.member + ": other origins only, not the page's own"
		}
		return p.member + ": tools disabled"
	}
	if p.invalid != nil {
		return "a Permissions-Policy header that is not a structured-field dictionary (browsers ignore it): the default allowlist 'self' applies"
	}
	return "no tools entry: the default allowlist 'self' applies"
}

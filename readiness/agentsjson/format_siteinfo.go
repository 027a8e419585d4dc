package agentsjson

import (
	"cmp"
	"fmt"
	"strings"
)

// readSiteInfo reads the site_info draft.
func (r *reader) readSiteInfo(m map[string]any) {
	c := r.c
	if si, ok := m["site_info"].(map[string]any); ok {
		r.readSite(FormatSiteInfo, si, []string{"url", "home_url"}, []string{"contact"})
	}
	if v, present := m["authentication"]; present {
		a, ok := v.(map[string]any)
		if !ok {
			r.skip("/authentication", RuleShape, "not an object")
		} else {
			r.formats[FormatSiteInfo] = true
			ca := &Auth{}
			for i, x := range r.list(a["methods"], "/authentication/methods") {
				switch mv := x.(type) {
				case string:
					if s := strings.TrimSpace(mv); s != "" {
						ca.Methods = append(ca.Methods, s)
					}
				case map[string]any:
					if s := str(mv["type"]); s != "" {
						ca.Methods = append(ca.Methods, s)
					}
				default:
					r.skip(fmt.Sprintf("/authentication/methods/%d", i), RuleShape, "not a method name or object")
				}
			}
			if b, ok := a["required"].(bool); ok {
				ca.Required = &b
			}
			if c.Auth == nil {
				c.Auth = ca
			}
		}
	}
	intents := m["intents"]
	pointer := "/intents"
	if o, ok := intents.(map[string]any); ok {
		// The draft's published examples nest the list: {"supported": [...]}.
		r.formats[FormatSiteInfo] = true
		intents, pointer = o["supported"], "/intents/supported"
	}
	for i, it := range r.list(intents, pointer) {
		o, ok := it.(map[string]any)
		p := fmt.Sprintf("%s/%d", pointer, i)
		if !ok {
			r.skip(p, RuleShape, "not an intent object")
			continue
		}
		r.formats[FormatSiteInfo] = true
		id := cmp.Or(str(o["name"]), str(o["type"]))
		if ep := str(o["endpoint"]); ep != "" {
			r.addInterface(Interface{ID: id, Type: "intent", URL: ep, Source: FormatSiteInfo})
		}
		for j, e := range r.list(o["endpoints"], p+"/endpoints") {
			eo, _ := e.(map[string]any)
			if path := cmp.Or(str(eo["path"]), str(eo["url"])); path != "" {
				r.addInterface(Interface{ID: id, Type: "intent", URL: path, Source: FormatSiteInfo})
			} else {
				r.skip(fmt.Sprintf("%s/endpoints/%d", p, j), RuleShape, "an endpoint without a path")
			}
		}
	}
	if _, ok := m["policies"]; ok {
		r.formats[FormatSiteInfo] = true
		c.Policies = true
	}
}

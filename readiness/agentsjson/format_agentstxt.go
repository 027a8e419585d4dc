package agentsjson

import (
	"cmp"
	"fmt"
	"strings"
)

// readAgentsTxt reads the agents.txt draft's JSON form.
func (r *reader) readAgentsTxt(m map[string]any) {
	c := r.c
	if site, ok := m["site"].(map[string]any); ok {
		r.readSite(FormatAgentsTxt, site, []string{"url"}, []string{"contact", "Site-Contact"})
	}
	for i, it := range r.list(m["capabilities"], "/capabilities") {
		switch o := it.(type) {
		case map[string]any:
			ep := cmp.Or(str(o["endpoint"]), str(o["url"]))
			if ep == "" {
				r.skip(fmt.Sprintf("/capabilities/%d", i), RuleShape, "a capability without an endpoint")
				continue
			}
			r.addInterface(Interface{ID: cmp.Or(str(o["id"]), str(o["name"])), Type: strings.ToLower(str(o["protocol"])), URL: ep, Auth: authString(o["auth"]), Source: FormatAgentsTxt})
		case string:
			// agents.txt's own Capabilities line lists names without
			// endpoints: nothing to reach, and not a sign of the format.
		default:
			r.skip(fmt.Sprintf("/capabilities/%d", i), RuleShape, "not a capability object")
		}
	}
	if _, ok := m["access"].(map[string]any); ok {
		r.formats[FormatAgentsTxt] = true
		c.Policies = true
	}
}

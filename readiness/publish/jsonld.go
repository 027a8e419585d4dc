package publish

import (
	"bytes"
	"encoding/json"
	"time"
)

// jsonLD returns the JSON-LD the kit adds to a page that has none. It is
// a schema.org graph with the Organization: name, url, logo, sameAs and a
// contactPoint with the site's contact. For a listed page whose Updated
// is known, it adds its WebPage: name, url, description, inLanguage,
// dateModified, isPartOf the WebSite. Without a known date no WebPage is
// written, because a CreativeWork without dateModified tells agents less
// than none at all.
//
// [schema.org]: https://schema.org/Organization
func (k *kit) jsonLD(path string) []byte {
	org := map[string]any{
		"@type": "Organization",
		"@id":   k.abs("/") + "#organization",
		"name":  k.site.Name,
		"url":   k.abs("/"),
	}
	if k.site.Logo != "" {
		org["logo"] = k.absOrSelf(k.site.Logo)
	}
	if len(k.site.SameAs) > 0 {
		org["sameAs"] = k.site.SameAs
	}
	cp := map[string]any{"@type": "ContactPoint", "contactType": "customer support"}
	if c := k.site.Contact; c.Email != "" {
		cp["email"] = c.Email
	}
	if c := k.site.Contact; c.URL != "" {
		cp["url"] = k.absOrSelf(c.URL)
	}
	if k.site.Language != "" {
		cp["availableLanguage"] = k.site.Language
	}
	org["contactPoint"] = cp
	graph := []any{org}
	if p, ok := k.site.pageFor(path); ok && !p.Updated.IsZero() {
		page := map[string]any{
			"@type":        "WebPage",
			"name":         p.Title,
			"url":          k.abs(p.Path),
			"dateModified": p.Updated.UTC().Format(time.RFC3339),
			"isPartOf":     map[string]any{"@type": "WebSite", "name": k.site.Name, "url": k.abs("/")},
			"publisher":    map[string]any{"@id": k.abs("/") + "#organization"},
		}
		if p.Description != "" {
			page["description"] = p.Description
		}
		if k.site.Language != "" {
			page["inLanguage"] = k.site.Language
		}
		graph = append(graph, page)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	// Keep </script> impossible inside the element: encoding/json escapes
	// <, > and & as \u003c, \u003e and \u0026 by default.
	enc.Encode(map[string]any{"@context": "https://schema.org", "@graph": graph})
	return bytes.TrimRight(b.Bytes(), "\n")
}

package agentic

import "unicode/utf8"

// conformsFast reports whether a decoded document satisfies the embedded
// site schema, by a direct walk that allocates nothing. ParseSite uses it
// to skip the generic validator for conforming documents only: when it
// returns false, the embedded schema is run and its violations are what
// the caller sees. The schema stays the definition; TestFastSchemaAgrees
// and FuzzParseSite hold the two in agreement.
func conformsFast(tree any) bool {
	m, ok := tree.(map[string]any)
	if !ok {
		return false
	}
	for k := range m {
		switch k {
		case "$schema", "agentic", "type", "origin", "name", "description", "resources", "apis":
		default:
			return false
		}
	}
	if v, ok := m["$schema"]; ok && v != SchemaURI {
		return false
	}
	if m["agentic"] != Version || m["type"] != TypeSite ||
		!strLen(m["origin"], MaxURLLength) || !strLen(m["name"], MaxNameLength) || !strLen(m["description"], MaxDescriptionLen) {
		return false
	}
	rs, ok := m["resources"].([]any)
	if !ok || len(rs) < 1 || len(rs) > MaxResources {
		return false
	}
	for _, rv := range rs {
		r, ok := rv.(map[string]any)
		if !ok || len(r) < 4 {
			return false
		}
		for k, v := range r {
			switch k {
			case "kind":
				s, ok := v.(string)
				if !ok || !Kind(s).Valid() {
					return false
				}
			case "url", "source":
				if !strLen(v, MaxURLLength) {
					return false
				}
			case "availability":
				if v != string(Retrieved) && v != string(Linked) {
					return false
				}
			case "title":
				if !strLen(v, MaxTitleLength) {
					return false
				}
			default:
				return false
			}
		}
		if _, ok := r["title"]; len(r) != 4 && !(ok && len(r) == 5) {
			return false
		}
	}
	as, ok := m["apis"].([]any)
	if !ok || len(as) > MaxAPIs {
		return false
	}
	for _, av := range as {
		a, ok := av.(map[string]any)
		if !ok || len(a) != 3 || !strLen(a["document"], MaxURLLength) || !strLen(a["openapi"], MaxOpenAPIVersion) {
			return false
		}
		ops, ok := a["operations"].([]any)
		if !ok || len(ops) > MaxOperations {
			return false
		}
		for _, ov := range ops {
			o, ok := ov.(map[string]any)
			if !ok || len(o) < 2 {
				return false
			}
			n := 0
			for k, v := range o {
				switch k {
				case "method":
					s, ok := v.(string)
					if !ok || !validMethod(s) {
						return false
					}
					n++
				case "path":
					if !strLen(v, MaxPathLength) {
						return false
					}
					n++
				case "operationId":
					if !strLen(v, MaxOperationIDLen) {
						return false
					}
				case "summary":
					if !strLen(v, MaxSummaryLength) {
						return false
					}
				default:
					return false
				}
			}
			if n != 2 {
				return false
			}
		}
	}
	return true
}

// strLen reports whether v is a string of 1 to max code points.
func strLen(v any, max int) bool {
	s, ok := v.(string)
	if !ok || s == "" {
		return false
	}
	if len(s) <= max {
		return true
	}
	return utf8.RuneCountInString(s) <= max
}

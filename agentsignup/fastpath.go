package agentsignup

import "unicode/utf8"

// schemaConforms reports whether the tree satisfies every constraint of the
// embedded schema (agent-signup.schema.json). It is an optimisation only:
// Parse skips the schema validator when it returns true and runs the
// validator, which reports the problems, when it returns false. The two are
// kept equivalent by TestSchemaFastPathAgrees over the defect corpus and by
// FuzzSchemaFastPath, which fail on any disagreement in either direction.
func schemaConforms(obj map[string]any) bool {
	if obj["protocol"] != Protocol {
		return false
	}
	aud, ok := obj["audience"].(string)
	if !ok || aud == "" {
		return false
	}
	for i := 0; i < len(aud); i++ {
		switch aud[i] {
		case ' ', '\t', '\n', '\f', '\r': // \s in Go's RE2 syntax
			return false
		}
	}
	name, ok := obj["provider_name"].(string)
	if n := utf8.RuneCountInString(name); !ok || n < 1 || n > 160 {
		return false
	}
	if list, ok := obj["issuer_allowlist"].([]any); !ok || len(list) < 1 || !uniqueStrings(list, 0) {
		return false
	}
	if list, ok := obj["required_scopes"].([]any); !ok || !uniqueStrings(list, 1) {
		return false
	}
	terms, ok := obj["terms"].(map[string]any)
	if !ok {
		return false
	}
	version, ok1 := terms["version"].(string)
	_, ok2 := terms["url"].(string)
	sum, ok3 := terms["sha256"].(string)
	text, ok4 := terms["text"].(string)
	if !ok1 || !ok2 || !ok3 || !ok4 || version == "" || text == "" || !isTermsHashForm(sum) {
		return false
	}
	endpoints, ok := obj["endpoints"].(map[string]any)
	if !ok {
		return false
	}
	if _, ok := endpoints["agent_signup"].(string); !ok {
		return false
	}
	if v, present := obj["rp_attestation"]; present {
		if _, ok := v.(string); !ok {
			return false
		}
	}
	if v, present := obj["extensions"]; present {
		ext, ok := v.(map[string]any)
		if !ok {
			return false
		}
		for _, e := range ext {
			if _, ok := e.(map[string]any); !ok {
				return false
			}
		}
	}
	return true
}

// uniqueStrings reports whether every element is a string of at least
// minLen code points and no two are equal.
func uniqueStrings(list []any, minLen int) bool {
	seen := make(map[string]struct{}, len(list))
	for _, e := range list {
		s, ok := e.(string)
		if !ok || utf8.RuneCountInString(s) < minLen {
			return false
		}
		if _, dup := seen[s]; dup {
			return false
		}
		seen[s] = struct{}{}
	}
	return true
}

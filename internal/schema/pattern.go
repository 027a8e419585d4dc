package schema

import (
	"regexp"
	"strings"
)

// matcher returns a function that reports whether a string matches re, as
// re.MatchString does. The patterns of the embedded schemas are matched by
// hand-written functions, at a fraction of the cost. Each equals its
// regular expression on every input (TestPatternMatchersAgreeWithRegexp).
// Any other pattern is matched by the regular expression.
func matcher(re *regexp.Regexp) func(string) bool {
	if f, ok := patternMatchers[re.String()]; ok {
		return f
	}
	return re.MatchString
}

// patternMatchers are the hand-written matchers, by pattern source.
var patternMatchers = map[string]func(string) bool{
	// agent-signup audience: one or more characters, none of them \s
	// (Go's \s is [\t\n\f\r ]).
	`^[^\s]+$`: func(s string) bool {
		return s != "" && !strings.ContainsAny(s, "\t\n\f\r ")
	},
	// agent-signup terms.sha256.
	`^sha256:[0-9a-f]{64}$`: func(s string) bool {
		rest, ok := strings.CutPrefix(s, "sha256:")
		if !ok || len(rest) != 64 {
			return false
		}
		for i := 0; i < len(rest); i++ {
			if c := rest[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
				return false
			}
		}
		return true
	},
	// OpenAgent did and owner_did: a first character of X, then C*, a dot
	// followed by a character of X somewhere after the first, all C.
	`^[a-z0-9][a-z0-9._-]*\.[a-z0-9][a-z0-9._-]*$`: func(s string) bool {
		if len(s) < 3 || !isLowerAlnum(s[0]) {
			return false
		}
		dot := false
		for i := 1; i < len(s); i++ {
			if !isNameChar(s[i]) {
				return false
			}
			if s[i] == '.' && i+1 < len(s) && isLowerAlnum(s[i+1]) {
				dot = true
			}
		}
		return dot
	},
	// OpenAgent permission: resource[:action].
	`^[a-z][a-z0-9._-]*(:[a-z][a-z0-9._-]*)?$`: func(s string) bool {
		first, rest, two := strings.Cut(s, ":")
		return isScopePart(first) && (!two || isScopePart(rest))
	},
	// OpenAgent version: major.minor[.patch].
	`^\d+\.\d+(\.\d+)?$`: func(s string) bool {
		parts := strings.Split(s, ".")
		if len(parts) != 2 && len(parts) != 3 {
			return false
		}
		for _, p := range parts {
			if p == "" || strings.Trim(p, "0123456789") != "" {
				return false
			}
		}
		return true
	},
}

func isLowerAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

func isNameChar(c byte) bool { return isLowerAlnum(c) || c == '.' || c == '_' || c == '-' }

// isScopePart: [a-z][a-z0-9._-]*.
func isScopePart(s string) bool {
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z') {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isNameChar(s[i]) {
			return false
		}
	}
	return true
}

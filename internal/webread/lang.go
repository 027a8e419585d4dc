package webread

import (
	"regexp"
	"strings"
	"time"
)

// langTag matches a well-formed BCP 47 language tag (RFC 5646 Section 2.1):
// language (with up to three extlangs), script, region, variants, extensions
// and private use, or a private-use tag alone. Grandfathered tags are not
// accepted.
var langTag = regexp.MustCompile(`^(?i:` +
	`(?:[a-z]{2,3}(?:-[a-z]{3}){0,3}|[a-z]{4}|[a-z]{5,8})` +
	`(?:-[a-z]{4})?` +
	`(?:-(?:[a-z]{2}|[0-9]{3}))?` +
	`(?:-(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*` +
	`(?:-[0-9a-wyz](?:-[a-z0-9]{2,8})+)*` +
	`(?:-x(?:-[a-z0-9]{1,8})+)?` +
	`|x(?:-[a-z0-9]{1,8})+)$`)

// ValidLanguageTag reports whether s (surrounding space ignored) is a
// well-formed BCP 47 language tag by the syntax of RFC 5646 Section 2.1, at most
// 64 characters long. Grandfathered tags ("i-klingon") are refused.
//
// [RFC 5646]: https://www.rfc-editor.org/rfc/rfc5646
func ValidLanguageTag(s string) bool {
	return len(s) <= 64 && langTag.MatchString(strings.TrimSpace(s))
}

// ValidDate reports whether s is a date (YYYY-MM-DD) or an RFC 3339 date
// and time.
//
// [RFC 3339]: https://www.rfc-editor.org/rfc/rfc3339
func ValidDate(s string) bool {
	if _, err := time.Parse(time.DateOnly, s); err == nil {
		return true
	}
	_, err := time.Parse(time.RFC3339, s)
	return err == nil
}

package agentsignup

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"
)

// TermsHash returns "sha256:" followed by the lower-case hex SHA-256 of the
// exact UTF-8 bytes of text ([agent-identity-v1 discovery fields], "Terms text
// and hash": do not normalize line endings, trim whitespace or extract text
// from HTML). Nothing is normalised: "a\r\n" and "a\n" hash differently.
//
// [agent-identity-v1 discovery fields]: https://agentregistrar.dev/agent-identity/v1/
func TermsHash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// maxTermsGrace is the longest grace window CheckAcceptedTerms honours for
// the previous terms hash: "it should not exceed 24 hours".
const maxTermsGrace = 24 * time.Hour

// ErrTermsMismatch is wrapped by every *TermsMismatchError.
var ErrTermsMismatch = errors.New("agentsignup: accepted terms hash is not the advertised one")

// TermsMismatchError reports an assertion whose accepted terms hash
// (delegation.accepted_rp_tos_hash) is neither the currently advertised
// terms.sha256 nor a previous hash within its grace window.
type TermsMismatchError struct {
	Accepted string // the hash the assertion carries
	Current  string // the document's terms.sha256
	// GraceExpired is set when Accepted is the previous hash and its grace
	// window has ended (or has not begun).
	GraceExpired bool
}

// Error says which hash was accepted and which is current.
func (e *TermsMismatchError) Error() string {
	if e.GraceExpired {
		return fmt.Sprintf("agentsignup: accepted terms hash %s is the previous terms, outside its grace window; current is %s", e.Accepted, e.Current)
	}
	return fmt.Sprintf("agentsignup: accepted terms hash %q is not the advertised %s", e.Accepted, e.Current)
}

// Unwrap returns [ErrTermsMismatch].
func (e *TermsMismatchError) Unwrap() error { return ErrTermsMismatch }

// TermsGrace is a relying party's grace policy for assertions in flight when
// its terms change. [agent-identity-v1 discovery fields] says: "A bounded
// grace period for in-flight assertions is a relying-party policy documented
// outside discovery; it should not exceed 24 hours".
//
// [agent-identity-v1 discovery fields]: https://agentregistrar.dev/agent-identity/v1/
type TermsGrace struct {
	// Previous is the terms.sha256 advertised before the current one.
	Previous string
	// Replaced is when the current terms replaced Previous (when the new
	// text and hash were published).
	Replaced time.Time
	// Window is how long after Replaced the previous hash is still accepted.
	// Values above 24 hours are capped at 24 hours; zero or
	// negative means no grace.
	Window time.Duration
}

// TermsAcceptance says which terms an accepted hash matched.
type TermsAcceptance string

const (
	// TermsAcceptanceCurrent: the accepted hash is the current terms.sha256.
	TermsAcceptanceCurrent TermsAcceptance = "current"
	// TermsAcceptancePrevious: the accepted hash is the previous hash, within the grace
	// window.
	TermsAcceptancePrevious TermsAcceptance = "previous-within-grace"
)

// CheckAcceptedTerms is the relying party's check of an assertion's accepted
// terms hash ([agent-identity-v1 discovery fields], "The relying party rejects
// an assertion whose delegation.accepted_rp_tos_hash is not the currently
// advertised terms.sha256"). The comparison is exact. With a non-nil grace,
// the previous hash is also accepted from grace.Replaced until grace.Replaced
// + min(grace.Window, 24 hours), the end excluded. Any other hash gives a
// *TermsMismatchError.
//
// now is the time of the check (when the assertion arrived), a parameter
// rather than an option because the function is pure: the caller decides
// which clock an assertion is judged by.
//
// [agent-identity-v1 discovery fields]: https://agentregistrar.dev/agent-identity/v1/
func CheckAcceptedTerms(doc *Document, accepted string, now time.Time, grace *TermsGrace) (TermsAcceptance, error) {
	if doc == nil {
		return "", errors.New("agentsignup: no document to check the accepted terms against")
	}
	current := doc.Terms.SHA256
	if accepted != "" && accepted == current {
		return TermsAcceptanceCurrent, nil
	}
	if grace != nil && accepted != "" && accepted == grace.Previous {
		w := min(grace.Window, maxTermsGrace)
		if w > 0 && !now.Before(grace.Replaced) && now.Before(grace.Replaced.Add(w)) {
			return TermsAcceptancePrevious, nil
		}
		return "", &TermsMismatchError{Accepted: accepted, Current: current, GraceExpired: true}
	}
	return "", &TermsMismatchError{Accepted: accepted, Current: current}
}

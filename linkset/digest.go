package linkset

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"

	"github.com/dunglas/httpsfv"

	"github.com/agentweb/agentweb/internal/plural"
	"github.com/agentweb/agentweb/internal/shorten"
)

// digestAlgorithm is the only algorithm key of the digest attribute:
// sha-256 from the "Hash Algorithms for HTTP Digest Fields" registry
// (Section 4.3.1).
const digestAlgorithm = "sha-256"

// ErrDigest is wrapped by every error of [ParseDigest].
var ErrDigest = errors.New("linkset: invalid digest")

// Digest is a SHA-256 value carried by a digest or agsc-bundle-hash
// attribute (Sections 4.3.1 and 4.3.2).
type Digest [sha256.Size]byte

// ParseDigest reads a digest attribute value: the serialization of an RFC
// 9651 Dictionary with the single member sha-256 whose value is a Byte
// Sequence of 32 bytes (knowledge-linkset draft, Section 4.3.1).
//
// It reads as RFC 9651 Section 4.2 parses: a Byte Sequence without its "="
// padding is accepted, since parsers SHOULD NOT fail on it (RFC 9651,
// Section 4.2.7). The draft's own rule for the value a node writes, the
// serialization of RFC 9651 Section 4.1 (padded base64), is a publisher
// rule, checked by [ModeStrict] as [RuleDigestCanonical], not by parsing.
//
// The error is a *ValidationError wrapping [ErrDigest] with one problem
// whose rule is [RuleDigestSyntax], [RuleDigestAlgorithm],
// [RuleDigestParameters] or [RuleDigestLength].
//
// [RFC 9651]: https://www.rfc-editor.org/rfc/rfc9651
func ParseDigest(s string) (Digest, error) {
	if d, ok := parseCanonicalDigest(s); ok {
		return d, nil
	}
	b, err := parseDigestBytes(s)
	if err != nil {
		return Digest{}, err
	}
	var d Digest
	if len(b) != sha256.Size {
		return d, digestError(s, RuleDigestLength, fmt.Sprintf("the Byte Sequence holds %d bytes, a SHA-256 is 32", len(b)))
	}
	copy(d[:], b)
	return d, nil
}

func digestError(value, rule, reason string) error {
	return problem1(ErrDigest, Problem{Rule: rule, Section: "4.3.1", Message: fmt.Sprintf("digest %q: %s", shorten.Bytes(value, 80), reason)})
}

// problemOf returns the first problem of a *ValidationError, or a
// RuleDigestSyntax problem carrying err's text.
func problemOf(err error) Problem {
	if ve := asValidationError(err); ve != nil && len(ve.Problems) > 0 {
		return ve.Problems[0]
	}
	return Problem{Rule: RuleDigestSyntax, Message: err.Error()}
}

// parseCanonicalDigest reads the canonical serialization "sha-256=:" + 44
// characters of padded base64 + ":" without building a Dictionary. It
// accepts exactly what httpsfv accepts for that shape (the same alphabet
// check and the same base64 decoding, FuzzParseDigest compares the two)
// and reports ok=false for anything else, which parseDigestBytes then reads.
func parseCanonicalDigest(s string) (Digest, bool) {
	var d Digest
	const prefix = "sha-256=:"
	if len(s) != len(prefix)+44+1 || s[:len(prefix)] != prefix || s[len(s)-1] != ':' {
		return d, false
	}
	b64 := s[len(prefix) : len(s)-1]
	for i := 0; i < len(b64); i++ {
		c := b64[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=') {
			return d, false
		}
	}
	var buf [33]byte // base64.StdEncoding.DecodedLen(44)
	n, err := base64.StdEncoding.Decode(buf[:], []byte(b64))
	if err != nil || n != len(d) {
		return d, false
	}
	copy(d[:], buf[:n])
	return d, true
}

// parseDigestBytes reads any serialization through the RFC 9651 parser and
// returns the bytes of the single sha-256 member, of any length.
func parseDigestBytes(s string) ([]byte, error) {
	dict, err := httpsfv.UnmarshalDictionary([]string{padByteSequences(s)})
	if err != nil {
		return nil, digestError(s, RuleDigestSyntax, "not a structured-field Dictionary (RFC 9651, Section 3.2)")
	}
	names := dict.Names()
	if len(names) != 1 || names[0] != digestAlgorithm {
		return nil, digestError(s, RuleDigestAlgorithm, fmt.Sprintf("the Dictionary must have the single member sha-256, not %s %q", plural.N(len(names), "member", "members"), names))
	}
	m, _ := dict.Get(digestAlgorithm)
	item, ok := m.(httpsfv.Item)
	if !ok {
		return nil, digestError(s, RuleDigestLength, "sha-256 holds an inner list, not a Byte Sequence")
	}
	if item.Params != nil && len(item.Params.Names()) > 0 {
		return nil, digestError(s, RuleDigestParameters, "the sha-256 member carries parameters")
	}
	b, ok := item.Value.([]byte)
	if !ok {
		return nil, digestError(s, RuleDigestLength, "sha-256 is not a Byte Sequence (RFC 9651, Section 3.3.5)")
	}
	return b, nil
}

// padByteSequences adds the "=" padding a Byte Sequence of s lacks, so
// that the parser, which decodes padded base64 only, reads what RFC 9651
// Section 4.2.7 says a parser SHOULD NOT fail on. Strings (between DQUOTEs,
// with backslash escapes) are skipped; anything else is left as it is for
// the parser to judge.
func padByteSequences(s string) string {
	var out []byte // nil until a padding is added
	inString, escaped, start, copied := false, false, -1, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case start < 0 && c == '"':
			inString = true
		case start < 0 && c == ':':
			start = i + 1
		case c == ':':
			if n := (i - start) % 4; (n == 2 || n == 3) && s[i-1] != '=' {
				out = append(out, s[copied:i]...)
				out = append(out, "=="[:4-n]...)
				copied = i
			}
			start = -1
		}
	}
	if out == nil {
		return s
	}
	return string(append(out, s[copied:]...))
}

// String serializes the digest as the attribute value, "sha-256=:" +
// padded base64 + ":" (RFC 9651, Section 4.1).
func (d Digest) String() string {
	const prefix = "sha-256=:"
	b := make([]byte, 0, len(prefix)+44+1)
	b = append(b, prefix...)
	b = base64.StdEncoding.AppendEncode(b, d[:])
	return string(append(b, ':'))
}

// DigestOf returns the SHA-256 of b.
func DigestOf(b []byte) Digest { return sha256.Sum256(b) }

// DigestState is the result of comparing retrieved bytes with a link's
// digest attribute (Sections 4.3.1 and 4.4).
type DigestState string

const (
	// DigestUnverified: the link carries no digest (never "invalid",
	// Section 4.4), or the artefact was not retrieved.
	DigestUnverified DigestState = "unverified"
	// DigestVerified: the SHA-256 of the bytes equals the digest.
	DigestVerified DigestState = "verified"
	// DigestMismatch: the bytes are not the ones the publisher described
	// (Section 9.1).
	DigestMismatch DigestState = "mismatch"
	// DigestMalformed: the link's digest attribute cannot be read, so
	// nothing can be verified; the document itself is not conformant.
	DigestMalformed DigestState = "malformed"
)

// Digest returns the digest the link's digest attribute carries (Section
// 4.3.1). The result ok is false when the link has no digest attribute.
// The error is a *ValidationError (see [ParseDigest]) when it has one that
// is not exactly one well-formed value.
func (l *Link) Digest() (d Digest, ok bool, err error) {
	vals, ok := l.Attr("digest")
	if !ok {
		return d, false, nil
	}
	if len(vals) != 1 {
		return d, true, digestError(fmt.Sprint(vals), RuleDigestCount, fmt.Sprintf("the attribute holds %d values, not one", len(vals)))
	}
	d, err = ParseDigest(vals[0])
	return d, true, err
}

// VerifyDigest compares body, the decoded representation data of the
// link's target, with the link's digest attribute (Section 4.3.1).
func (l *Link) VerifyDigest(body []byte) DigestState {
	want, ok, err := l.Digest()
	switch {
	case !ok:
		return DigestUnverified
	case err != nil:
		return DigestMalformed
	case DigestOf(body) == want:
		return DigestVerified
	}
	return DigestMismatch
}

package linkset

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"

	"github.com/dunglas/httpsfv"
)

// DigestAlgorithm is the only algorithm key of the digest attribute: sha-256
// from the "Hash Algorithms for HTTP Digest Fields" registry (Section 4.3.1).
const DigestAlgorithm = "sha-256"

// ErrDigest is wrapped by every *DigestError.
var ErrDigest = errors.New("linkset: invalid digest")

// Digest is a SHA-256 value carried by a digest or agsc-bundle-hash
// attribute (Sections 4.3.1 and 4.3.2).
type Digest [sha256.Size]byte

// DigestError says why a digest attribute value was refused.
type DigestError struct {
	Value string // the attribute value as read
	// Rule is "digest-syntax" (not an RFC 9651 Dictionary),
	// "digest-algorithm" (not a single sha-256 member), "digest-parameters"
	// (the member carries parameters) or "digest-length" (not a Byte
	// Sequence of 32 bytes).
	Rule   string
	Reason string
}

// Error describes the refusal.
func (e *DigestError) Error() string {
	return fmt.Sprintf("linkset: invalid digest %q: %s", truncate(e.Value, 80), e.Reason)
}

// Unwrap returns ErrDigest.
func (e *DigestError) Unwrap() error { return ErrDigest }

// ParseDigest reads a digest attribute value: the serialization of an RFC
// 9651 Dictionary with the single member sha-256 whose value is a Byte
// Sequence of 32 bytes (Section 4.3.1). The error is a *DigestError.
func ParseDigest(s string) (Digest, error) {
	if d, ok := parseCanonicalDigest(s); ok {
		return d, nil
	}
	return parseDigestSFV(s)
}

// parseCanonicalDigest reads the canonical serialization "sha-256=:" + 44
// characters of padded base64 + ":" without building a Dictionary. It
// accepts exactly what httpsfv accepts for that shape (the same alphabet
// check and the same base64 decoding, FuzzParseDigest compares the two)
// and reports ok=false for anything else, which parseDigestSFV then reads.
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

// parseDigestSFV reads any serialization through the RFC 9651 parser.
func parseDigestSFV(s string) (Digest, error) {
	var d Digest
	dict, err := httpsfv.UnmarshalDictionary([]string{s})
	if err != nil {
		return d, &DigestError{Value: s, Rule: "digest-syntax", Reason: "not a structured-field Dictionary (RFC 9651, Section 3.2)"}
	}
	names := dict.Names()
	if len(names) != 1 || names[0] != DigestAlgorithm {
		return d, &DigestError{Value: s, Rule: "digest-algorithm", Reason: fmt.Sprintf("the Dictionary must have the single member sha-256, not %d member(s) %q", len(names), names)}
	}
	m, _ := dict.Get(DigestAlgorithm)
	item, ok := m.(httpsfv.Item)
	if !ok {
		return d, &DigestError{Value: s, Rule: "digest-length", Reason: "sha-256 holds an inner list, not a Byte Sequence"}
	}
	if item.Params != nil && len(item.Params.Names()) > 0 {
		return d, &DigestError{Value: s, Rule: "digest-parameters", Reason: "the sha-256 member carries parameters"}
	}
	b, ok := item.Value.([]byte)
	if !ok {
		return d, &DigestError{Value: s, Rule: "digest-length", Reason: "sha-256 is not a Byte Sequence (RFC 9651, Section 3.3.5)"}
	}
	if len(b) != sha256.Size {
		return d, &DigestError{Value: s, Rule: "digest-length", Reason: fmt.Sprintf("the Byte Sequence holds %d bytes, a SHA-256 is 32", len(b))}
	}
	copy(d[:], b)
	return d, nil
}

// String serializes the digest as the attribute value, "sha-256=:" +
// padded base64 + ":" (RFC 9651, Section 4.1).
func (d Digest) String() string {
	dict := httpsfv.NewDictionary()
	dict.Add(DigestAlgorithm, httpsfv.NewItem(d[:]))
	s, err := httpsfv.Marshal(dict)
	if err != nil { // cannot happen for a byte sequence under a valid key
		panic("linkset: formatting a digest: " + err.Error())
	}
	return s
}

// DigestOf returns the SHA-256 of b.
func DigestOf(b []byte) Digest { return sha256.Sum256(b) }

// DigestReader hashes r to its end in one streaming pass and returns the
// digest and the number of bytes read.
func DigestReader(r io.Reader) (Digest, int64, error) {
	h := sha256.New()
	n, err := io.Copy(h, r)
	var d Digest
	if err != nil {
		return d, n, fmt.Errorf("linkset: reading artefact: %w", err)
	}
	h.Sum(d[:0])
	return d, n, nil
}

// DigestState is the result of comparing retrieved bytes with a link's
// digest attribute (Sections 4.3.1 and 4.4).
type DigestState string

const (
	// Unverified: the link carries no digest (never "invalid", Section 4.4),
	// or the artefact was not retrieved.
	Unverified DigestState = "unverified"
	// Verified: the SHA-256 of the bytes equals the digest.
	Verified DigestState = "verified"
	// Mismatch: the bytes are not the ones the publisher described (Section 9.1).
	Mismatch DigestState = "mismatch"
	// Malformed: the link's digest attribute cannot be read, so nothing can be
	// verified; the document itself is not conformant.
	Malformed DigestState = "malformed"
)

// LinkDigest returns the digest the link carries. ok is false when the link
// has no digest attribute; err is a *DigestError when it has one that is
// not exactly one well-formed value.
func (l *Link) LinkDigest() (d Digest, ok bool, err error) {
	vals, ok := l.Attr("digest")
	if !ok {
		return d, false, nil
	}
	if len(vals) != 1 {
		return d, true, &DigestError{Value: fmt.Sprint(vals), Rule: "digest-count", Reason: fmt.Sprintf("the attribute holds %d values, not one", len(vals))}
	}
	d, err = ParseDigest(vals[0])
	return d, true, err
}

// VerifyDigest compares body, the decoded representation data of the
// link's target, with the link's digest attribute (Section 4.3.1).
func (l *Link) VerifyDigest(body []byte) DigestState {
	want, ok, err := l.LinkDigest()
	switch {
	case !ok:
		return Unverified
	case err != nil:
		return Malformed
	case DigestOf(body) == want:
		return Verified
	}
	return Mismatch
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

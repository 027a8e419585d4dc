package linkset

import (
	"context"
	"fmt"
	"net/http"

	"github.com/agentweb/agentweb/safefetch"
)

// The bounds of artefact verification when a VerifyOptions field is zero.
const (
	defaultMaxArtefactBytes = 64 << 20
	defaultMaxArtefacts     = 64
)

// VerifyOptions configures artefact verification. The zero value is safe.
type VerifyOptions struct {
	// Client retrieves the artefacts. Nil means the client that fetched the
	// link set (FetchOptions.Client of [Fetch] or [Discover],
	// WalkOptions.Client of [Walk]), and when that was nil too,
	// safefetch.Default(), the module's shared client.
	Client *safefetch.Client
	// MaxArtefactBytes bounds each artefact; 0 means 64 MiB.
	MaxArtefactBytes int64
	// MaxArtefacts bounds the artefacts retrieved; 0 means 64. Links
	// beyond it stay unverified, with a reason.
	MaxArtefacts int
}

// ArtefactState is the digest state of one artefact link (Sections 4.3.1,
// 4.4 and 9.1). A verified digest proves only that the artefact is the one
// the publisher described, nothing about its safety (Section 9.4).
//
// State DigestUnverified covers two cases that HasDigest tells apart. A link
// without a digest attribute has HasDigest false: it is unverified by
// construction, never invalid (Section 4.4), and no request is made. A link
// with a digest whose artefact could not be compared has HasDigest true. It was
// not retrieved, refused by safefetch, given a non-2xx status or cut by the
// MaxArtefacts bound, with the cause in Reason. DigestVerified, DigestMismatch
// and DigestMalformed always have HasDigest true.
type ArtefactState struct {
	Relation string      `json:"relation"`
	Href     string      `json:"href"`
	State    DigestState `json:"state"`
	// HasDigest reports whether the link carries a digest attribute
	// (Section 4.3.1), well-formed or not.
	HasDigest  bool `json:"has_digest"`
	StatusCode int  `json:"status_code,omitempty"`
	Bytes      int  `json:"bytes,omitempty"`
	// Reason says why an artefact with a digest stayed unverified, or why
	// its digest is malformed; it is empty when HasDigest is false.
	Reason string `json:"reason,omitempty"`
}

// verifyOne retrieves the link's target and compares it with the link's
// digest. A link without a digest is unverified without a request.
func verifyOne(ctx context.Context, c *safefetch.Client, rel string, l *Link, opts *VerifyOptions) ArtefactState {
	st := ArtefactState{Relation: rel, Href: l.Href, State: DigestUnverified}
	_, has, err := l.Digest()
	switch {
	case !has:
		return st
	}
	st.HasDigest = true
	switch {
	case err != nil:
		st.State, st.Reason = DigestMalformed, err.Error()
		return st
	}
	limit := opts.MaxArtefactBytes
	if limit <= 0 {
		limit = defaultMaxArtefactBytes
	}
	resp, err := c.Do(ctx, &safefetch.Request{Method: http.MethodGet, URL: l.Href, MaxBodyBytes: limit})
	if resp != nil {
		st.StatusCode = resp.StatusCode
	}
	if err != nil {
		st.Reason = err.Error()
		return st
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		st.Reason = fmt.Sprintf("status %d", resp.StatusCode)
		return st
	}
	st.Bytes = len(resp.Body)
	st.State = l.VerifyDigest(resp.Body)
	return st
}

// Verify retrieves every artefact of the document's Bundle context that
// carries a digest (each href once, at most MaxArtefacts) and returns the
// digest state of every link, in document order. Links without a digest
// are DigestUnverified, never invalid ([knowledge-linkset draft], Section 4.4). The Fetched is not
// modified.
//
// [knowledge-linkset draft]: https://datatracker.ietf.org/doc/draft-besleaga-agentic-knowledge-wellknown/
func (f *Fetched) Verify(ctx context.Context, opts *VerifyOptions) []ArtefactState {
	if f.Document == nil || f.Document.Bundle() == nil {
		return nil
	}
	if opts == nil {
		opts = &VerifyOptions{}
	}
	c := opts.Client
	if c == nil {
		c = f.client
	}
	c = safefetch.OrDefault(c)
	max := opts.MaxArtefacts
	if max <= 0 {
		max = defaultMaxArtefacts
	}
	seen := map[string]ArtefactState{}
	var out []ArtefactState
	for _, r := range f.Document.Bundle().Relations {
		for i := range r.Links {
			l := &r.Links[i]
			if _, has := l.Attr("digest"); !has {
				out = append(out, ArtefactState{Relation: r.Name, Href: l.Href, State: DigestUnverified})
				continue
			}
			key := l.Href + "\x00" + l.FirstAttr("digest")
			st, ok := seen[key]
			switch {
			case ok:
			case len(seen) >= max:
				st = ArtefactState{Href: l.Href, State: DigestUnverified, HasDigest: true, Reason: fmt.Sprintf("not retrieved: the bound of %d artefacts was reached", max)}
			default:
				st = verifyOne(ctx, c, r.Name, l, opts)
				seen[key] = st
			}
			st.Relation = r.Name
			out = append(out, st)
		}
	}
	return out
}

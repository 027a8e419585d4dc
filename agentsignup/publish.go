package agentsignup

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/agentweb/agentweb/internal/serve"
)

// NewDocument builds a document for a relying party to publish. It sets
// protocol to "agent-identity-v1", and computes terms.sha256 from
// terms.text with TermsHash. Any value in d is replaced, so a publisher
// cannot ship a stale hash: "When the terms change, publish the new text
// and hash". It encodes the document as indented JSON ending in one LF.
// Unknown and Warnings are not published. The result is checked with
// Parse: the error is the *ValidationError of a document that would not
// conform.
func NewDocument(d Document) (*Document, error) {
	d.Protocol = Protocol
	d.Terms.SHA256 = TermsHash(d.Terms.Text)
	if d.IssuerAllowlist == nil {
		d.IssuerAllowlist = []string{}
	}
	if d.RequiredScopes == nil {
		d.RequiredScopes = []string{}
	}
	d.Unknown, d.Warnings, d.raw = nil, nil, nil
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&d); err != nil {
		return nil, fmt.Errorf("agentsignup: encode document: %w", err)
	}
	return Parse(buf.Bytes())
}

// HandlerOptions configures Handler. The zero value is ready to use.
type HandlerOptions struct {
	// CacheControl is the Cache-Control header. "" means "no-cache": caches
	// revalidate with the ETag on every use, so a new terms text and hash
	// reach agents before new signups are accepted.
	CacheControl string
	// Header holds extra response headers (for example CORS). It cannot
	// replace Content-Type, Content-Length, ETag or Cache-Control.
	Header http.Header
}

// Handler returns the relying party's http.Handler for WellKnownPath. It
// serves the exact bytes d was parsed from, or that NewDocument produced. A
// Document built by hand is encoded as NewDocument would, with its terms
// hash kept. It sends Content-Type application/json, a strong ETag (the
// SHA-256 of the body), Content-Length and Cache-Control. It answers
// If-None-Match with 304, HEAD without a body and other methods with 405.
// Fields of a parsed Document changed after Parse are not served (its exact
// bytes are): build the changed document with NewDocument. The body is
// checked with Parse first: Handler refuses to serve a document that does
// not conform, a stale terms hash included.
func Handler(d *Document, opts *HandlerOptions) (http.Handler, error) {
	if d == nil {
		return nil, fmt.Errorf("agentsignup: no document to serve")
	}
	if opts == nil {
		opts = &HandlerOptions{}
	}
	body := d.raw
	if body == nil {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(d); err != nil {
			return nil, fmt.Errorf("agentsignup: encode document: %w", err)
		}
		body = buf.Bytes()
	}
	if _, err := Parse(body); err != nil {
		return nil, fmt.Errorf("agentsignup: refusing to serve a document that does not conform: %w", err)
	}
	cc := opts.CacheControl
	if cc == "" {
		cc = "no-cache"
	}
	return serve.Handler(serve.Document{
		Body:         body,
		ContentType:  MediaType,
		CacheControl: cc,
		Header:       opts.Header,
	}), nil
}

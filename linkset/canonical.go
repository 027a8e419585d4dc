package linkset

import (
	"fmt"

	"github.com/gowebpki/jcs"
)

// Canonical returns the canonical bytes of the document: its RFC 8785
// (JSON Canonicalization Scheme) serialization followed by one LF. Section
// 4.1 asks a node that produces canonical bytes to use RFC 8785; the one
// LF is the reference validator's convention, which this package follows.
// Two builds of the same Bundle produce the same bytes, so a third party's
// digest of the document is stable.
//
// [RFC 8785]: https://www.rfc-editor.org/rfc/rfc8785
func (d *Document) Canonical() ([]byte, error) {
	b, err := d.MarshalJSON()
	if err != nil {
		return nil, err
	}
	out, err := canonicalJSON(b)
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// canonicalJSON is the RFC 8785 serialization of the JSON text b.
func canonicalJSON(b []byte) ([]byte, error) {
	out, err := jcs.Transform(b)
	if err != nil {
		return nil, fmt.Errorf("linkset: canonicalizing: %v", err)
	}
	return out, nil
}

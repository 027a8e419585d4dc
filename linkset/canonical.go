package linkset

import (
	"fmt"

	"github.com/gowebpki/jcs"
)

// Canonical returns the canonical bytes of the document: its RFC 8785
// (JSON Canonicalization Scheme) serialization followed by one LF (Section
// 4.1; NOTES.md). Two builds of the same Bundle produce the same bytes, so a
// third party's digest of the document is stable.
func (d *Document) Canonical() ([]byte, error) {
	b, err := d.MarshalJSON()
	if err != nil {
		return nil, err
	}
	out, err := jcs.Transform(b)
	if err != nil {
		return nil, fmt.Errorf("linkset: canonicalizing: %v", err)
	}
	return append(out, '\n'), nil
}

package linkset

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"

	"github.com/agentweb/agentweb/internal/shorten"
)

// ErrEmptyLedger is returned when ledger bytes hold no entry.
var ErrEmptyLedger = errors.New("linkset: the ledger holds no entry")

// entryHash hashes one ledger entry: the bytes of a JSON Lines line without
// its LF (and without a CR before it).
func entryHash(line []byte) string {
	line = bytes.TrimSuffix(line, []byte{'\r'})
	sum := sha256.Sum256(line)
	return hex.EncodeToString(sum[:])
}

// forEntries calls f with every non-empty line of a JSON Lines ledger.
func forEntries(ledger []byte, f func(line []byte) bool) {
	for len(ledger) > 0 {
		line := ledger
		if i := bytes.IndexByte(ledger, '\n'); i >= 0 {
			line, ledger = ledger[:i], ledger[i+1:]
		} else {
			ledger = nil
		}
		if len(bytes.TrimSuffix(line, []byte{'\r'})) == 0 {
			continue
		}
		if !f(line) {
			return
		}
	}
}

// LedgerHead returns the agsc-ledger-head of JSON Lines ledger bytes: the
// lower-case hexadecimal SHA-256 of the last entry, the last non-empty line
// without its line terminator (Section 4.3.2).
func LedgerHead(ledger []byte) (string, error) {
	var last []byte
	forEntries(ledger, func(line []byte) bool { last = line; return true })
	if last == nil {
		return "", ErrEmptyLedger
	}
	return entryHash(last), nil
}

// LedgerExtends reports whether the ledger read now extends the one whose head
// was seen earlier ([knowledge-linkset draft], Section 9.1). It is true when
// previousHead is the hash of one of its entries: the last one (unchanged) or
// an earlier one (an ordinary update). It is false when it is none of them: a
// ledger rolled back or replaced. A client SHOULD treat that as such rather
// than as an ordinary update. The argument previousHead is 64 lower-case
// hexadecimal digits, as agsc-ledger-head carries it. Compare it with
// [LedgerHead] of the ledger to tell unchanged from extended.
//
// [knowledge-linkset draft]: https://datatracker.ietf.org/doc/draft-besleaga-agentic-knowledge-wellknown/
func LedgerExtends(previousHead string, ledger []byte) (bool, error) {
	if !ledgerRE.MatchString(previousHead) {
		return false, fmt.Errorf("linkset: previous ledger head %q is not 64 lower-case hexadecimal digits", shorten.Bytes(previousHead, 80))
	}
	found, any := false, false
	forEntries(ledger, func(line []byte) bool {
		any = true
		if entryHash(line) == previousHead {
			found = true
			return false
		}
		return true
	})
	if !any {
		return false, ErrEmptyLedger
	}
	return found, nil
}

// ledgerHead returns the agsc-ledger-head value of the ledger link, or ""
// when the document names none.
func (d *Document) ledgerHead() string {
	c := d.Bundle()
	if c == nil {
		return ""
	}
	for _, l := range c.Relation(RelLedger) {
		if v := l.FirstAttr("agsc-ledger-head"); v != "" {
			return v
		}
	}
	return ""
}

// headWriter computes the ledger head while the bytes stream past, holding
// only the hash state of the current line.
type headWriter struct {
	line    hash.Hash
	pending bool   // the current line has bytes
	cr      bool   // the last byte written to line was a CR not yet hashed
	head    string // hash of the last complete non-empty line
}

func newHeadWriter() *headWriter { return &headWriter{line: sha256.New()} }

func (w *headWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i]
		}
		if len(chunk) > 0 {
			if w.cr {
				w.line.Write([]byte{'\r'})
				w.cr, w.pending = false, true
			}
			body := chunk
			if chunk[len(chunk)-1] == '\r' {
				body, w.cr = chunk[:len(chunk)-1], true
			}
			if len(body) > 0 {
				w.line.Write(body)
				w.pending = true
			}
		}
		if i < 0 {
			break
		}
		w.cr = false // a CR right before the LF ends the line, it is not part of it
		if w.pending {
			w.head = hex.EncodeToString(w.line.Sum(nil))
		}
		w.line.Reset()
		w.pending = false
		p = p[i+1:]
	}
	return n, nil
}

// Head returns the head once every byte was written: the hash of the last
// non-empty line, as [LedgerHead] computes it.
func (w *headWriter) Head() string {
	if w.pending {
		return hex.EncodeToString(w.line.Sum(nil))
	}
	return w.head
}

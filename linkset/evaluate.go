package linkset

import (
	"bytes"
	"strconv"

	"github.com/agentweb/agentweb/internal/problem"
	"github.com/agentweb/agentweb/internal/strictjson"
)

// Mode selects whose obligations [Document.Evaluate] checks.
type Mode uint8

const (
	// ModeReader, the zero value, applies the rules as a client reads. A
	// relation name it does not recognise, registered or not, is ignored
	// (Section 4.2). A declaration on a link it does not ride on is
	// ignored (Section 4.3.3). The headers a node owes are only noted
	// (Sections 3.2 and 3.3). Each is said in a notice. It is the zero
	// value because a client that sets nothing reads as a reader must.
	ModeReader Mode = iota
	// ModePublisher applies every rule the draft sets for a node's
	// document. A relation outside the profile's relation set, or an
	// unknown name under the extension base, is an error (Sections 4.2 and
	// 6.1).
	ModePublisher
	// ModeStrict is ModePublisher plus the stricter checks of the draft's
	// reference validator. It checks the canonical bytes (RFC 8785 and
	// one LF) of a document read by [Parse], non-empty relation arrays
	// and strictly increasing hrefs. It checks digests in their canonical
	// serialization, the agsc-bundle-version syntax, and the known
	// agsc-surface values and their versions.
	ModeStrict
)

// Form is the completeness level of a conformant document (Section 4.4).
type Form string

const (
	// FormFull: digests and bundle facts present and recomputable (Section 4).
	FormFull Form = "full"
	// FormReduced: no digest, no bundle fact and no ledger (Section 4.4).
	FormReduced Form = "reduced"
	// FormNotConformant: at least one problem of severity SeverityError.
	FormNotConformant Form = "not conformant"
)

// Report is the outcome of checking a document against the profile.
type Report struct {
	// Form is full or reduced when Problems is empty, else not conformant.
	Form Form `json:"form"`
	// Problems lists every error; empty means conformant.
	Problems []Problem `json:"problems"`
	// Notices lists what was ignored or read as most restrictive.
	Notices []Problem `json:"notices"`
}

// Conformant reports whether the report has no error.
func (r *Report) Conformant() bool { return len(r.Problems) == 0 }

// Check applies the profile's rules for a publisher ([ModePublisher]) and
// returns every error; an empty result means the document conforms.
//
// [knowledge-linkset draft]: https://datatracker.ietf.org/doc/draft-besleaga-agentic-knowledge-wellknown/
func (d *Document) Check() []Problem { return d.Evaluate(ModePublisher).Problems }

// Evaluate checks the document in the given mode and returns its form,
// errors and notices. Only the link context this profile understands (the
// one anchored at the Bundle IRI) is checked; an additional context is
// ignored and reported as a notice ([knowledge-linkset draft], Section 4.1).
//
// In [ModeStrict], a document read by [Parse] must also have been read
// from its canonical bytes: the RFC 8785 serialization followed by one LF
// (rule [RuleCanonicalBytes]). A document built in code has no such bytes;
// compare [Document.Canonical] with the bytes you serve instead.
//
// [knowledge-linkset draft]: https://datatracker.ietf.org/doc/draft-besleaga-agentic-knowledge-wellknown/
func (d *Document) Evaluate(mode Mode) *Report {
	c := checker{d: d, mode: mode}
	c.run()
	if mode == ModeStrict && d.src != nil {
		canon, err := d.Canonical()
		if err != nil || !bytes.Equal(canon, d.src) {
			c.ps.add("", RuleCanonicalBytes, "4.1", "the bytes are not the RFC 8785 canonical serialization followed by one LF")
		}
	}
	r := &Report{Problems: nonNil(c.ps.errs), Notices: nonNil(c.ps.notes)}
	switch {
	case len(r.Problems) > 0:
		r.Form = FormNotConformant
	case c.reduced:
		r.Form = FormReduced
	default:
		r.Form = FormFull
	}
	return r
}

// evaluateBytes parses data and evaluates it; the document is nil when
// data is not a link set, and the report then lists why.
func evaluateBytes(data []byte, mode Mode) (*Document, *Report) {
	d, err := Parse(data)
	if err != nil {
		var ps []Problem
		if ve := problem.As(err); ve != nil {
			ps = ve.Problems
		}
		return nil, &Report{Form: FormNotConformant, Problems: nonNil(ps), Notices: []Problem{}}
	}
	return d, d.Evaluate(mode)
}

// checker applies the profile's rules to one document; its methods live
// in the file of the draft section they implement (check_*.go).
type checker struct {
	d       *Document
	mode    Mode
	ps      problems
	reduced bool
}

// placement reports a value on a link it does not ride on: an error for a
// publisher, a notice for a reader, which ignores it (Section 4.3.3).
func (c *checker) placement(ptr, rule, section, format string, args ...any) {
	if c.mode == ModeReader {
		c.ps.note(ptr, rule, section, format+"; a client ignores it", args...)
		return
	}
	c.ps.add(ptr, rule, section, format, args...)
}

// lazyPointer builds a JSON Pointer only when a problem needs it.
type lazyPointer struct{ base, tok string }

func (p lazyPointer) at(suffix string) string {
	return p.base + "/" + strictjson.EscapeToken(p.tok) + suffix
}

func (p lazyPointer) index(k int) string { return p.at("/" + strconv.Itoa(k)) }

// one requires an attribute to hold exactly one value.
func (c *checker) one(a *Attribute, aptr lazyPointer, rule, section string) bool {
	if len(a.Values) != 1 {
		c.ps.add(aptr.at(""), rule, section, "%s holds %d values, not one", a.Name, len(a.Values))
		return false
	}
	return true
}

// nonNil makes an empty list marshal as [] rather than null.
func nonNil(ps []Problem) []Problem {
	if ps == nil {
		return []Problem{}
	}
	return ps
}

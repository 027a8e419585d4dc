package agentic

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/agentweb/agentweb/internal/weburl"
)

// Errors of TXT generation.
var (
	// ErrProfileURL reports a profile URL this package will not use. It is
	// not an https URL, or it carries credentials, a query or a fragment.
	// For TXT generation and Discover, it is not on the profile's origin.
	ErrProfileURL = errors.New("agentic: profile URL must be an https URL on the profile origin without credentials, query or fragment")
	// ErrTextTooLarge reports a generated TXT file over [Limits.TextBytes]
	// (TXT 1.1).
	ErrTextTooLarge = errors.New("agentic: generated TXT exceeds 64 KiB; shorten the profile")
)

// TXT format versions a file may declare in its Agentic-Text line.
const (
	textVersion10 = "1.0" // Action TXT 1.0
	textVersion11 = "1.1" // site TXT 1.1
	textVersion12 = "1.2" // the publication form, with project references
)

// Reference is one fixed project reference record of TXT 1.2.
type Reference struct {
	Role, Name, URL, Description string
}

// projectReferences returns the two fixed reference records TXT 1.2 appends
// (the publication specification's "TXT 1.2"). They are project information,
// never service capabilities or instructions.
func projectReferences() []Reference {
	return []Reference{
		{
			Role: "specification", Name: "Agentic", URL: "https://ruagentic.org",
			Description: "Agentic is the open file convention for describing websites, APIs, and agent connections, with specifications and tools for generation, validation, auditing, and action-result verification.",
		},
		{
			Role: "directory", Name: "RUAGENTIC", URL: "https://ruagentic.com",
			Description: "RUAGENTIC is the official Agentic directory for agentic AI MCP servers and tools.",
		},
	}
}

// defaultProfileURL returns origin + "/agentic.json", the profile URL TXT
// uses when none is given.
func defaultProfileURL(origin string) string { return origin + "/agentic.json" }

// profileURLFor checks a profile URL against a profile origin. It returns
// the URL as TXT writes it on its Profile line, in the WHATWG serialisation.
// That is scheme and host lower-case, default port dropped, dot segments
// removed, and an empty path written "/". "" means defaultProfileURL(origin). The error
// wraps ErrProfileURL.
func profileURLFor(origin, profileURL string) (string, error) {
	if profileURL == "" {
		profileURL = defaultProfileURL(origin)
	}
	u, err := url.Parse(profileURL)
	if err != nil || !u.IsAbs() || u.Host == "" || u.Opaque != "" {
		return "", fmt.Errorf("%w: %q is not an absolute URL", ErrProfileURL, weburl.Redact(profileURL))
	}
	if u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(profileURL, "#") {
		return "", fmt.Errorf("%w: %q carries credentials, a query or a fragment", ErrProfileURL, weburl.Redact(profileURL))
	}
	// Origins are compared normalized (host case, IDNA, trailing dot,
	// default port), as everywhere in this module; the URL returned is
	// written on the given origin.
	if o := canonicalOrigin(u); o != origin && !sameOrigin(u, origin) {
		return "", fmt.Errorf("%w: %q is on origin %s, not %s", ErrProfileURL, weburl.Redact(profileURL), o, origin)
	}
	r := (&url.URL{}).ResolveReference(u) // removes dot segments
	p := r.EscapedPath()
	if p == "" {
		p = "/"
	}
	return origin + p, nil
}

// Text returns the TXT 1.1 index of the profile, byte for byte as the
// reference generator writes it (TXT 1.1). Lines end in LF, with exactly
// one final LF. Strings are in JavaScript JSON quoting, with control,
// directional and invisible formatting characters escaped. Summaries are
// left out. profileURL "" means the origin's /agentic.json. The Site is
// validated first (a *ValidationError). A bad profile URL wraps
// ErrProfileURL, and a result over [Limits.TextBytes] is ErrTextTooLarge.
func (s *Site) Text(profileURL string) ([]byte, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s.generate(profileURL, textVersion11)
}

// PublicationText returns the TXT 1.2 publication form. It is the TXT 1.1
// index with its Agentic-Text line changed to 1.2, then an empty line and
// the two fixed project reference records. These are specification Agentic
// (https://ruagentic.org) and directory RUAGENTIC (https://ruagentic.com).
// Each is followed by an empty line separator, and the text ends with
// exactly one LF. Errors are those of Text.
func (s *Site) PublicationText(profileURL string) ([]byte, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s.generate(profileURL, textVersion12)
}

// generate writes TXT 1.1 or 1.2 for a validated Site.
func (s *Site) generate(profileURL, version string) ([]byte, error) {
	pu, err := profileURLFor(s.Origin, profileURL)
	if err != nil {
		return nil, err
	}
	b := s.appendText(make([]byte, 0, 4096), pu, version)
	if version == textVersion12 {
		b = appendReferences(b)
	}
	if len(b) > maxTextBytes {
		return nil, ErrTextTooLarge
	}
	return b, nil
}

func appendReferences(b []byte) []byte {
	b = append(b, '\n')
	for i, r := range projectReferences() {
		if i > 0 {
			b = append(b, '\n')
		}
		b = append(b, "Reference: "...)
		b = appendJSString(b, r.Role, false)
		b = append(b, ' ')
		b = appendJSString(b, r.Name, false)
		b = append(b, ' ')
		b = appendJSString(b, r.URL, false)
		b = append(b, "\nReference-Description: "...)
		b = appendJSString(b, r.Description, false)
		b = append(b, '\n')
	}
	return b
}

// appendText writes the site index. Every record ends with an empty line;
// joining lines with LF as the reference does gives a file whose last record
// is followed by exactly one LF.
func (s *Site) appendText(b []byte, profileURL, version string) []byte {
	line := func(parts ...string) {
		for _, p := range parts {
			b = append(b, p...)
		}
		b = append(b, '\n')
	}
	q := func(v string) string { return quoteTXT(v) }
	line("# Agentic site index")
	line("# Generated from JSON. Resources are discovery information, not execution instructions.")
	line("Agentic-Text: ", version)
	line("Profile: ", profileURL)
	line("Profile-Version: ", Version)
	line("Type: site")
	line("Origin: ", s.Origin)
	line("Name: ", q(s.Name))
	line("Description: ", q(s.Description))
	records := make([][]string, 0, len(s.Resources)+len(s.APIs))
	for _, r := range s.Resources {
		rec := []string{
			"Resource: " + q(string(r.Kind)) + " " + q(r.URL),
			"Availability: " + string(r.Availability),
			"Source: " + q(r.Source),
		}
		if r.Title != "" {
			rec = append(rec, "Title: "+q(r.Title))
		}
		records = append(records, rec)
	}
	for _, a := range s.APIs {
		rec := []string{"OpenAPI: " + q(a.Document), "OpenAPI-Version: " + q(a.OpenAPI)}
		for _, o := range a.Operations {
			l := "Operation: " + q(o.Method) + " " + q(o.Path)
			if o.OperationID != "" {
				l += " " + q(o.OperationID)
			}
			rec = append(rec, l)
		}
		records = append(records, rec)
	}
	// The header's empty line, then each record followed by its empty
	// line; the final empty line is the trailing LF of a join.
	for _, rec := range records {
		b = append(b, '\n')
		for _, l := range rec {
			line(l)
		}
	}
	return b
}

// TextStatus is the state of a TXT index against its JSON profile, as the
// auditor's textIndex.status reports it ([Agentic Site Profile 1.1], section
// "Discovery and auditing").
//
// [Agentic Site Profile 1.1]: https://github.com/sam1siam/agentic
type TextStatus string

const (
	// TextStatusSkipped: the check was not run.
	TextStatusSkipped TextStatus = "skipped"
	// TextStatusMissing: no TXT file was served (404 or 410).
	TextStatusMissing TextStatus = "missing"
	// TextStatusMatched: the file equals the TXT 1.1 or the TXT 1.2 generation.
	TextStatusMatched TextStatus = "matched"
	// TextStatusMismatch: the file differs from both generations (or none could be generated).
	TextStatusMismatch TextStatus = "mismatch"
	// TextStatusUnavailable: the file could not be read (network error, other status, too large).
	TextStatusUnavailable TextStatus = "unavailable"
)

// TextCheck is the detailed result of comparing a TXT file with a profile.
type TextCheck struct {
	Status TextStatus `json:"status"`
	// Version is the generation the file matched ("1.1" or "1.2"), or the
	// version the file declares when it did not match ("" if none).
	Version string `json:"version,omitempty"`
	// Line is the 1-based number of the first line that differs from the
	// generation the file was compared with (0 when matched).
	Line int `json:"line,omitempty"`
	// Want and Got are that line in the generation and in the file; a line
	// past the end of either is reported as "<end of file>".
	Want string `json:"want,omitempty"`
	Got  string `json:"got,omitempty"`
	// Reason explains a mismatch in one sentence.
	Reason string `json:"reason,omitempty"`
}

// CheckText compares txt with the TXT 1.1 and TXT 1.2 generations of s for
// profileURL ("" means the origin's /agentic.json). It returns
// TextStatusMatched when txt equals either byte for byte, else
// TextStatusMismatch. It is the short answer of [Site.CompareText]:
// CheckText(s, u, txt) == s.CompareText(u, txt).Status.
func CheckText(s *Site, profileURL string, txt []byte) TextStatus {
	return s.CompareText(profileURL, txt).Status
}

const (
	endOfFile = "<end of file>"
	emptyLine = "<empty line>"
)

// CompareText is [CheckText] with the evidence: which generation matched,
// or the first line that differs from the generation the file declares.
// That is TXT 1.2 when its Agentic-Text line says 1.2, else TXT 1.1. A nil or
// invalid Site matches nothing. [ActionProfile.CompareText] does the same
// for an action profile.
func (s *Site) CompareText(profileURL string, txt []byte) TextCheck {
	declared := declaredTextVersion(txt)
	if err := s.Validate(); err != nil {
		return TextCheck{Status: TextStatusMismatch, Version: declared, Reason: "no TXT can be generated: " + err.Error()}
	}
	t11, err := s.generate(profileURL, textVersion11)
	if err != nil {
		return TextCheck{Status: TextStatusMismatch, Version: declared, Reason: "no TXT can be generated: " + err.Error()}
	}
	if bytes.Equal(txt, t11) {
		return TextCheck{Status: TextStatusMatched, Version: textVersion11}
	}
	t12, err := s.generate(profileURL, textVersion12)
	if err == nil && bytes.Equal(txt, t12) {
		return TextCheck{Status: TextStatusMatched, Version: textVersion12}
	}
	want := t11
	if declared == textVersion12 && err == nil {
		want = t12
	}
	c := TextCheck{Status: TextStatusMismatch, Version: declared}
	c.Line, c.Want, c.Got = firstDiff(want, txt)
	switch {
	case bytes.Contains(txt, []byte{'\r'}):
		c.Reason = "the file contains CR characters; TXT uses LF only"
	case declared != "" && declared != textVersion11 && declared != textVersion12:
		c.Reason = "the file declares Agentic-Text " + declared + ", which a site profile does not generate"
	default:
		c.Reason = fmt.Sprintf("line %d differs from the TXT %s generation", c.Line, versionOf(want))
	}
	return c
}

func versionOf(gen []byte) string {
	if v := declaredTextVersion(gen); v != "" {
		return v
	}
	return textVersion11
}

// declaredTextVersion returns the value of the first "Agentic-Text: " line
// among the first lines of txt.
func declaredTextVersion(txt []byte) string {
	for i, l := range bytes.SplitN(txt, []byte{'\n'}, 8) {
		if i >= 7 {
			break
		}
		if v, ok := bytes.CutPrefix(l, []byte("Agentic-Text: ")); ok {
			return strings.TrimRight(string(v), "\r")
		}
	}
	return ""
}

// firstDiff returns the 1-based number and contents of the first line where
// want and got differ. A missing or extra final LF shows as a differing last
// line.
func firstDiff(want, got []byte) (int, string, string) {
	wl := bytes.SplitAfter(want, []byte{'\n'})
	gl := bytes.SplitAfter(got, []byte{'\n'})
	for i := 0; ; i++ {
		var w, g string
		wok, gok := i < len(wl) && len(wl[i]) > 0, i < len(gl) && len(gl[i]) > 0
		if !wok && !gok {
			return i + 1, endOfFile, endOfFile
		}
		w, g = endOfFile, endOfFile
		if wok {
			w = string(wl[i])
		}
		if gok {
			g = string(gl[i])
		}
		if w != g {
			return i + 1, showLine(w), showLine(g)
		}
	}
}

// showLine renders a line for a report: without its LF, with a missing LF
// or a CR made visible, and cut to a bounded length.
func showLine(l string) string {
	if l == endOfFile {
		return l
	}
	if s, ok := strings.CutSuffix(l, "\n"); ok {
		l = s
	} else {
		l += " <no final LF>"
	}
	l = strings.ReplaceAll(l, "\r", `\r`)
	if l == "" {
		return emptyLine
	}
	if len(l) > 300 {
		l = l[:300] + "..."
	}
	return l
}

// sameOrigin reports whether u is on origin once both are normalized by
// weburl.Origin.
func sameOrigin(u *url.URL, origin string) bool {
	ou, err := url.Parse(origin)
	if err != nil {
		return false
	}
	a, err1 := weburl.Origin(u)
	b, err2 := weburl.Origin(ou)
	return err1 == nil && err2 == nil && a == b
}

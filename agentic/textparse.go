package agentic

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// ErrTextSyntax is wrapped by every *TextSyntaxError.
var ErrTextSyntax = errors.New("agentic: malformed TXT index")

// TextSyntaxError reports the first line of a TXT index that cannot be read.
type TextSyntaxError struct {
	Line    int // 1-based; 0 for whole-file problems
	Message string
}

func (e *TextSyntaxError) Error() string {
	if e.Line == 0 {
		return "agentic: malformed TXT index: " + e.Message
	}
	return fmt.Sprintf("agentic: malformed TXT index: line %d: %s", e.Line, e.Message)
}

// Unwrap returns ErrTextSyntax.
func (e *TextSyntaxError) Unwrap() error { return ErrTextSyntax }

// TextIndex is a TXT index read back into its records by ParseText: a site
// index (TXT 1.1 or 1.2) or an Action TXT 1.0. It is a reading aid for tools
// that only have the TXT; the JSON profile remains authoritative, and a site
// index carries no operation summaries.
type TextIndex struct {
	// Kind is "site" or "action", from the first comment line.
	Kind string `json:"kind"`
	// TextVersion is the Agentic-Text value: "1.0", "1.1" or "1.2".
	TextVersion    string `json:"text_version"`
	Profile        string `json:"profile"`
	ProfileVersion string `json:"profile_version"`
	// Type is "site" for a site index, "" for an action index.
	Type        string `json:"type,omitempty"`
	Origin      string `json:"origin"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
	// Comments are the "# " lines of the header, without the "# ".
	Comments   []string      `json:"comments,omitempty"`
	Resources  []Resource    `json:"resources,omitempty"`
	APIs       []API         `json:"apis,omitempty"`
	References []Reference   `json:"references,omitempty"`
	Actions    []TextAction  `json:"actions,omitempty"`
	Unknown    []TextUnknown `json:"unknown,omitempty"`
}

// TextAction is one Action/Description pair of an Action TXT 1.0.
type TextAction struct {
	ID          string `json:"id"`
	Description string `json:"description"`
}

// TextUnknown is a line ParseText kept without understanding it: a field of
// a later TXT version inside a known record.
type TextUnknown struct {
	Line  int    `json:"line"`
	Field string `json:"field"`
	Value string `json:"value"`
}

// Bounds of ParseText.
const maxTextLines = 16384

// ParseText reads a TXT index (site TXT 1.1 or 1.2, or Action TXT 1.0) into
// its records. It requires what the generators guarantee:
//   - UTF-8, LF line ends and no CR, a final LF;
//   - at most [Limits.TextBytes];
//   - the header fields in order, and records separated by empty lines;
//   - values in JSON string quoting where the format quotes them.
//
// The first problem is returned as a *TextSyntaxError.
// A file that parses is not thereby consistent with any JSON: use CheckText.
func ParseText(data []byte) (*TextIndex, error) {
	fail := func(line int, format string, a ...any) (*TextIndex, error) {
		return nil, &TextSyntaxError{Line: line, Message: fmt.Sprintf(format, a...)}
	}
	switch {
	case len(data) == 0:
		return fail(0, "empty file")
	case len(data) > maxTextBytes:
		return fail(0, "file is %d bytes, over the %d-byte limit", len(data), maxTextBytes)
	case !utf8.Valid(data):
		return fail(0, "file is not valid UTF-8")
	case data[len(data)-1] != '\n':
		return fail(0, "file does not end with LF")
	}
	if i := bytes.IndexByte(data, '\r'); i >= 0 {
		return fail(bytes.Count(data[:i], []byte{'\n'})+1, "CR character; TXT uses LF line ends only")
	}
	lines := strings.Split(string(data[:len(data)-1]), "\n")
	if lines[len(lines)-1] == "" {
		return fail(len(lines), "file ends with an empty line")
	}
	if len(lines) > maxTextLines {
		return fail(0, "more than %d lines", maxTextLines)
	}
	t := &TextIndex{}
	switch lines[0] {
	case "# Agentic site index":
		t.Kind = "site"
	case "# Agentic action index":
		t.Kind = "action"
	default:
		return fail(1, "first line must be \"# Agentic site index\" or \"# Agentic action index\"")
	}
	n := 0
	for n < len(lines) && strings.HasPrefix(lines[n], "#") {
		c, ok := strings.CutPrefix(lines[n], "# ")
		if !ok && lines[n] != "#" {
			return fail(n+1, "comment must start with \"# \"")
		}
		t.Comments = append(t.Comments, c)
		n++
	}
	header := []string{"Agentic-Text", "Profile", "Profile-Version", "Type", "Origin", "Name", "Description"}
	if t.Kind == "action" {
		header = []string{"Agentic-Text", "Profile", "Profile-Version", "Origin"}
	}
	for _, name := range header {
		if n >= len(lines) {
			return fail(n, "file ends before the %s line", name)
		}
		f, v, ok := strings.Cut(lines[n], ": ")
		if !ok || f != name {
			return fail(n+1, "expected the %s line", name)
		}
		var err error
		switch name {
		case "Agentic-Text":
			t.TextVersion = v
			ok := (t.Kind == "site" && (v == textVersion11 || v == textVersion12)) ||
				(t.Kind == "action" && (v == textVersion10 || v == textVersion12))
			if !ok {
				return fail(n+1, "unsupported Agentic-Text %q for a %s index", v, t.Kind)
			}
		case "Profile":
			t.Profile = v
		case "Profile-Version":
			t.ProfileVersion = v
		case "Type":
			t.Type = v
			if v != TypeSite {
				return fail(n+1, "Type must be site")
			}
		case "Origin":
			t.Origin = v
		case "Name":
			t.Name, err = unquoteOne(v)
		case "Description":
			t.Description, err = unquoteOne(v)
		}
		if err != nil {
			return fail(n+1, "%s: %v", name, err)
		}
		n++
	}
	if n >= len(lines) {
		return t, nil
	}
	if lines[n] != "" {
		return fail(n+1, "expected an empty line after the header")
	}
	n++
	for n < len(lines) {
		start := n
		for n < len(lines) && lines[n] != "" {
			n++
		}
		if start == n {
			return fail(n+1, "two empty lines in a row")
		}
		if err := t.record(lines[start:n], start+1); err != nil {
			return nil, err
		}
		n++ // the empty separator (or one past the end)
	}
	return t, nil
}

// record reads one record whose first line is number first.
func (t *TextIndex) record(lines []string, first int) error {
	fail := func(i int, format string, a ...any) error {
		return &TextSyntaxError{Line: first + i, Message: fmt.Sprintf(format, a...)}
	}
	field, value, ok := strings.Cut(lines[0], ": ")
	if !ok {
		return fail(0, "expected \"Field: value\"")
	}
	switch {
	case field == "Resource" && t.Kind == "site":
		vs, err := unquoteN(value, 2)
		if err != nil {
			return fail(0, "Resource: %v", err)
		}
		r := Resource{Kind: Kind(vs[0]), URL: vs[1]}
		a, ok := cutLine(lines, 1, "Availability: ")
		if !ok {
			return fail(1, "expected the Availability line")
		}
		r.Availability = Availability(a)
		s, ok := cutLine(lines, 2, "Source: ")
		if !ok {
			return fail(2, "expected the Source line")
		}
		if r.Source, err = unquoteOne(s); err != nil {
			return fail(2, "Source: %v", err)
		}
		rest := lines[3:]
		if len(rest) > 0 {
			if ti, ok := strings.CutPrefix(rest[0], "Title: "); ok {
				if r.Title, err = unquoteOne(ti); err != nil {
					return fail(3, "Title: %v", err)
				}
				rest = rest[1:]
			}
		}
		if err := t.unknown(rest, first+len(lines)-len(rest)); err != nil {
			return err
		}
		t.Resources = append(t.Resources, r)
	case field == "OpenAPI" && t.Kind == "site":
		d, err := unquoteOne(value)
		if err != nil {
			return fail(0, "OpenAPI: %v", err)
		}
		a := API{Document: d, Operations: []Operation{}}
		v, ok := cutLine(lines, 1, "OpenAPI-Version: ")
		if !ok {
			return fail(1, "expected the OpenAPI-Version line")
		}
		if a.OpenAPI, err = unquoteOne(v); err != nil {
			return fail(1, "OpenAPI-Version: %v", err)
		}
		for i := 2; i < len(lines); i++ {
			ov, ok := strings.CutPrefix(lines[i], "Operation: ")
			if !ok {
				return fail(i, "expected an Operation line")
			}
			vs, err := unquoteRange(ov, 2, 3)
			if err != nil {
				return fail(i, "Operation: %v", err)
			}
			o := Operation{Method: vs[0], Path: vs[1]}
			if len(vs) == 3 {
				o.OperationID = vs[2]
			}
			a.Operations = append(a.Operations, o)
		}
		t.APIs = append(t.APIs, a)
	case field == "Reference" && t.TextVersion == textVersion12:
		vs, err := unquoteN(value, 3)
		if err != nil {
			return fail(0, "Reference: %v", err)
		}
		r := Reference{Role: vs[0], Name: vs[1], URL: vs[2]}
		d, ok := cutLine(lines, 1, "Reference-Description: ")
		if !ok {
			return fail(1, "expected the Reference-Description line")
		}
		if r.Description, err = unquoteOne(d); err != nil {
			return fail(1, "Reference-Description: %v", err)
		}
		if err := t.unknown(lines[2:], first+2); err != nil {
			return err
		}
		t.References = append(t.References, r)
	case field == "Action" && t.Kind == "action":
		id, err := unquoteOne(value)
		if err != nil {
			return fail(0, "Action: %v", err)
		}
		d, ok := cutLine(lines, 1, "Description: ")
		if !ok {
			return fail(1, "expected the Description line")
		}
		a := TextAction{ID: id}
		if a.Description, err = unquoteOne(d); err != nil {
			return fail(1, "Description: %v", err)
		}
		if err := t.unknown(lines[2:], first+2); err != nil {
			return err
		}
		t.Actions = append(t.Actions, a)
	default:
		return fail(0, "unexpected %q record in a %s index", field, t.Kind)
	}
	return nil
}

// unknown keeps "Field: value" lines a later version might add to a record.
func (t *TextIndex) unknown(lines []string, first int) error {
	for i, l := range lines {
		f, v, ok := strings.Cut(l, ": ")
		if !ok || f == "" || strings.ContainsAny(f, " \"") {
			return &TextSyntaxError{Line: first + i, Message: "expected \"Field: value\""}
		}
		t.Unknown = append(t.Unknown, TextUnknown{Line: first + i, Field: f, Value: v})
	}
	return nil
}

// cutLine returns lines[i] without prefix, if there is such a line.
func cutLine(lines []string, i int, prefix string) (string, bool) {
	if i >= len(lines) {
		return "", false
	}
	return strings.CutPrefix(lines[i], prefix)
}

func unquoteOne(s string) (string, error) {
	vs, err := unquoteN(s, 1)
	if err != nil {
		return "", err
	}
	return vs[0], nil
}

func unquoteN(s string, n int) ([]string, error) { return unquoteRange(s, n, n) }

// unquoteRange reads between min and max JSON strings separated by single
// spaces, and nothing else.
func unquoteRange(s string, minN, maxN int) ([]string, error) {
	var out []string
	for {
		if len(out) == maxN {
			return nil, errors.New("too many quoted values")
		}
		v, rest, err := unquotePrefix(s)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		if rest == "" {
			break
		}
		if rest[0] != ' ' {
			return nil, errors.New("quoted values must be separated by one space")
		}
		s = rest[1:]
	}
	if len(out) < minN {
		return nil, fmt.Errorf("expected %d quoted values, found %d", minN, len(out))
	}
	return out, nil
}

// unquotePrefix reads one JSON string at the start of s.
func unquotePrefix(s string) (string, string, error) {
	if s == "" || s[0] != '"' {
		return "", "", errors.New("expected a quoted string")
	}
	escaped := false
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			escaped = true
			i++
		case '"':
			if !escaped { // fast path: no escapes, so only raw controls can be wrong
				for j := 1; j < i; j++ {
					if s[j] < 0x20 {
						return "", "", errors.New("invalid JSON string quoting")
					}
				}
				return s[1:i], s[i+1:], nil
			}
			var v string
			if err := json.Unmarshal([]byte(s[:i+1]), &v); err != nil {
				return "", "", errors.New("invalid JSON string quoting")
			}
			return v, s[i+1:], nil
		}
	}
	return "", "", errors.New("unterminated quoted string")
}

// Site rebuilds a site profile from a site index, for tools that only have
// the TXT: the records as listed, without operation summaries (which TXT
// omits) and without "$schema". The result is validated; an action index
// returns an error wrapping ErrActionProfile.
func (t *TextIndex) Site() (*Site, error) {
	if t.Kind != "site" {
		return nil, fmt.Errorf("%w: the TXT is an action index", ErrActionProfile)
	}
	s := &Site{
		Agentic: t.ProfileVersion, Type: t.Type, Origin: t.Origin, Name: t.Name, Description: t.Description,
		Resources: append([]Resource(nil), t.Resources...), APIs: append([]API(nil), t.APIs...),
	}
	if s.APIs == nil {
		s.APIs = []API{}
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

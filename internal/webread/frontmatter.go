package webread

import (
	"bytes"
	"errors"
	"strings"
)

// Bounds of the front matter reader.
const (
	maxFrontMatterLines = 64
	maxFrontMatterBytes = 8 << 10
)

// FrontMatterKeys are the only keys [ParseFrontMatter] reads. The
// agent-readiness scoring method asks a page's Markdown form for the canonical
// address, the last-modified date and the language (Section 04). Its example
// adds the title and description. An Agent Skills SKILL.md gives itself a name.
var FrontMatterKeys = map[string]bool{"title": true, "description": true, "canonical": true, "updated": true, "language": true, "name": true}

var (
	// ErrNoFrontMatter: the document does not start with a "---" line.
	ErrNoFrontMatter = errors.New("no front matter")
	// ErrFrontMatterNotClosed: the front matter does not end within 64
	// lines and 8 KiB.
	ErrFrontMatterNotClosed = errors.New("front matter not closed within 64 lines and 8 KiB")
)

// ParseFrontMatter reads the YAML-style front matter at the start of a
// Markdown document: a first line "---", then top-level "key: value" lines,
// then a line "---" (or "..."), within 64 lines and 8 KiB. It is not a YAML
// parser: it reads plain and quoted scalar values of [FrontMatterKeys] and
// skips everything else (indented lines, lists, comments). A key given twice
// keeps its first value and is returned in dups. A UTF-8 byte order mark is
// skipped; CRLF line ends are accepted.
func ParseFrontMatter(doc []byte) (fields map[string]string, dups []string, err error) {
	doc = bytes.TrimPrefix(doc, []byte("\xef\xbb\xbf"))
	if len(doc) > maxFrontMatterBytes {
		doc = doc[:maxFrontMatterBytes]
	}
	lines := strings.Split(string(doc), "\n")
	if len(lines) == 0 || strings.TrimRight(lines[0], " \t\r") != "---" {
		return nil, nil, ErrNoFrontMatter
	}
	fields = map[string]string{}
	for i := 1; i < len(lines) && i <= maxFrontMatterLines; i++ {
		line := strings.TrimRight(lines[i], " \t\r")
		if line == "---" || line == "..." {
			return fields, dups, nil
		}
		if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '#' || line[0] == '-' {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		k = strings.TrimSpace(k)
		if !FrontMatterKeys[k] {
			continue
		}
		if _, seen := fields[k]; seen {
			dups = append(dups, k)
			continue
		}
		fields[k] = scalar(v)
	}
	return nil, nil, ErrFrontMatterNotClosed
}

// scalar reads a YAML plain or quoted scalar on one line.
func scalar(v string) string {
	v = strings.TrimSpace(v)
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') {
		q := v[0]
		if i := strings.LastIndexByte(v, q); i > 0 {
			inner := v[1:i]
			if q == '\'' {
				return strings.ReplaceAll(inner, "''", "'")
			}
			return strings.ReplaceAll(inner, `\"`, `"`)
		}
	}
	if i := strings.Index(v, " #"); i >= 0 {
		v = strings.TrimSpace(v[:i])
	}
	return v
}

package readiness

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

// frontMatterKeys are the only keys read (readiness-method.md §04: the
// canonical address, the last-modified date and the language, and the title
// and description of its example). Every other key is skipped.
var frontMatterKeys = map[string]bool{"title": true, "description": true, "canonical": true, "updated": true, "language": true}

var errNoFrontMatter = errors.New("no front matter")

// parseFrontMatter reads the YAML-style front matter at the start of a
// Markdown document: a first line "---", then top-level "key: value" lines,
// then a line "---" (or "..."), within 64 lines and 8 KiB. It is not a YAML
// parser: it reads plain and quoted scalar values of the keys it knows and
// skips everything else (indented lines, lists, comments). A key given twice
// keeps its first value and is returned in dups.
func parseFrontMatter(doc []byte) (fields map[string]string, dups []string, err error) {
	doc = bytes.TrimPrefix(doc, []byte("\xef\xbb\xbf"))
	if len(doc) > maxFrontMatterBytes {
		doc = doc[:maxFrontMatterBytes]
	}
	lines := strings.Split(string(doc), "\n")
	if len(lines) == 0 || strings.TrimRight(lines[0], " \t\r") != "---" {
		return nil, nil, errNoFrontMatter
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
		if !frontMatterKeys[k] {
			continue
		}
		if _, seen := fields[k]; seen {
			dups = append(dups, k)
			continue
		}
		fields[k] = scalar(v)
	}
	return nil, nil, errors.New("front matter not closed within 64 lines and 8 KiB")
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

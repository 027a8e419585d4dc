package problemtest

import (
	"testing"

	"github.com/agentweb/agentweb/internal/problem"
)

// sectionProbes are documents that reach each layer of a parser: strict
// JSON (a duplicate member, a cut document), the schema (a wrong type) and
// the semantic rules (a URL with userinfo over plain http).
var sectionProbes = []string{
	`{"a": 1, "a": 2}`,
	`{"a": 1`,
	`[]`,
	`{"name": 7, "url": "http://u:p@x"}`,
}

// EveryRuleCitesASection fails t when a Rule constant of the package in
// dir is not a key of its section table (see [RulesWithoutSection]). It
// also fails t when a problem or warning has no section. It checks what
// parse reports for a document reaching each layer of the parser.
func EveryRuleCitesASection(t *testing.T, dir, table string, parse func([]byte) error) {
	t.Helper()
	missing, err := RulesWithoutSection(dir, table)
	if err != nil {
		t.Fatal(err)
	}
	if len(missing) > 0 {
		t.Errorf("Rule constants without a section: %v", missing)
	}
	for _, doc := range sectionProbes {
		ve := problem.As(parse([]byte(doc)))
		if ve == nil {
			t.Errorf("%s: no *ValidationError", doc)
			continue
		}
		for _, p := range append(ve.Problems, ve.Warnings...) {
			if p.Section == "" {
				t.Errorf("%s: %s has no section", doc, p)
			}
		}
	}
}

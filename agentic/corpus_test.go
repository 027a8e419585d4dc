package agentic

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// generatedCorpus returns the corpus documents at and over the count and
// size limits. The test builds them from testdata/valid/shop.json rather
// than committing them: each is tens or hundreds of kilobytes of
// repetition. The
// names follow the corpus convention: a valid document is named by its
// case, an invalid one RULE__case, and an invalid one must give exactly
// that rule.
func generatedCorpus(t testing.TB) (valid, invalid map[string][]byte) {
	t.Helper()
	seed := func() *Site {
		s, err := ParseSite(readFile(t, "testdata/valid/shop.json"))
		require.NoError(t, err)
		return s
	}
	const origin = "https://shop.example"
	valid, invalid = map[string][]byte{}, map[string][]byte{}

	// Every length at its limit, counted in code points: two-byte name,
	// three-byte description, four-byte summaries.
	s := seed()
	s.Name = strings.Repeat("ñ", maxNameLength)
	s.Description = strings.Repeat("€", maxDescriptionLength)
	s.APIs[0].Operations = nil
	for i := range 40 {
		s.APIs[0].Operations = append(s.APIs[0].Operations, Operation{Method: "GET", Path: fmt.Sprintf("/p/%d", i), Summary: strings.Repeat("😀", maxSummaryLength)})
	}
	valid["limits-in-code-points"] = s.compact()

	// One resource over the limit of 40.
	s = seed()
	for i := 0; len(s.Resources) <= maxResources; i++ {
		s.Resources = append(s.Resources, Resource{Kind: KindDocumentation, URL: fmt.Sprintf("%s/d%d", origin, i), Source: origin + "/", Availability: AvailabilityLinked})
	}
	invalid[RuleSchemaPrefix+"maxItems__41-resources"] = s.compact()

	// One operation over the limit of 160.
	s = seed()
	s.APIs[0].Operations = nil
	for i := range maxOperations + 1 {
		s.APIs[0].Operations = append(s.APIs[0].Operations, Operation{Method: "GET", Path: fmt.Sprintf("/p%d", i)})
	}
	invalid[RuleSchemaPrefix+"maxItems__161-operations"] = s.compact()

	// Every count and length within its limit, the whole over 64 KiB.
	s = seed()
	s.Resources, s.APIs = nil, nil
	for i := range maxResources {
		s.Resources = append(s.Resources, Resource{Kind: KindOpenAPI, URL: fmt.Sprintf("%s/openapi%d.json", origin, i), Source: origin + "/",
			Availability: AvailabilityRetrieved, Title: strings.Repeat("T", maxTitleLength)})
	}
	for a := range maxAPIs {
		api := API{Document: fmt.Sprintf("%s/openapi%d.json", origin, a), OpenAPI: "3.1.0"}
		for i := range maxOperations {
			api.Operations = append(api.Operations, Operation{Method: "GET", Path: fmt.Sprintf("/items/%d", i), Summary: strings.Repeat("S", maxSummaryLength)})
		}
		s.APIs = append(s.APIs, api)
	}
	b := s.compact()
	require.Greater(t, len(b), maxProfileBytes)
	invalid[RuleProfileSize+"__over-64k"] = b
	return valid, invalid
}

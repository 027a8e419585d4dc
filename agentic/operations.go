package agentic

import (
	"fmt"
	"strings"

	"github.com/agentweb/agentweb/internal/plural"
)

// buildAPIs copies the operation index of every retrieved OpenAPI resource.
func (s *scan) buildAPIs(site *Site) {
	for _, r := range site.Resources {
		if r.Kind != KindOpenAPI {
			continue
		}
		if r.Availability != AvailabilityRetrieved {
			s.report.Bindings = append(s.report.Bindings, BindingCheck{Document: r.URL, Status: BindingStatusNotRetrieved, Reason: "the OpenAPI document was linked but not read, so no operation index is built"})
			continue
		}
		doc := s.openapi[r.URL]
		if doc == nil {
			continue
		}
		ptr := idx("/apis", len(site.APIs))
		if len(site.APIs) == maxAPIs {
			s.report.Truncations = append(s.report.Truncations, Truncation{Pointer: "/apis", Reason: "the profile holds at most 5 OpenAPI indexes; " + r.URL + " was not indexed", Dropped: 1})
			s.report.Bindings = append(s.report.Bindings, BindingCheck{Document: r.URL, Status: BindingStatusNotChecked, Reason: "over the limit of 5 indexes"})
			continue
		}
		version := doc.version
		if len([]rune(version)) > maxOpenAPIVersionLength {
			s.report.Bindings = append(s.report.Bindings, BindingCheck{Document: r.URL, Status: BindingStatusNotOpenAPI3, Reason: "the openapi version string is over 32 characters"})
			continue
		}
		api := API{Document: r.URL, OpenAPI: version, Operations: []Operation{}}
		type key struct{ m, p string }
		seen := map[key]bool{}
		skipped, cutSummaries, droppedIDs, over := 0, 0, 0, 0
		for _, ro := range doc.ops {
			if !validMethod(ro.method) || pathProblem(ro.path) != "" || len([]rune(ro.path)) > maxPathLength || seen[key{ro.method, ro.path}] {
				skipped++
				continue
			}
			if len(api.Operations) == maxOperations {
				over++
				continue
			}
			seen[key{ro.method, ro.path}] = true
			op := Operation{Method: ro.method, Path: ro.path}
			if ro.operationID != nil {
				if n := len([]rune(*ro.operationID)); n >= 1 && n <= maxOperationIDLength {
					op.OperationID = *ro.operationID
				} else {
					droppedIDs++
				}
			} else if ro.operationIDNotText {
				droppedIDs++
			}
			if ro.summary != nil {
				sum := strings.TrimSpace(*ro.summary)
				if len([]rune(sum)) > maxSummaryLength {
					sum = cutRunes(sum, maxSummaryLength)
					cutSummaries++
				}
				op.Summary = sum
			}
			api.Operations = append(api.Operations, op)
		}
		if over > 0 {
			s.report.Truncations = append(s.report.Truncations, Truncation{Pointer: ptr + "/operations", Reason: fmt.Sprintf("%s documents %d operations; the index holds the first %d", r.URL, len(api.Operations)+over, maxOperations), Dropped: over})
		}
		if skipped > 0 {
			s.report.Truncations = append(s.report.Truncations, Truncation{Pointer: ptr + "/operations", Reason: fmt.Sprintf("%s of %s %s left out: their method or path breaks the index rules, or repeats a method and path", plural.N(skipped, "operation", "operations"), r.URL, wasWere(skipped)), Dropped: skipped})
		}
		if cutSummaries > 0 {
			s.report.Truncations = append(s.report.Truncations, Truncation{Pointer: ptr + "/operations", Reason: fmt.Sprintf("%s %s shortened to %d characters", plural.N(cutSummaries, "summary", "summaries"), wasWere(cutSummaries), maxSummaryLength)})
		}
		if droppedIDs > 0 {
			s.report.Truncations = append(s.report.Truncations, Truncation{Pointer: ptr + "/operations", Reason: fmt.Sprintf("%s could not be copied verbatim (not a string of 1 to 160 characters) and %s left out, not invented", plural.N(droppedIDs, "operationId value", "operationId values"), wasWere(droppedIDs))})
		}
		s.report.Bindings = append(s.report.Bindings, BindingCheck{Document: r.URL, Status: BindingStatusIndexed, Reason: plural.N(len(api.Operations), "operation", "operations") + " indexed"})
		site.APIs = append(site.APIs, api)
	}
}

// wasWere is the verb that agrees with a count of n.
func wasWere(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

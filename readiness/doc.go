// Package readiness scores how ready a website is for AI agents, by the
// agent-readiness method version 1.2 (readiness-method.md) and this project's
// check catalogue (readiness-checks.md), and renders the result with evidence
// for every verdict.
//
// # Method
//
// A site is graded in six sections worth 100 points in all (method §02):
// Discover 15, Understand 15, Read 20, Act 20, Connect 20 and Trust 10. Each
// section holds checks with weights that add up to its points; ten of them
// prove the requirements R1–R10 that decide whether a site is ready (§03).
// The whole catalogue is data: see [Catalogue], [Sections] and [Requirements].
//
// # Verdicts and scoring
//
// A check lands as [Pass] (credit 1), [Partial] (0.5), [Fail] (0),
// [Optional] (optional conventions only, weight 0), [NotApplicable] (the
// check leaves its section's denominator) or [Unverified] (the probe could
// not be answered: a refusal, a timeout, a redirect that never ends, an
// exhausted budget). Unverified is never a pass and never a fail: it keeps its
// weight, earns nothing and is listed apart (method §06).
//
// A section's score is its points × Σ(credit × weight) / Σ(weight of its
// applicable checks); a section with no applicable check leaves the total's
// denominator. The total is 100 × Σ section scores / Σ points of the sections
// scored. The site is ready when all ten requirements are met, each by a pass
// or a not-applicable verdict of its checks; R10 needs both of its checks.
// [Compose] applies these rules to any set of check results.
//
// # What this scanner runs
//
// The engine runs the checks it has an implementation for ([Implemented]).
// A catalogue check with no implementation is never scored and never
// silently passes: it is listed in the report's [Scope] as not scanned, a
// section none of whose checks ran leaves the total's denominator (so the
// total is the score over the sections that were scanned, and the report says
// which), and a requirement that depends on an unscanned check has the status
// "not_scanned" and is not met, so such a report never claims a site is
// ready. This release runs the Discover, Understand and Read sections; Act,
// Connect, Trust and the optional conventions are catalogued and reported as
// not scanned.
//
// # Evidence
//
// Every check carries a [Receipt] (method §05): the requests it relied on
// (method, URL and only the request headers that change the answer), what
// was expected, what was received (status, media type, the relevant response
// headers and a short summary of the body), and notes. Credentials are never
// sent and never recorded. Every finding names the routes it was read from,
// and the routes the scan read travel with the report (§07, "findings state
// their scope").
//
// # One result, three forms
//
// A [Report] is one value. [Report.JSON] is the canonical form with the field
// names of readiness-checks.md; [Report.Markdown] and [Report.HTML] render the
// same numbers for people. The HTML page is self-contained (inline CSS and
// SVG only) and readable with scripts off and on paper.
package readiness

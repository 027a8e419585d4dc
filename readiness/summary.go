package readiness

import (
	"maps"
	"math"
	"slices"
	"strings"
	"time"
)

// Summary is the compact form of a [Report], for trends over many runs and many
// sites. It holds the score, readiness, the requirements not met, the section
// scores and the state of every check. [Report.Summary] makes one;
// [CompareSummaries] compares two; [Summary.Badge] draws one. A JSON Lines file
// of summaries is a site's history.
type Summary struct {
	Method    string    `json:"method"`
	Site      string    `json:"site"`
	ScannedAt time.Time `json:"scanned_at"`
	Score     float64   `json:"score"`
	Ready     bool      `json:"ready"`
	// Unmet lists the ids of the requirements not met, R1 first; empty when
	// the site is ready.
	Unmet []string `json:"unmet"`
	// Sections holds the score of every scored section by id; a section
	// that left the denominator (every check not applicable) is absent.
	Sections map[SectionID]float64 `json:"sections"`
	// Checks holds the state of every check by id: its verdict, or unverified.
	// An optional convention is "found" or "absent" instead: its verdict is
	// always optional, and what changes is whether the document is there.
	Checks map[string]string `json:"checks"`
}

// The states of an optional convention in a [Summary].
const (
	stateFound  = "found"
	stateAbsent = "absent"
)

// checkState is a check's state in a summary: its verdict, or for an
// optional convention found or absent, read from its receipt (every
// optional check says "found" or "absent" first).
func checkState(c CheckResult) string {
	if c.Verdict != VerdictOptional {
		return string(c.Verdict)
	}
	if strings.HasPrefix(c.Receipt.Received, stateFound) {
		return stateFound
	}
	return stateAbsent
}

// unmet lists the ids of the requirements not met, R1 first; empty, never
// nil, when the site is ready.
func (r *Report) unmet() []string {
	out := []string{}
	for _, q := range r.Requirements {
		if !q.Met {
			out = append(out, q.ID)
		}
	}
	return out
}

// Summary returns the compact form of the report.
func (r *Report) Summary() *Summary {
	s := &Summary{
		Method: r.Method, Site: r.Site, ScannedAt: r.ScannedAt, Score: r.Score, Ready: r.Ready,
		Unmet:    r.unmet(),
		Sections: make(map[SectionID]float64, len(r.Sections)),
		Checks:   make(map[string]string, len(r.Checks)),
	}
	for _, sec := range r.Sections {
		if sec.Scored {
			s.Sections[sec.ID] = sec.Score
		}
	}
	for _, c := range r.Checks {
		s.Checks[c.ID] = checkState(c)
	}
	return s
}

// Comparison is what changed between two runs of a site ([Compare],
// [CompareSummaries]): the total and every section in points, readiness, and
// every check whose state changed, in either direction. Pass, not
// applicable and an optional convention's found or absent are told apart:
// a pass that became not applicable, or an optional document that vanished,
// is a change.
type Comparison struct {
	Site string `json:"site"`
	// From and To are when the old and the new run were scanned.
	From time.Time `json:"from"`
	To   time.Time `json:"to"`
	// Before and After are the two totals; Delta is After − Before, in
	// points of the 100, the unit of the section scores.
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	Delta  float64 `json:"delta"`
	// Sections holds every section's delta in points, by id; a section not
	// scored in a run counts 0 there.
	Sections map[SectionID]float64 `json:"sections"`
	// ReadyBefore and ReadyAfter are the two runs' readiness.
	ReadyBefore bool `json:"ready_before"`
	ReadyAfter  bool `json:"ready_after"`
	// Changes lists every check whose state changed, in catalogue order.
	Changes []CheckChange `json:"changes"`
	// Worse is true when at least one check got worse: what a CI gate
	// fails on.
	Worse bool `json:"worse"`
}

// CheckChange is one check whose state changed between two runs.
type CheckChange struct {
	Check       string `json:"check"`
	Requirement string `json:"requirement,omitempty"`
	// From and To are the states of the check in the old and the new run, as in
	// [Summary].Checks. Each is a verdict, or found or absent for an optional
	// convention. It is "" when a run did not have the check.
	From string `json:"from"`
	To   string `json:"to"`
	// Direction is "worse", "better" or "sideways". A scored check ranks pass
	// and not_applicable above partial, since both meet a requirement. Partial
	// ranks above unverified, and unverified, which may still pass, above fail.
	// An optional convention ranks found above unverified above absent. A
	// change between two states of one rank (pass and not_applicable) is
	// sideways.
	Direction string `json:"direction"`
}

// The directions of a [CheckChange].
const (
	directionWorse    = "worse"
	directionBetter   = "better"
	directionSideways = "sideways"
)

// stateRank orders a check's states for the direction of a change.
func stateRank(s string) int {
	switch s {
	case string(VerdictPass), string(VerdictNotApplicable), stateFound:
		return 3
	case string(VerdictPartial):
		return 2
	case string(VerdictUnverified):
		return 1
	}
	return 0
}

// Compare returns what changed from the old report to the new one: the
// score and section deltas, readiness, and every check whose state
// changed, both ways. It is [CompareSummaries] of the two reports'
// summaries.
func Compare(old, new *Report) *Comparison {
	return CompareSummaries(old.Summary(), new.Summary())
}

// CompareSummaries returns what changed from the old summary to the new
// one (see [Comparison]). Checks are compared by id, in catalogue order; a
// check only one of the two has is a change from or to "".
func CompareSummaries(old, new *Summary) *Comparison {
	c := &Comparison{
		Site: new.Site, From: old.ScannedAt, To: new.ScannedAt,
		Before: old.Score, After: new.Score, Delta: new.Score - old.Score,
		Sections:    make(map[SectionID]float64, len(sectionTable)),
		ReadyBefore: old.Ready, ReadyAfter: new.Ready,
		Changes: []CheckChange{},
	}
	for _, s := range sectionTable {
		c.Sections[s.ID] = new.Sections[s.ID] - old.Sections[s.ID]
	}
	ids := make([]string, 0, len(catalogueTable))
	for _, row := range catalogueTable {
		spec := row.spec
		ids = append(ids, spec.ID)
	}
	// Checks outside the catalogue (a summary of another version) follow.
	extra := map[string]bool{}
	for id := range maps.Keys(old.Checks) {
		extra[id] = true
	}
	for id := range maps.Keys(new.Checks) {
		extra[id] = true
	}
	for _, id := range ids {
		delete(extra, id)
	}
	ids = append(ids, slices.Sorted(maps.Keys(extra))...)
	for _, id := range ids {
		from, to := old.Checks[id], new.Checks[id]
		if from == to {
			continue
		}
		ch := CheckChange{Check: id, From: from, To: to, Direction: directionSideways}
		if spec, ok := specOf(id); ok {
			ch.Requirement = spec.Requirement
		}
		switch rf, rt := stateRank(from), stateRank(to); {
		case from == "" || to == "":
		case rt < rf:
			ch.Direction = directionWorse
			c.Worse = true
		case rt > rf:
			ch.Direction = directionBetter
		}
		c.Changes = append(c.Changes, ch)
	}
	return c
}

// signed formats a delta with its sign and one decimal: +2.5, −1.0, ±0.0.
func signed(f float64) string {
	f = math.Round(f*10) / 10
	switch {
	case f > 0:
		return "+" + oneDecimal(f)
	case f < 0:
		return "−" + oneDecimal(-f)
	}
	return "±0.0"
}

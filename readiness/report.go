package readiness

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// Report is the one result of a scan (readiness-method.md §07, "one result,
// three forms"). [Report.JSON], [Report.Markdown] and [Report.HTML] are
// renderings of it and show the same checks, verdicts, earned points, section
// scores, total, requirements and scope.
//
// The JSON field names are those of readiness-checks.md, "The JSON form"; the
// fields appear in the order of this struct.
type Report struct {
	// Method is the version of the scoring method, "1.2".
	Method string `json:"method"`
	// Site is the page the scan started from.
	Site string `json:"site"`
	// ScannedAt is when the scan started (Options.Now), in UTC.
	ScannedAt time.Time `json:"scanned_at"`
	// Ready is true when all ten requirements are met.
	Ready bool `json:"ready"`
	// Score is the total: 100 × Σ section scores / Σ points of the sections
	// that entered the denominator. It is exact here; renderings show one decimal.
	Score float64 `json:"score"`
	// Possible is the scale of Score, always 100.
	Possible float64 `json:"possible"`
	// Sections holds the six sections in method order.
	Sections []SectionResult `json:"sections"`
	// Requirements holds R1–R10.
	Requirements []RequirementResult `json:"requirements"`
	// Checks holds every check that ran, in catalogue order.
	Checks []CheckResult `json:"checks"`
	// Unverified lists the ids of the checks whose verdict is unverified,
	// listed apart as the method asks (§06).
	Unverified []string `json:"unverified"`
	// Scope says what the scan read and what it did not run.
	Scope Scope `json:"scope"`
}

// SectionResult is one section's score.
type SectionResult struct {
	ID     SectionID `json:"id"`
	Title  string    `json:"title"`
	Points float64   `json:"points"`
	Score  float64   `json:"score"`
	// Scored is false when the section left the total's denominator: none of
	// its checks ran, or every check that ran was not applicable.
	Scored bool `json:"scored"`
	// Checks lists the ids of the checks of this section that ran.
	Checks []string `json:"checks"`
	// NotScanned lists the catalogue checks of this section that this scanner
	// does not run; they are not scored.
	NotScanned []string `json:"not_scanned,omitempty"`
}

// RequirementResult says whether one of R1–R10 is met, and why.
type RequirementResult struct {
	ID   string `json:"id"`
	Text string `json:"text"`
	Met  bool   `json:"met"`
	// Status is "pass" or "not_applicable" when met; otherwise the worst
	// verdict of its checks ("fail", "unverified", "partial"), or
	// "not_scanned" when a check it needs was not run.
	Status string   `json:"status"`
	Checks []string `json:"checks"`
	Why    string   `json:"why"`
}

// CheckResult is one check's verdict and receipt.
type CheckResult struct {
	ID          string    `json:"id"`
	Title       string    `json:"title"`
	Section     SectionID `json:"section"`
	Requirement string    `json:"requirement,omitempty"`
	Weight      float64   `json:"weight"`
	Verdict     Verdict   `json:"verdict"`
	// Earned is weight × credit, in the check's own weight units.
	Earned float64 `json:"earned"`
	// Scope lists the routes the finding was read from.
	Scope   []string `json:"scope"`
	Receipt Receipt  `json:"receipt"`
}

// Receipt is the evidence behind a verdict (readiness-method.md §05): the
// requests relied on, what was expected, what was received, and notes.
type Receipt struct {
	Requests []RequestRecord `json:"requests"`
	Expected string          `json:"expected"`
	Received string          `json:"received"`
	Notes    []string        `json:"notes,omitempty"`
	// MCP is the MCP probe's receipt (method §05), on mcp_discovery only.
	MCP *MCPReceipt `json:"mcp,omitempty"`
}

// RequestRecord is one request a check relied on and what came back. Only the
// request headers that change the answer are kept (Accept,
// MCP-Protocol-Version, Mcp-Session-Id); credentials are never recorded.
type RequestRecord struct {
	Method  string            `json:"method"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers,omitempty"`
	// Response is nil when no response arrived; Error then says why.
	Response *ResponseRecord `json:"response,omitempty"`
	Error    string          `json:"error,omitempty"`
}

// ResponseRecord summarises a response: status, media type, the response
// headers that matter to the checks, and a short summary of the body.
type ResponseRecord struct {
	Status    int               `json:"status"`
	FinalURL  string            `json:"final_url,omitempty"`
	MediaType string            `json:"media_type,omitempty"`
	Headers   map[string]string `json:"headers,omitempty"`
	Bytes     int               `json:"bytes"`
	Body      string            `json:"body,omitempty"`
}

// Scope records what the scan read (readiness-method.md §07, "findings state
// their scope") and what it spent.
type Scope struct {
	// Routes are the pages the scan actually read, the given page first.
	Routes []string `json:"routes"`
	// Sections lists the sections that have at least one check that ran.
	Sections []SectionID `json:"sections"`
	// NotScanned lists the catalogue checks this scanner did not run.
	NotScanned []string  `json:"not_scanned"`
	Budget     BudgetUse `json:"budget"`
}

// BudgetUse is what the scan spent of its budget (readiness-checks.md, "Scope
// and budget").
type BudgetUse struct {
	Attempts        int    `json:"attempts"`
	Bytes           int64  `json:"bytes"`
	PeakConcurrency int    `json:"peak_concurrency"`
	Exhausted       string `json:"exhausted,omitempty"`
	MaxAttempts     int    `json:"max_attempts"`
	MaxBytes        int64  `json:"max_bytes"`
}

// ErrInvalidReport is returned by [Compose] when a check result does not fit
// the catalogue. Every such error wraps it.
var ErrInvalidReport = errors.New("readiness: invalid report")

// Compose builds a [Report] from check results: it fills each result's title,
// section, requirement, weight and earned points from the catalogue, and
// computes section scores, the total, the requirements and Ready exactly as
// the Scoring section of readiness-checks.md says. Results may come in any
// order; they are sorted into catalogue order. A check id outside the
// catalogue, a repeated id or an invalid verdict is an error wrapping
// [ErrInvalidReport]. Catalogue checks without a result are recorded as not
// scanned.
func Compose(site string, scannedAt time.Time, results []CheckResult, scope Scope) (*Report, error) {
	byID := make(map[string]CheckResult, len(results))
	for _, r := range results {
		spec, ok := specOf(r.ID)
		if !ok {
			return nil, fmt.Errorf("%w: unknown check %q", ErrInvalidReport, r.ID)
		}
		if _, dup := byID[r.ID]; dup {
			return nil, fmt.Errorf("%w: check %q appears twice", ErrInvalidReport, r.ID)
		}
		if !r.Verdict.Valid() {
			return nil, fmt.Errorf("%w: check %q has verdict %q", ErrInvalidReport, r.ID, r.Verdict)
		}
		if spec.Optional != (r.Verdict == VerdictOptional) && r.Verdict != VerdictUnverified {
			return nil, fmt.Errorf("%w: check %q: verdict %q does not fit its kind", ErrInvalidReport, r.ID, r.Verdict)
		}
		r.Title, r.Section, r.Requirement, r.Weight = spec.Title, spec.Section, spec.Requirement, spec.Weight
		r.Earned = r.Weight * r.Verdict.Credit()
		if r.Scope == nil {
			r.Scope = []string{}
		}
		if r.Receipt.Requests == nil {
			r.Receipt.Requests = []RequestRecord{}
		}
		byID[r.ID] = r
	}

	rep := &Report{
		Method:       MethodVersion,
		Site:         site,
		ScannedAt:    scannedAt.UTC(),
		Possible:     100,
		Checks:       []CheckResult{},
		Unverified:   []string{},
		Sections:     []SectionResult{},
		Requirements: []RequirementResult{},
	}
	rep.Scope = scope
	rep.Scope.Sections = []SectionID{}
	rep.Scope.NotScanned = []string{}
	if rep.Scope.Routes == nil {
		rep.Scope.Routes = []string{}
	}
	for _, spec := range catalogueTable {
		r, ok := byID[spec.ID]
		if !ok {
			rep.Scope.NotScanned = append(rep.Scope.NotScanned, spec.ID)
			continue
		}
		rep.Checks = append(rep.Checks, r)
		if r.Verdict == VerdictUnverified {
			rep.Unverified = append(rep.Unverified, r.ID)
		}
	}

	var earnedPoints, possiblePoints float64
	for _, sec := range sectionTable {
		sr := SectionResult{ID: sec.ID, Title: sec.Title, Points: sec.Points, Checks: []string{}}
		var num, den float64
		for _, spec := range catalogueTable {
			if spec.Section != sec.ID {
				continue
			}
			r, ok := byID[spec.ID]
			if !ok {
				sr.NotScanned = append(sr.NotScanned, spec.ID)
				continue
			}
			sr.Checks = append(sr.Checks, spec.ID)
			if r.Verdict.counts() {
				num += r.Verdict.Credit() * r.Weight
				den += r.Weight
			}
		}
		if len(sr.Checks) > 0 {
			rep.Scope.Sections = append(rep.Scope.Sections, sec.ID)
		}
		if den > 0 {
			sr.Scored = true
			sr.Score = sec.Points * num / den
			earnedPoints += sr.Score
			possiblePoints += sec.Points
		}
		rep.Sections = append(rep.Sections, sr)
	}
	if possiblePoints > 0 {
		rep.Score = 100 * earnedPoints / possiblePoints
	}

	rep.Ready = true
	for _, req := range requirementTable {
		rr := judgeRequirement(req, byID)
		if !rr.Met {
			rep.Ready = false
		}
		rep.Requirements = append(rep.Requirements, rr)
	}
	return rep, nil
}

func judgeRequirement(req Requirement, byID map[string]CheckResult) RequirementResult {
	rr := RequirementResult{ID: req.ID, Text: req.Text, Checks: slices.Clone(req.Checks)}
	var missing, unmet []string
	worst := Verdict("")
	allNA := true
	for _, id := range req.Checks {
		r, ok := byID[id]
		if !ok {
			missing = append(missing, id)
			continue
		}
		if r.Verdict != VerdictNotApplicable {
			allNA = false
		}
		if r.Verdict.meets() {
			continue
		}
		if worst == "" || r.Verdict.severity() > worst.severity() {
			worst = r.Verdict
		}
		why := fmt.Sprintf("%s: %s", id, r.Verdict)
		if s := strings.TrimSpace(r.Receipt.Received); s != "" {
			why += " (" + s + ")"
		}
		unmet = append(unmet, why)
	}
	switch {
	case len(missing) > 0:
		rr.Status = "not_scanned"
		rr.Why = "this scanner does not run " + strings.Join(missing, " and ")
		if len(unmet) > 0 {
			rr.Why += "; " + strings.Join(unmet, "; ")
		}
	case len(unmet) > 0:
		rr.Status = string(worst)
		rr.Why = strings.Join(unmet, "; ")
	default:
		rr.Met = true
		if allNA {
			rr.Status = string(VerdictNotApplicable)
			rr.Why = "does not apply: " + strings.Join(req.Checks, " and ") + " not applicable"
		} else {
			rr.Status = string(VerdictPass)
			rr.Why = strings.Join(req.Checks, " and ") + " passed"
		}
	}
	return rr
}

// oneDecimal formats a score the way every rendering shows it.
func oneDecimal(f float64) string {
	return fmt.Sprintf("%.1f", math.Round(f*10)/10)
}

// points formats a weight or earned value: whole numbers without decimals,
// halves with one.
func points(f float64) string {
	if f == math.Trunc(f) {
		return fmt.Sprintf("%.0f", f)
	}
	return oneDecimal(f)
}

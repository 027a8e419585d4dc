package readiness

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// Report is the one result of a scan (the agent-readiness scoring method,
// Section 07, "one result, three forms"). [Report.JSON], [Report.Markdown] and [Report.HTML] are
// renderings of it and show the same checks, verdicts, earned points, section
// scores, total, requirements and scope.
//
// The JSON form uses snake_case field names, as every result type of this
// module does. The fields appear in the order of this struct. Section ids and
// verdicts are spelled as their constants are. Fields may be added, but none is
// renamed.
type Report struct {
	// Method is the version of the scoring method, "1.2".
	Method string `json:"method"`
	// Site is the page the scan started from, normalized as
	// [safefetch.NormalizeURL] does: lower-case scheme and host, IDNA A-labels,
	// no trailing dot, no default port, no fragment. Every spelling of one URL
	// gives the same Site, routes and score.
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
	// Earned is the sum of the section scores, in the sections' points.
	Earned float64 `json:"earned"`
	// Applicable is the points of the sections that entered the denominator. It
	// is 100 less the points of every section none of whose checks applies (the
	// scoring method, Section 02: "checks that cannot apply to your site leave
	// the denominator"). Score is 100 × Earned / Applicable. So a report whose
	// Connect section does not apply reads "Score 75.0: 60.0 of the 80 points
	// that apply".
	Applicable float64 `json:"applicable"`
	// Fixes is the fix-first list. It holds every check that leaves points and
	// that the site can make pass: a partial, fail or unverified verdict on a
	// check with weight. It is ordered by the points a fix would add, then by
	// requirement (R1 first, checks without one last), then in catalogue order.
	// mcp_tested_execution is never in it: the scanner never executes a tool,
	// so no change of the site's makes it pass (the scoring method, Section
	// 07). It is never nil.
	Fixes []FixItem `json:"fixes"`
	// Sections holds the six sections in method order.
	Sections []SectionResult `json:"sections"`
	// Requirements holds R1–R10.
	Requirements []RequirementResult `json:"requirements"`
	// Checks holds every check that ran, in catalogue order.
	Checks []CheckResult `json:"checks"`
	// Observations are facts beyond the method's checks that other scanners
	// report (see [Observation]), in the order of [ObservationIDs]. They
	// change no verdict, section, requirement or score. Empty when the scan
	// made none ([Options].NoObservations, or a report built by [Compose]).
	Observations []Observation `json:"observations"`
	// Unverified lists the ids of the checks whose verdict is unverified,
	// listed apart as the agent-readiness scoring method asks (Section 06).
	Unverified []string `json:"unverified"`
	// Scope says what the scan read and what it did not run.
	Scope Scope `json:"scope"`
	// Trend holds earlier runs of the same site ([Summary]), oldest first.
	// Every form draws the site's trend from them with this run as the last
	// point, and the change since the run before it. A scan never sets it:
	// the caller does, from a history it keeps (the readiness command's
	// -history file, a service's store).
	Trend []Summary `json:"trend,omitempty"`
	// Baseline is what changed since a baseline run ([Compare]). The caller
	// sets it as it sets Trend (the readiness command's -baseline). Every form
	// shows the score delta and each check that changed.
	Baseline *Comparison `json:"baseline,omitempty"`
}

// FixItem is one entry of the fix-first list ([Report].Fixes).
type FixItem struct {
	// Check is the id of the check; every form of the report links it to
	// the check's receipt.
	Check string `json:"check"`
	// Requirement is the check's requirement (R1–R10), or "" when it has none.
	Requirement string `json:"requirement,omitempty"`
	// Points is what the fix adds to Earned, in the same points as the
	// sections' scores. It is the section points the report would gain if this
	// check alone passed. It counts what passing brings by the method's rules:
	// a live backend interface makes mcp_tested_execution count, unverified, in
	// Connect. A fix that brings a section into the denominator adds its points
	// to Applicable too.
	Points float64 `json:"points"`
	// Fix is the check's fix ([CheckResult].Fix).
	Fix string `json:"fix"`
	// Prompt is the fix as a self-contained instruction for a coding agent, in
	// Markdown. It names the site and the check. It quotes, as data, what the
	// scan requested and received: each URL, status, media type or error, and
	// what was found missing. It says what passes and what to do. It lists the
	// published texts to follow with their addresses, and how to confirm.
	// [Report.Prompt] joins the prompts of the list into one message.
	Prompt string `json:"prompt"`
}

// SectionResult is one section's score.
type SectionResult struct {
	ID     SectionID `json:"id"`
	Title  string    `json:"title"`
	Points float64   `json:"points"`
	Score  float64   `json:"score"`
	// Scored is false when the section left the total's denominator: every
	// one of its checks was not applicable.
	Scored bool `json:"scored"`
	// Checks lists the ids of the checks of this section, in catalogue order.
	Checks []string `json:"checks"`
}

// RequirementResult says whether one of R1–R10 is met, and why.
type RequirementResult struct {
	ID   string `json:"id"`
	Text string `json:"text"`
	Met  bool   `json:"met"`
	// Status is [RequirementStatusPass] or [RequirementStatusNotApplicable]
	// when met; otherwise the worst verdict of its checks
	// ([RequirementStatusFail], [RequirementStatusUnverified],
	// [RequirementStatusPartial]).
	Status RequirementStatus `json:"status"`
	Checks []string          `json:"checks"`
	Why    string            `json:"why"`
}

// RequirementStatus says how a requirement landed: the verdict of its checks
// that decided it. It is spelled as that verdict is, in every form of the
// report.
type RequirementStatus string

// The requirement statuses. A requirement is met exactly when its status is
// [RequirementStatusPass] or [RequirementStatusNotApplicable].
const (
	// RequirementStatusPass: every check of the requirement passed, or was
	// not applicable and at least one passed.
	RequirementStatusPass RequirementStatus = "pass"
	// RequirementStatusNotApplicable: none of its checks applies to the site;
	// the requirement is met.
	RequirementStatusNotApplicable RequirementStatus = "not_applicable"
	// RequirementStatusPartial: the worst of its checks is partial.
	RequirementStatusPartial RequirementStatus = "partial"
	// RequirementStatusUnverified: the worst of its checks is unverified (no
	// check failed); an unanswered probe never meets a requirement.
	RequirementStatusUnverified RequirementStatus = "unverified"
	// RequirementStatusFail: at least one of its checks failed.
	RequirementStatusFail RequirementStatus = "fail"
)

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
	// Fix says, in a sentence or two for the site's owner, what to publish or
	// change so that the check passes. It is set only on the verdicts that
	// leave something to do: partial, fail, unverified. It is never set on
	// pass, optional or not_applicable; a check that cannot apply left the
	// denominator. The JSON form leaves it out when empty.
	Fix string `json:"fix,omitempty"`
}

// Receipt is the evidence behind a verdict (the agent-readiness scoring method,
// Section 05). It holds the requests relied on, what was expected, what was
// received, and notes.
type Receipt struct {
	Requests []RequestRecord `json:"requests"`
	Expected string          `json:"expected"`
	Received string          `json:"received"`
	Notes    []string        `json:"notes,omitempty"`
	// MCP is the MCP probe's receipt (the agent-readiness scoring method,
	// Section 05), on mcp_discovery only.
	MCP *MCPReceipt `json:"mcp,omitempty"`
}

// RequestRecord is one request a check relied on and what came back. Only the
// request headers that change the answer are kept (Accept,
// MCP-Protocol-Version, Mcp-Session-Id); credentials are never recorded.
type RequestRecord struct {
	Method  string            `json:"method"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers,omitempty"`
	// Response is nil when no response arrived. Error then says why. Skipped
	// says why instead for a request not made by design, such as a browser's
	// request for a stylesheet or an image, which a rendering does not need.
	Response *ResponseRecord `json:"response,omitempty"`
	Error    string          `json:"error,omitempty"`
	Skipped  string          `json:"skipped,omitempty"`
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

// Scope records what the scan read (the agent-readiness scoring method, Section 07,
// "findings state their scope") and what it spent.
type Scope struct {
	// Routes are the pages the scan actually read, the given page first.
	Routes []string `json:"routes"`
	// Budget is what the scan spent of its budget.
	Budget BudgetUse `json:"budget"`
	// Development is true when the scan's client was in development mode
	// (safefetch.Options.AllowLoopback): http and loopback addresses were
	// allowed, as no scan of a public site allows them. Every form of the
	// report says so at its top, so that such a report is never taken for
	// one of a public site.
	Development bool `json:"development,omitempty"`
	// OverCap lists the URLs whose answer was larger than the scan's
	// per-response cap (Budget.MaxBodyBytes): the scan could not read
	// them, and every check that needed one is unverified. Every form of
	// the report says so at its top.
	OverCap []string `json:"over_cap,omitempty"`
}

// developmentNotice is what every form of a development-mode report says.
const developmentNotice = "Development mode: this scan allowed http and loopback addresses (safefetch.Options.AllowLoopback), which no scan of a public site allows."

// BudgetUse is what the scan spent of its budget ([Options].Budget) and the
// limits it had.
type BudgetUse struct {
	Attempts        int    `json:"attempts"`
	Bytes           int64  `json:"bytes"`
	PeakConcurrency int    `json:"peak_concurrency"`
	Exhausted       string `json:"exhausted,omitempty"`
	MaxAttempts     int    `json:"max_attempts"`
	MaxBytes        int64  `json:"max_bytes"`
	// MaxBodyBytes is the cap of each response ([Options].MaxBodyBytes).
	MaxBodyBytes int64 `json:"max_body_bytes"`
}

// ErrInvalidReport is returned by [Compose] when the check results do not
// fit the catalogue. Every such error wraps it.
var ErrInvalidReport = errors.New("readiness: invalid report")

// Compose builds a [Report] from check results, one for every check of the
// [Catalogue]. It fills each result's title, section, requirement, weight and
// earned points from the catalogue. It computes section scores, the total, the
// requirements and Ready by the scoring rules of the package doc. Results may
// come in any order; they are sorted into catalogue order.
//
// Some results are an error wrapping [ErrInvalidReport]: a check id outside the
// catalogue, a repeated id, or an invalid verdict. So are a verdict that does
// not fit the check's kind, a Fix on a pass, optional or not_applicable
// verdict, and a catalogue check without a result. An engine that does not run
// a check reports it as [VerdictUnverified], with a note saying why. The check
// then keeps its weight, earns nothing, is listed apart and meets no
// requirement. So a partial engine never scores or reads as more ready than it
// showed.
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
		if r.Fix != "" && !r.Verdict.leavesWork() {
			return nil, fmt.Errorf("%w: check %q: a fix on verdict %q", ErrInvalidReport, r.ID, r.Verdict)
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
	var missing []string
	for _, row := range catalogueTable {
		spec := row.spec
		if _, ok := byID[spec.ID]; !ok {
			missing = append(missing, spec.ID)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%w: no result for %s", ErrInvalidReport, strings.Join(missing, ", "))
	}

	rep := &Report{
		Method:       MethodVersion,
		Site:         site,
		ScannedAt:    scannedAt.UTC(),
		Possible:     100,
		Checks:       make([]CheckResult, 0, len(catalogueTable)),
		Unverified:   []string{},
		Observations: []Observation{},
		Sections:     make([]SectionResult, 0, len(sectionTable)),
		Requirements: make([]RequirementResult, 0, len(requirementTable)),
		Scope:        scope,
	}
	if rep.Scope.Routes == nil {
		rep.Scope.Routes = []string{}
	}
	for _, row := range catalogueTable {
		spec := row.spec
		r := byID[spec.ID]
		rep.Checks = append(rep.Checks, r)
		if r.Verdict == VerdictUnverified {
			rep.Unverified = append(rep.Unverified, r.ID)
		}
	}

	rep.Sections, rep.Earned, rep.Applicable = scoreSections(rep.Checks, nil)
	if rep.Applicable > 0 {
		rep.Score = 100 * rep.Earned / rep.Applicable
	}
	rep.Fixes = fixFirst(rep)

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

// scoreSections scores the six sections from checks, each verdict replaced by
// the one in what, when present. A section's score is its points × Σ(credit ×
// weight) / Σ(weight of its applicable checks). A section with no applicable
// check leaves the denominator. It returns the sections, the points earned and
// the points of the sections that apply.
func scoreSections(checks []CheckResult, what map[string]Verdict) (sections []SectionResult, earned, applicable float64) {
	sections = make([]SectionResult, 0, len(sectionTable))
	for _, sec := range sectionTable {
		sr := SectionResult{ID: sec.ID, Title: sec.Title, Points: sec.Points, Checks: []string{}}
		var num, den float64
		for _, r := range checks {
			if r.Section != sec.ID {
				continue
			}
			sr.Checks = append(sr.Checks, r.ID)
			v := r.Verdict
			if w, ok := what[r.ID]; ok {
				v = w
			}
			if v.counts() {
				num += v.Credit() * r.Weight
				den += r.Weight
			}
		}
		if den > 0 {
			sr.Scored = true
			sr.Score = sec.Points * num / den
			earned += sr.Score
			applicable += sec.Points
		}
		sections = append(sections, sr)
	}
	return sections, earned, applicable
}

// fixFirst builds the fix-first list of a scored report. A check leaves points
// when it counts in its section's denominator and earns less than its weight.
// Its fix adds the section points the report earns when it alone passes. That
// counts what passing brings: a backend interface that passes makes
// mcp_tested_execution count, unverified, as the catalogue says.
func fixFirst(rep *Report) []FixItem {
	out := []FixItem{}
	if rep.Applicable <= 0 {
		return out
	}
	order := map[string]int{}
	verdicts := map[string]Verdict{}
	for i, c := range rep.Checks {
		order[c.ID] = i
		verdicts[c.ID] = c.Verdict
	}
	for _, c := range rep.Checks {
		if !c.Verdict.counts() || c.Earned >= c.Weight || neverVerifiable(c.ID) {
			continue
		}
		what := map[string]Verdict{c.ID: VerdictPass}
		if c.ID == "backend_interface_declared" && verdicts["mcp_tested_execution"] == VerdictNotApplicable {
			what["mcp_tested_execution"] = VerdictUnverified
		}
		_, earned, _ := scoreSections(rep.Checks, what)
		out = append(out, FixItem{Check: c.ID, Requirement: c.Requirement, Points: earned - rep.Earned, Fix: c.Fix, Prompt: fixPrompt(rep.Site, c, earned-rep.Earned)})
	}
	slices.SortStableFunc(out, func(a, b FixItem) int {
		// Points that differ only by rounding noise are equal.
		if d := b.Points - a.Points; math.Abs(d) > 1e-9 {
			if d > 0 {
				return 1
			}
			return -1
		}
		if ra, rb := reqRank(a.Requirement), reqRank(b.Requirement); ra != rb {
			return ra - rb
		}
		return order[a.Check] - order[b.Check]
	})
	return out
}

// reqRank orders requirements R1 to R10, and no requirement after them.
func reqRank(id string) int {
	for i, r := range requirementTable {
		if r.ID == id {
			return i
		}
	}
	return len(requirementTable)
}

// judgeRequirement decides one requirement from the results of its checks,
// every one of which is in byID (Compose makes sure of it).
func judgeRequirement(req Requirement, byID map[string]CheckResult) RequirementResult {
	rr := RequirementResult{ID: req.ID, Text: req.Text, Checks: slices.Clone(req.Checks)}
	var unmet []string
	worst := Verdict("")
	allNA := true
	for _, id := range req.Checks {
		r := byID[id]
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
	case len(unmet) > 0:
		rr.Status = RequirementStatus(worst)
		rr.Why = strings.Join(unmet, "; ")
	case allNA:
		rr.Met = true
		rr.Status = RequirementStatusNotApplicable
		rr.Why = "does not apply: " + strings.Join(req.Checks, " and ") + " not applicable"
	default:
		rr.Met = true
		rr.Status = RequirementStatusPass
		rr.Why = strings.Join(req.Checks, " and ") + " passed"
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

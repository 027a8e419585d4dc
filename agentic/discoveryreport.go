package agentic

import "time"

// DiscoveryReport explains a scan: every request, what failed, what was
// shortened, which OpenAPI bindings could not be checked, and when the
// observation was made.
type DiscoveryReport struct {
	Origin     string    `json:"origin"`
	ProfileURL string    `json:"profile_url"`
	Outcome    Outcome   `json:"outcome"`
	ObservedAt time.Time `json:"observed_at"`
	FinishedAt time.Time `json:"finished_at"`
	// Requests lists every request in the order they finished.
	Requests []RequestRecord `json:"requests"`
	// Failures lists the requests that did not yield a usable document.
	Failures []Failure `json:"failures"`
	// Truncations lists what was shortened or left out to fit the profile limits.
	Truncations []Truncation `json:"truncations"`
	// Bindings lists the OpenAPI documents and whether their index was built.
	Bindings []BindingCheck `json:"bindings"`
	// Linked lists URLs recorded without being fetched, and why.
	Linked []LinkedURL `json:"linked"`
	// Budget is the budget's final usage.
	Budget BudgetReport `json:"budget"`
	// Notes are other observations, one sentence each.
	Notes []string `json:"notes"`
	// Existing is the valid profile found published at the profile URL
	// when DiscoverOptions.Regenerate asked for a fresh one instead; nil
	// otherwise (without Regenerate such a profile is the Discovery itself).
	Existing *ExistingProfile `json:"existing,omitempty"`
}

// ExistingProfile is a valid published profile that Discover did not keep
// because DiscoverOptions.Regenerate was set.
type ExistingProfile struct {
	// URL is where the profile was read (after any redirect).
	URL string `json:"url"`
	// Outcome is what Discover would have returned without Regenerate:
	// OutcomeExistingSite or OutcomeExistingAction.
	Outcome Outcome `json:"outcome"`
	// Site or Action is the parsed profile, by Outcome.
	Site   *Site          `json:"-"`
	Action *ActionProfile `json:"-"`
}

// Failure is one request that did not yield a usable document.
type Failure struct {
	URL    string `json:"url"`
	Status int    `json:"status,omitempty"`
	Reason string `json:"reason"`
}

// Truncation is one shortening of the profile to its limits.
type Truncation struct {
	// Pointer is where in the profile the shortening applies.
	Pointer string `json:"pointer"`
	Reason  string `json:"reason"`
	// Dropped counts the items left out (0 when values were shortened).
	Dropped int `json:"dropped,omitempty"`
}

// BindingStatus says whether an OpenAPI document got an operation index
// ([Agentic Site Profile 1.1], section "Discovery and auditing": missing
// binding checks are reported, not invented).
//
// [Agentic Site Profile 1.1]: https://github.com/sam1siam/agentic
type BindingStatus string

// The statuses of a [BindingCheck].
const (
	// BindingStatusIndexed: the document was read and its operations indexed.
	BindingStatusIndexed BindingStatus = "indexed"
	// BindingStatusNotRetrieved: the document was linked but not read.
	BindingStatusNotRetrieved BindingStatus = "not-retrieved"
	// BindingStatusNotOpenAPI3: the document is not OpenAPI 3 JSON the
	// index can hold.
	BindingStatusNotOpenAPI3 BindingStatus = "not-openapi-3"
	// BindingStatusNotChecked: the binding was not checked (an existing
	// profile kept as found, or over the limit of API indexes).
	BindingStatusNotChecked BindingStatus = "not-checked"
)

// BindingCheck reports an OpenAPI document and whether the profile indexes it.
type BindingCheck struct {
	Document string        `json:"document"`
	Status   BindingStatus `json:"status"`
	Reason   string        `json:"reason,omitempty"`
}

// LinkedURL is a URL recorded as linked (or left out) without being fetched.
type LinkedURL struct {
	URL    string `json:"url"`
	Kind   Kind   `json:"kind,omitempty"`
	Source string `json:"source"`
	Reason string `json:"reason"`
}

// BudgetReport is the scan budget's usage against its limits.
type BudgetReport struct {
	Attempts        int    `json:"attempts"`
	MaxAttempts     int    `json:"max_attempts"`
	Bytes           int64  `json:"bytes"`
	MaxBytes        int64  `json:"max_bytes"`
	PeakConcurrency int    `json:"peak_concurrency"`
	Exhausted       string `json:"exhausted,omitempty"`
}

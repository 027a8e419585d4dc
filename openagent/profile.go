package openagent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Type is the only value the "type" member of an OpenAgent profile may have
// ([OpenAgent 0.1], "The record": "Exactly logicsrc.agent").
//
// [OpenAgent 0.1]: https://github.com/profullstack/logicsrc/blob/main/docs/openagent.md
const Type = "logicsrc.agent"

// Version is the profile version this package reads and writes. The schema
// accepts any numeric major.minor[.patch] version; this reader supports only
// 0.1 and reports any other as unsupported, never rewriting it
// ([OpenAgent 0.1], "The record").
//
// [OpenAgent 0.1]: https://github.com/profullstack/logicsrc/blob/main/docs/openagent.md
const Version = "0.1"

// WellKnownPath is where a domain representing one agent serves its profile
// ([OpenAgent 0.1], "Publication and discovery"). The well-known document is
// a single profile, not an array or a directory.
//
// [OpenAgent 0.1]: https://github.com/profullstack/logicsrc/blob/main/docs/openagent.md
const WellKnownPath = "/.well-known/openagent.json"

// MediaType is the Content-Type a profile is served with and the type
// attribute of the discovery links ([OpenAgent 0.1], "Publication and
// discovery").
//
// [OpenAgent 0.1]: https://github.com/profullstack/logicsrc/blob/main/docs/openagent.md
const MediaType = "application/json"

// LinkRel is the link relation that advertises a profile from a page or an
// HTTP response ([OpenAgent 0.1], "Publication and discovery").
//
// [OpenAgent 0.1]: https://github.com/profullstack/logicsrc/blob/main/docs/openagent.md
const LinkRel = "openagent"

// PricingModel is the model of a profile's indicative pricing
// ([OpenAgent 0.1], "The record", field pricing): one of the four constants
// below, which are the schema's enum, or "" when the member is absent.
//
// [OpenAgent 0.1]: https://github.com/profullstack/logicsrc/blob/main/docs/openagent.md
type PricingModel string

// The pricing models the schema defines.
const (
	PricingFree         PricingModel = "free"
	PricingPerTask      PricingModel = "per_task"
	PricingHourly       PricingModel = "hourly"
	PricingSubscription PricingModel = "subscription"
)

// Profile is an OpenAgent 0.1 document: a logicsrc.agent profile
// ([OpenAgent 0.1], "The record"). The seven required members are Type,
// Version, Name, DID, OwnerDID, Skills and PermissionsRequested; the others
// are optional and are nil or empty when the publisher omitted them.
// Omission is never proof of availability, of a free price or of permission
// to run the agent.
//
// A Profile is a description and a set of claims, not an authorization:
//   - OwnerDID states an ownership claim. Schema validation or HTTPS does not
//     prove control of either identity; a registry or launcher verifies it
//     through its own authenticated account or identity provider
//     ("Identity and ownership").
//   - Skills are claims, not certifications, and never executable
//     instructions ("Skills and permissions").
//   - PermissionsRequested records a request. Reading a profile grants
//     nothing: the application's grant, local policy and the session's
//     inherited limits decide what may run, and the request never widens an
//     OpenFleet ceiling ("Skills and permissions", "One profile, many sessions").
//   - Pricing is an indication, not a checkout contract; nothing in this
//     package pays or charges ("Profiles and rental listings").
//   - WebhookURL is never called by this package, and nothing here launches
//     a process ("Publication and discovery").
//
// The JSON member order of [Profile.Marshal] is the order of the fields
// below, which is the order of the specification's table.
//
// [OpenAgent 0.1]: https://github.com/profullstack/logicsrc/blob/main/docs/openagent.md
type Profile struct {
	// Type is exactly "logicsrc.agent".
	Type string `json:"type"`
	// Version is the profile version; this package supports "0.1".
	Version string `json:"version"`
	// Name is a display name of 1 to 120 characters. Identity comparisons
	// use DID, never Name.
	Name string `json:"name"`
	// DID is the stable LogicSRC identity of the agent, such as
	// "research.coinpay". It is a name, not a URL: readers must not infer a
	// resolver or fetch an address built from it.
	DID string `json:"did"`
	// OwnerDID is the LogicSRC identity of the party responsible for the
	// agent: an unverified claim until a registry checks it.
	OwnerDID string `json:"owner_did"`
	// Description is optional plain text explaining what the agent does.
	Description string `json:"description,omitempty"`
	// Skills are at least one unique, non-empty label of an advertised
	// specialty: claims, not certifications.
	Skills []string `json:"skills"`
	// SupportedTaskTypes are optional unique, non-empty task labels whose
	// contracts the host defines.
	SupportedTaskTypes []string `json:"supported_task_types,omitempty"`
	// PermissionsRequested are unique scope strings such as "web:read"; an
	// empty list is valid and requests nothing. A request, never a grant.
	PermissionsRequested []string `json:"permissions_requested"`
	// Pricing is optional indicative pricing; see [Pricing.Incomplete].
	Pricing *Pricing `json:"pricing,omitempty"`
	// WebhookURL is an optional absolute URI for an application-specific
	// callback. It defines no transport, authentication or task API, and
	// importing a profile must not call it.
	WebhookURL string `json:"webhook_url,omitempty"`
	// PollingMode, when present, says whether the agent can poll; it does not
	// say where or how often.
	PollingMode *bool `json:"polling_mode,omitempty"`
	// Public is optional and defaults to true (see [Profile.IsPublic]). It is
	// descriptive metadata, not protection: see [CheckPublic].
	Public *bool `json:"public,omitempty"`
	// LogicSRCCompatibilityVersion optionally names the LogicSRC version the
	// publisher claims to support.
	LogicSRCCompatibilityVersion string `json:"logicsrc_compatibility_version,omitempty"`
}

// IsPublic reports the value of the public member, which defaults to true when
// it is absent ([OpenAgent 0.1], "The record"). A directory must not
// publicly index a profile for which IsPublic is false.
//
// [OpenAgent 0.1]: https://github.com/profullstack/logicsrc/blob/main/docs/openagent.md
func (p *Profile) IsPublic() bool { return p.Public == nil || *p.Public }

// Pricing is the optional indicative pricing of a profile
// ([OpenAgent 0.1], "The record" and "Profiles and rental listings"). Every
// member is optional in the schema, so a partial object is valid; readers
// must show it as incomplete (see [Pricing.Incomplete]), never as free.
//
// Pricing is an indication, not an offer. Explicit rental offers and their
// exact decimal rates belong in OpenRental. A consumer must not turn
// Amount into a binding payment, or charge an account because it fetched a
// profile.
//
// [OpenAgent 0.1]: https://github.com/profullstack/logicsrc/blob/main/docs/openagent.md
type Pricing struct {
	// Model is one of PricingFree, PricingPerTask, PricingHourly or
	// PricingSubscription, or "" when absent.
	Model PricingModel `json:"model,omitempty"`
	// Amount is a non-negative number, or nil when absent.
	Amount *float64 `json:"amount,omitempty"`
	// Currency is 2 to 12 characters, or "" when absent.
	Currency string `json:"currency,omitempty"`
}

// Missing lists the members of p that are absent, in the order model, amount,
// currency. A nil Pricing is missing all three.
func (p *Pricing) Missing() []string {
	var m []string
	if p == nil || p.Model == "" {
		m = append(m, "model")
	}
	if p == nil || p.Amount == nil {
		m = append(m, "amount")
	}
	if p == nil || p.Currency == "" {
		m = append(m, "currency")
	}
	return m
}

// Incomplete reports whether any of model, amount and currency is missing.
// A reader must show incomplete pricing as incomplete: a missing amount is
// not zero and a missing model is not "free" ([OpenAgent 0.1], "The record").
//
// [OpenAgent 0.1]: https://github.com/profullstack/logicsrc/blob/main/docs/openagent.md
func (p *Pricing) Incomplete() bool { return len(p.Missing()) > 0 }

// String describes the pricing for display, marking it incomplete when a
// member is missing, for example "per_task 5 USD" or
// "incomplete pricing (missing amount, currency): per_task". It is an
// indication, never a price to charge.
func (p *Pricing) String() string {
	if p == nil {
		return "no pricing given"
	}
	var b bytes.Buffer
	if p.Model != "" {
		b.WriteString(string(p.Model))
	}
	if p.Amount != nil {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.FormatFloat(*p.Amount, 'f', -1, 64))
	}
	if p.Currency != "" {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(p.Currency)
	}
	if m := p.Missing(); len(m) > 0 {
		s := fmt.Sprintf("incomplete pricing (missing %s)", joinComma(m))
		if b.Len() > 0 {
			s += ": " + b.String()
		}
		return s
	}
	return b.String()
}

func joinComma(s []string) string {
	var b bytes.Buffer
	for i, v := range s {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(v)
	}
	return b.String()
}

// MarshalJSON writes the profile with its members in the specification's
// order, an absent permissions_requested as the empty array it means, and
// without HTML escaping. It does not validate; [Profile.Marshal] does.
func (p Profile) MarshalJSON() ([]byte, error) {
	type plain Profile
	q := plain(p)
	if q.PermissionsRequested == nil {
		q.PermissionsRequested = []string{}
	}
	if q.Skills == nil {
		q.Skills = []string{}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(q); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// Marshal returns the profile as indented JSON (two spaces, one final LF)
// with a stable member order, ready to publish, after checking that [Parse]
// accepts the result. When it does not, the error is the *[ValidationError]
// Parse reports, and no bytes are returned.
func (p *Profile) Marshal() ([]byte, error) {
	if p == nil {
		return nil, fmt.Errorf("openagent: marshal of a nil profile")
	}
	compact, err := p.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("openagent: marshal: %w", err)
	}
	var b bytes.Buffer
	if err := json.Indent(&b, compact, "", "  "); err != nil {
		return nil, fmt.Errorf("openagent: marshal: %w", err)
	}
	b.WriteByte('\n')
	if _, err := Parse(b.Bytes()); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Clone returns a deep copy of p.
func (p *Profile) Clone() *Profile {
	if p == nil {
		return nil
	}
	q := *p
	q.Skills = cloneStrings(p.Skills)
	q.SupportedTaskTypes = cloneStrings(p.SupportedTaskTypes)
	q.PermissionsRequested = cloneStrings(p.PermissionsRequested)
	if p.Pricing != nil {
		pr := *p.Pricing
		if p.Pricing.Amount != nil {
			a := *p.Pricing.Amount
			pr.Amount = &a
		}
		q.Pricing = &pr
	}
	if p.PollingMode != nil {
		v := *p.PollingMode
		q.PollingMode = &v
	}
	if p.Public != nil {
		v := *p.Public
		q.Public = &v
	}
	return &q
}

func cloneStrings(s []string) []string {
	if s == nil {
		return nil
	}
	return append([]string(nil), s...)
}

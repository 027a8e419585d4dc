package cli

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentweb/agentweb/agentic"
	"github.com/agentweb/agentweb/agentsignup"
	"github.com/agentweb/agentweb/linkset"
	"github.com/agentweb/agentweb/openagent"
	"github.com/agentweb/agentweb/readiness/agentsjson"
	"github.com/agentweb/agentweb/readiness/mcpserver"
)

// The document kinds the validator programs know, named as the MCP tool
// validate_document names them, plus the Action Profile.
const (
	KindAgenticSite      = mcpserver.KindAgenticSite
	KindAgenticAction    = "agentic_action"
	KindOpenAgent        = mcpserver.KindOpenAgent
	KindKnowledgeLinkset = mcpserver.KindKnowledgeLinkset
	KindAgentSignup      = mcpserver.KindAgentSignup
	KindAgentsJSON       = mcpserver.KindAgentsJSON
)

// Kinds lists the kinds a user may name, in the order DetectKind tries
// them (the Action Profile is found as an agentic document).
var Kinds = []string{KindAgenticSite, KindOpenAgent, KindKnowledgeLinkset, KindAgentSignup, KindAgentsJSON}

// Validation is the one JSON shape every validator program prints. It
// says where the document came from, its kind, and whether it is valid.
// It lists every finding, each with its severity, rule, pointer and
// section: errors, and the warnings and notices the package keeps on a
// usable value. It adds in details what the kind adds. Exit code 0
// means Valid, 1 not.
type Validation struct {
	Source   string            `json:"source"`
	Kind     string            `json:"kind"`
	Valid    bool              `json:"valid"`
	Problems []agentic.Problem `json:"problems"`
	Details  any               `json:"details,omitempty"`
}

// Code is the exit code of a validation: ExitOK when valid, else ExitInvalid.
func (v *Validation) Code() int {
	if v.Valid {
		return ExitOK
	}
	return ExitInvalid
}

// add records the findings of err (a *ValidationError's problems and
// warnings, or any other error as one problem) and of extra.
func (v *Validation) add(err error, extra ...agentic.Problem) {
	var ve *agentic.ValidationError // one type across the spec packages
	switch {
	case errors.As(err, &ve):
		v.Problems = append(v.Problems, ve.Problems...)
		v.Problems = append(v.Problems, ve.Warnings...)
	case err != nil:
		v.Problems = append(v.Problems, agentic.Problem{Rule: "invalid", Message: err.Error()})
	}
	v.Problems = append(v.Problems, extra...)
}

// settle sets Valid: no finding of severity error.
func (v *Validation) settle() *Validation {
	v.Valid = true
	for _, p := range v.Problems {
		if p.Severity == linkset.SeverityError {
			v.Valid = false
		}
	}
	return v
}

// Validate checks data as a document of kind with its package's own
// parser. A knowledge linkset is checked as its publisher must publish
// it (ModePublisher). An agents.json card is read with the reader of the
// formats in use and the checks of the method's card.
func Validate(source, kind string, data []byte) *Validation {
	v := &Validation{Source: source, Kind: kind, Problems: []agentic.Problem{}}
	switch kind {
	case KindAgenticSite, KindAgenticAction:
		_, err := agentic.ParseSite(data)
		if errors.Is(err, agentic.ErrActionProfile) {
			v.Kind = KindAgenticAction
			_, err = agentic.ParseActionProfile(data)
		}
		v.add(err)
	case KindOpenAgent:
		p, err := openagent.Parse(data)
		v.add(err)
		if err == nil {
			v.add(nil, openagent.CheckPublic(p, nil)...)
			if p.Pricing != nil {
				v.Details = map[string]any{"profile": p, "pricing": p.Pricing.String()}
			} else {
				v.Details = map[string]any{"profile": p}
			}
		}
	case KindKnowledgeLinkset:
		return ValidateLinkset(source, data, linkset.ModePublisher)
	case KindAgentSignup:
		d, err := agentsignup.Parse(data)
		v.add(err)
		if err == nil {
			v.add(nil, d.Warnings...)
			v.Details = map[string]any{"terms_sha256": d.Terms.SHA256}
		}
	case KindAgentsJSON:
		c, err := agentsjson.Parse(data)
		v.add(err)
		if err == nil {
			v.add(nil, c.Check()...)
			v.add(nil, c.Skipped...)
			v.Details = map[string]any{"format": c.Format}
		}
	default:
		v.add(fmt.Errorf("kind %q is none of %v", kind, Kinds))
	}
	return v.settle()
}

// LinksetDetails is what a knowledge linkset's validation adds: the form
// of a conformant document and, for a fetched one, the retrieval and the
// artefacts' digests.
type LinksetDetails struct {
	Form      linkset.Form            `json:"form"`
	Fetch     *linkset.Fetched        `json:"fetch,omitempty"`
	Artefacts []linkset.ArtefactState `json:"artefacts,omitempty"`
	Peer      *linkset.MutualResult   `json:"peer,omitempty"`
}

// ValidateLinkset checks a knowledge linkset's bytes in mode.
func ValidateLinkset(source string, data []byte, mode linkset.Mode) *Validation {
	v := &Validation{Source: source, Kind: KindKnowledgeLinkset, Problems: []agentic.Problem{}}
	d, err := linkset.Parse(data)
	v.add(err)
	det := &LinksetDetails{Form: linkset.FormNotConformant}
	if err == nil {
		r := d.Evaluate(mode)
		v.add(nil, r.Problems...)
		v.add(nil, r.Notices...)
		det.Form = r.Form
	}
	v.Details = det
	return v.settle()
}

// FromReport is the validation of a fetched knowledge linkset, from its
// report.
func FromReport(source string, f *linkset.Fetched) *Validation {
	v := &Validation{Source: source, Kind: KindKnowledgeLinkset, Problems: []agentic.Problem{}}
	det := &LinksetDetails{Form: linkset.FormNotConformant}
	if f.Report != nil {
		v.add(nil, f.Report.Problems...)
		v.add(nil, f.Report.Notices...)
		det.Form = f.Report.Form
	}
	evidence := *f
	evidence.Report = nil
	det.Fetch = &evidence
	v.Details = det
	return v.settle()
}

// DetectKind names the kind of a JSON document by the members each
// specification fixes. They are "agentic" (a site profile or an Action
// Profile), "type": "logicsrc.agent" (OpenAgent) and a "linkset" array (a
// knowledge linkset). Then "protocol": "agent-identity-v1" or the
// agent-signup members (terms and issuer_allowlist). Otherwise any JSON
// object the tolerant agents.json reader recognises a format in is an
// agents.json card. An error means none fits.
func DetectKind(data []byte) (string, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return "", fmt.Errorf("not a JSON object: %w", err)
	}
	str := func(k string) string {
		var s string
		_ = json.Unmarshal(m[k], &s)
		return s
	}
	switch {
	case m["agentic"] != nil:
		return KindAgenticSite, nil
	case str("type") == "logicsrc.agent":
		return KindOpenAgent, nil
	case m["linkset"] != nil:
		return KindKnowledgeLinkset, nil
	case str("protocol") == "agent-identity-v1", m["terms"] != nil && m["issuer_allowlist"] != nil:
		return KindAgentSignup, nil
	}
	if c, err := agentsjson.Parse(data); err == nil && c.Format != "" {
		return KindAgentsJSON, nil
	}
	return "", errors.New("not one of the five kinds (agentic site profile, OpenAgent profile, knowledge linkset, agent-signup document, agents.json card): name it with -kind")
}

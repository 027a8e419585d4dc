package readiness

import (
	"errors"
	"fmt"
	"strings"

	"github.com/agentweb/agentweb/agentic"
	"github.com/agentweb/agentweb/agentsignup"
	"github.com/agentweb/agentweb/internal/strictjson"
	"github.com/agentweb/agentweb/linkset"
	"github.com/agentweb/agentweb/openagent"
)

// The eight optional conventions (readiness-checks.md, "Optional
// conventions"): each is recorded as found or absent with weight 0, the
// verdict optional, never scored in either direction; a document found but
// invalid is reported as found, with its validation problems in the
// receipt. The conventions this module implements are validated with their
// own packages: agentic, linkset, openagent and agentsignup.
func init() {
	register(checkDef{id: "mcp_server_card", run: checkMCPServerCard})
	register(checkDef{id: "a2a_agent_card", run: checkA2AAgentCard})
	register(checkDef{id: "api_catalog", run: checkAPICatalog})
	register(checkDef{id: "agentic_site_profile", run: checkAgenticSiteProfile})
	register(checkDef{id: "knowledge_linkset", run: checkKnowledgeLinkset})
	register(checkDef{id: "openagent_profile", run: checkOpenAgentProfile})
	register(checkDef{id: "agent_signup", run: checkAgentSignup})
	register(checkDef{id: "dynamic_client_registration", needs: []resource{resCards}, run: checkDynamicClientRegistration})
}

// maxProblemNotes bounds the validation problems a receipt lists.
const maxProblemNotes = 20

// problemNote is one validation problem as a receipt note.
func problemNote(pointer, rule, message string) string {
	if pointer == "" {
		pointer = "/"
	}
	return truncate(clean(fmt.Sprintf("%s [%s] %s", pointer, rule, message)), 240)
}

// capNotes keeps at most maxProblemNotes notes and says how many were left
// out.
func capNotes(notes []string) []string {
	if len(notes) <= maxProblemNotes {
		return notes
	}
	return append(notes[:maxProblemNotes:maxProblemNotes], fmt.Sprintf("… and %d more problems", len(notes)-maxProblemNotes))
}

// convention builds the outcome of an optional convention from its fetch:
// found (valid or not), absent, or unverified when the request went
// unanswered.
func convention(f *fetched, found bool, what string, problems []string) outcome {
	out := outcome{requests: []*fetched{f}, notes: capNotes(problems)}
	switch {
	case found && len(problems) == 0:
		out.verdict, out.received = VerdictOptional, "found: "+what+" at "+f.url
	case found:
		out.verdict, out.received = VerdictOptional, fmt.Sprintf("found at %s, with %d validation problem(s): %s", f.url, len(problems), what)
	case !f.answered():
		out.verdict, out.received = VerdictUnverified, f.url+": "+f.why()
	default:
		out.verdict, out.received = VerdictOptional, fmt.Sprintf("absent (%s: %d)", f.url, f.status())
	}
	return out
}

// jsonObject reads a 2xx non-HTML answer as a JSON object; found is false
// when the answer is not a document at all (an error status or an HTML
// fallback page).
func jsonObject(f *fetched) (m map[string]any, found bool, problems []string) {
	if !f.ok() || looksLikeHTML(f.body()) {
		return nil, false, nil
	}
	v, err := strictjson.Decode(f.body())
	if err != nil {
		return nil, true, []string{"not valid JSON: " + clean(err.Error())}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, true, []string{"not a JSON object"}
	}
	return m, true, nil
}

func checkMCPServerCard(s *scan) outcome {
	cards := s.serverCards()
	for _, c := range cards {
		if c.found || c.problem != "" {
			var problems []string
			if c.problem != "" {
				problems = append(problems, c.problem)
			} else {
				if str(c.value["name"]) == "" && c.value["serverInfo"] == nil {
					problems = append(problems, "no name or serverInfo")
				}
				if c.endpoint == "" {
					problems = append(problems, "no endpoint (remotes[].url, url or endpoint)")
				}
			}
			what := "an MCP server card"
			if c.endpoint != "" {
				what += " naming " + truncate(clean(c.endpoint), 120)
			}
			out := convention(c.f, true, what, problems)
			for _, o := range cards {
				if o != c {
					out.requests = append(out.requests, o.f)
				}
			}
			return out
		}
	}
	out := convention(cards[0].f, false, "", nil)
	if cards[0].f.answered() && !cards[1].f.answered() {
		out = convention(cards[1].f, false, "", nil)
	}
	out.requests = []*fetched{cards[0].f, cards[1].f}
	if out.verdict == VerdictOptional {
		out.received = "absent: neither " + cards[0].f.url + " nor " + cards[1].f.url
	}
	return out
}

func checkA2AAgentCard(s *scan) outcome {
	f := s.get(s.resolve("/.well-known/agent-card.json"), "")
	m, found, problems := jsonObject(f)
	if m != nil {
		if str(m["name"]) == "" {
			problems = append(problems, "no name")
		}
		if _, ok := m["skills"].([]any); !ok {
			problems = append(problems, "no skills array")
		}
		if _, ok := m["supportedInterfaces"].([]any); !ok && str(m["url"]) == "" {
			problems = append(problems, "no supportedInterfaces (A2A 1.0) or url")
		}
	}
	return convention(f, found, "an A2A agent card", problems)
}

func checkAPICatalog(s *scan) outcome {
	f := s.get(s.resolve("/.well-known/api-catalog"), "")
	found := f.ok() && !looksLikeHTML(f.body())
	var problems []string
	what := "an RFC 9727 API catalog (RFC 9264 link set)"
	if found {
		d, err := linkset.Parse(f.body())
		problems = linksetProblems(err)
		if err == nil && d != nil {
			what = fmt.Sprintf("an RFC 9727 API catalog of %d link context(s)", len(d.Contexts))
		}
	}
	return convention(f, found, what, problems)
}

func linksetProblems(err error) []string {
	var ve *linkset.ValidationError
	if errors.As(err, &ve) {
		var out []string
		for _, p := range ve.Problems {
			out = append(out, problemNote(p.Pointer, p.Rule, p.Message))
		}
		return out
	}
	if err != nil {
		return []string{clean(err.Error())}
	}
	return nil
}

func checkAgenticSiteProfile(s *scan) outcome {
	a := s.agenticObs()
	found := a.f.ok() && !looksLikeHTML(a.f.body())
	var problems []string
	var ve *agentic.ValidationError
	switch {
	case errors.As(a.err, &ve):
		for _, p := range ve.Problems {
			problems = append(problems, problemNote(p.Pointer, p.Rule, p.Message))
		}
	case a.err != nil:
		problems = append(problems, clean(a.err.Error()))
	}
	what := "an Agentic Site Profile"
	txt := s.get(s.resolve("/agentic.txt"), "")
	if a.site != nil {
		what = fmt.Sprintf("an Agentic Site Profile 1.1 with %d resource(s)", len(a.site.Resources))
		switch {
		case txt.ok() && !looksLikeHTML(txt.body()):
			st := agentic.CheckText(a.site, a.f.url, txt.body())
			what += fmt.Sprintf("; /agentic.txt %s", st)
			if st != agentic.TextMatched {
				problems = append(problems, "/agentic.txt does not match the TXT generated from /agentic.json ("+string(st)+")")
			}
		case txt.answered():
			what += "; no /agentic.txt"
		}
	}
	out := convention(a.f, found, what, problems)
	out.requests = append(out.requests, txt)
	return out
}

func checkKnowledgeLinkset(s *scan) outcome {
	f := s.get(s.resolve(linkset.WellKnownPath), "")
	found := f.ok() && !looksLikeHTML(f.body())
	var problems []string
	what := "a knowledge linkset"
	if found {
		d, err := linkset.Parse(f.body())
		problems = linksetProblems(err)
		if err == nil && d != nil {
			for _, p := range d.Check() {
				problems = append(problems, problemNote(p.Pointer, p.Rule, p.Message))
			}
			what = fmt.Sprintf("a knowledge linkset of %d link context(s)", len(d.Contexts))
		}
	}
	return convention(f, found, what, problems)
}

func checkOpenAgentProfile(s *scan) outcome {
	f := s.get(s.resolve(openagent.WellKnownPath), "")
	found := f.ok() && !looksLikeHTML(f.body())
	var problems []string
	what := "an OpenAgent profile"
	if found {
		p, err := openagent.Parse(f.body())
		var ve *openagent.ValidationError
		switch {
		case errors.As(err, &ve):
			for _, q := range ve.Problems {
				problems = append(problems, problemNote(q.Pointer, q.Rule, q.Message))
			}
		case err != nil:
			problems = append(problems, clean(err.Error()))
		case p != nil:
			what = "an OpenAgent " + openagent.Version + " profile"
		}
	}
	return convention(f, found, what, problems)
}

func checkAgentSignup(s *scan) outcome {
	d := s.signupObs()
	var problems []string
	var ve *agentsignup.ValidationError
	switch {
	case errors.As(d.err, &ve):
		for _, p := range ve.Problems {
			problems = append(problems, problemNote(p.Pointer, p.Rule, p.Message))
		}
	case d.err != nil:
		problems = append(problems, clean(d.err.Error()))
	}
	what := "agent-identity-v1 sign-up discovery"
	if d.doc != nil {
		what += " for " + truncate(clean(d.doc.ProviderName), 80)
		for _, w := range d.doc.Warnings {
			problems = append(problems, "warning: "+problemNote(w.Pointer, w.Rule, w.Message))
		}
		if len(problems) > 0 {
			// Warnings alone do not make the document invalid.
			out := convention(d.f, true, what, nil)
			out.notes = capNotes(problems)
			return out
		}
	}
	return convention(d.f, d.present, what, problems)
}

func checkDynamicClientRegistration(s *scan) outcome {
	out := outcome{verdict: VerdictOptional}
	var metas []struct {
		url string
		m   *authServerMeta
	}
	if si := s.mcpObs().signin; si != nil {
		out.requests = append(out.requests, si.tried...)
		if si.as != nil {
			metas = append(metas, struct {
				url string
				m   *authServerMeta
			}{si.asURL, si.as})
		}
	}
	o := s.oauthObs()
	out.requests = append(out.requests, o.f)
	if m := o.usable(); m != nil {
		metas = append(metas, struct {
			url string
			m   *authServerMeta
		}{o.f.url, m})
	}
	for _, x := range metas {
		var how []string
		if x.m.RegistrationEndpoint != "" {
			how = append(how, "registration_endpoint "+truncate(clean(x.m.RegistrationEndpoint), 120)+" (RFC 7591)")
		}
		if x.m.ClientIDMetadataDocumentSupported {
			how = append(how, "client ID metadata documents")
		}
		if len(how) > 0 {
			out.received = "found: " + strings.Join(how, " and ") + " in " + x.url
			return out
		}
	}
	switch {
	case len(metas) > 0:
		out.received = "absent: the OAuth metadata at " + metas[0].url + " advertises no registration method"
	case !o.f.answered():
		out.verdict, out.received = VerdictUnverified, o.f.url+": "+o.f.why()
	default:
		out.received = "absent: no OAuth metadata"
	}
	return out
}

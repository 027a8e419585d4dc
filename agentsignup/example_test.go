package agentsignup_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/agentweb/agentweb/agentsignup"
)

func ExampleParse() {
	doc, err := agentsignup.Parse([]byte(`{
  "protocol": "agent-identity-v1",
  "audience": "example-rp",
  "provider_name": "Example RP",
  "issuer_allowlist": ["https://agentregistrar.dev"],
  "required_scopes": ["tos:accept"],
  "terms": {
    "version": "2026.1",
    "url": "https://example.com/terms",
    "sha256": "sha256:05435fa3eaee7f3534b4a771ab2328d66d33f712f3534b29e9035717c246d953",
    "text": "Example RP Terms of Service. The agent acts for a verified human owner, and the human owner is bound by these terms."
  },
  "endpoints": {
    "agent_signup": "https://example.com/api/signup/agent"
  }
}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(doc.Audience, doc.Endpoints.AgentSignup)
	fmt.Println("warnings:", len(doc.Warnings))
	fmt.Println("hash verifies:", agentsignup.TermsHash(doc.Terms.Text) == doc.Terms.SHA256)
	// Output:
	// example-rp https://example.com/api/signup/agent
	// warnings: 0
	// hash verifies: true
}

func ExampleParse_problems() {
	_, err := agentsignup.Parse([]byte(`{
  "protocol": "agent-identity-v1",
  "audience": "example-rp",
  "provider_name": "Example RP",
  "issuer_allowlist": ["http://agentregistrar.dev"],
  "required_scopes": ["tos:accept"],
  "terms": {"version": "2026.1", "url": "https://example.com/terms",
            "sha256": "sha256:0000000000000000000000000000000000000000000000000000000000000000",
            "text": "Terms."},
  "endpoints": {"agent_signup": "https://example.com/api/signup/agent"},
  "extensions": {"com.example": {"pricing": {"plan": "pro"}}}
}`))
	var ve *agentsignup.ValidationError
	if errors.As(err, &ve) {
		for _, p := range ve.Problems {
			fmt.Println(p.Pointer, p.Rule)
		}
	}
	// Output:
	// /extensions/com.example/pricing forbidden-field
	// /issuer_allowlist/0 url-https
	// /terms/sha256 terms-hash-mismatch
}

func ExampleParse_otherProtocol() {
	_, err := agentsignup.Parse([]byte(`{"version": "1.0", "signup_url": "https://example.com/signup"}`))
	fmt.Println(errors.Is(err, agentsignup.ErrNotAgentIdentity))
	fmt.Println(err)
	// Output:
	// true
	// agentsignup: not an agent-identity-v1 document: 1 problem: (document): not an agent-identity-v1 document (no protocol member; another protocol also uses /.well-known/agent-signup.json) [not-agent-identity-v1, section Required fields]
}

func ExampleTermsHash() {
	fmt.Println(agentsignup.TermsHash("Example RP Terms of Service. The agent acts for a verified human owner, and the human owner is bound by these terms."))
	// Line endings are not normalised.
	fmt.Println(agentsignup.TermsHash("a\n") == agentsignup.TermsHash("a\r\n"))
	// Output:
	// sha256:05435fa3eaee7f3534b4a771ab2328d66d33f712f3534b29e9035717c246d953
	// false
}

func ExampleCheckAcceptedTerms() {
	oldText := "Example RP Terms, 2025 edition."
	newText := "Example RP Terms, 2026 edition."
	doc := &agentsignup.Document{Terms: agentsignup.Terms{SHA256: agentsignup.TermsHash(newText)}}
	replaced := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	grace := &agentsignup.TermsGrace{Previous: agentsignup.TermsHash(oldText), Replaced: replaced, Window: 2 * time.Hour}

	got, err := agentsignup.CheckAcceptedTerms(doc, agentsignup.TermsHash(oldText), replaced.Add(time.Hour), grace)
	fmt.Println(got, err)
	_, err = agentsignup.CheckAcceptedTerms(doc, agentsignup.TermsHash(oldText), replaced.Add(3*time.Hour), grace)
	fmt.Println(errors.Is(err, agentsignup.ErrTermsMismatch))
	// Output:
	// previous-within-grace <nil>
	// true
}

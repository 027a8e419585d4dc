package openagent

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func exampleProfile(t testing.TB) *Profile {
	t.Helper()
	p, err := Parse(readFile(t, "openagent-example.json"))
	require.NoError(t, err)
	return p
}

func TestCheckPublic(t *testing.T) {
	f := false
	tests := []struct {
		name    string
		mutate  func(p *Profile)
		rule    string
		pointer string
	}{
		{"clean example", func(p *Profile) {}, "", ""},
		{"clean with https webhook", func(p *Profile) { p.WebhookURL = "https://hooks.example.com/home/agent?id=3" }, "", ""},
		{"clean description with slashes", func(p *Profile) { p.Description = "Reads and/or writes briefs; 24/7 on https://example.com/var/x" }, "", ""},
		{"jwt", func(p *Profile) {
			p.Description = "token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
		}, RuleAccessToken, "/description"},
		{"github pat", func(p *Profile) { p.Description = "ghp_" + strings.Repeat("a1B2", 9) }, RuleAccessToken, "/description"},
		{"github fine-grained", func(p *Profile) { p.Skills = append(p.Skills, "github_pat_11ABCDEFG0123456789_abcdefghijklmnop") }, RuleAccessToken, "/skills/2"},
		{"slack", func(p *Profile) { p.Description = "xoxb-123456789012-abcdefghijkl" }, RuleAccessToken, "/description"},
		{"aws", func(p *Profile) { p.Description = "key AKIAIOSFODNN7EXAMPLE here" }, RuleAccessToken, "/description"},
		{"openai", func(p *Profile) { p.Description = "sk-proj-abcdefghijklmnopqrstuvwxyz0123" }, RuleAccessToken, "/description"},
		{"stripe", func(p *Profile) { p.LogicSRCCompatibilityVersion = "sk_live_abcdefghijklmnop1234" }, RuleAccessToken, "/logicsrc_compatibility_version"},
		{"google", func(p *Profile) { p.Description = "AIza" + strings.Repeat("x", 35) }, RuleAccessToken, "/description"},
		{"bearer", func(p *Profile) { p.Description = "call with Bearer abcdef0123456789abcdef" }, RuleAccessToken, "/description"},
		{"authorization header", func(p *Profile) { p.Description = "Authorization: Basic dXNlcjpwYXNz" }, RuleAccessToken, "/description"},
		{"pem rsa", func(p *Profile) {
			p.Description = "-----BEGIN RSA PRIVATE KEY-----\nMIIE...\n-----END RSA PRIVATE KEY-----"
		}, RulePrivateKey, "/description"},
		{"pem pkcs8", func(p *Profile) { p.Description = "-----BEGIN PRIVATE KEY-----\nMC4CAQ" }, RulePrivateKey, "/description"},
		{"pem openssh", func(p *Profile) { p.Description = "-----BEGIN OPENSSH PRIVATE KEY-----" }, RulePrivateKey, "/description"},
		{"jwk private", func(p *Profile) {
			p.Description = `{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"}`
		}, RulePrivateJWK, "/description"},
		{"unix home path", func(p *Profile) { p.Description = "config in /home/alice/agent/.env" }, RuleWorkspacePath, "/description"},
		{"macos path", func(p *Profile) { p.Skills[0] = "/Users/bob/work" }, RuleWorkspacePath, "/skills/0"},
		{"home-relative path", func(p *Profile) { p.Description = "see ~/projects/agent" }, RuleWorkspacePath, "/description"},
		{"windows path", func(p *Profile) { p.Description = `C:\Users\carol\agent` }, RuleWorkspacePath, "/description"},
		{"unc path", func(p *Profile) { p.Description = `\\fileserver\share\agent` }, RuleWorkspacePath, "/description"},
		{"file url", func(p *Profile) { p.WebhookURL = "file:///srv/agent/hook" }, RuleFileURL, "/webhook_url"},
		{"url userinfo", func(p *Profile) { p.WebhookURL = "https://user:pass@hooks.example.com/x" }, RuleCredentialInURL, "/webhook_url"},
		{"url token param", func(p *Profile) { p.WebhookURL = "https://hooks.example.com/x?access_token=abc" }, RuleCredentialInURL, "/webhook_url"},
		{"public false", func(p *Profile) { p.Public = &f }, RulePublicFalse, "/public"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := exampleProfile(t)
			tc.mutate(p)
			got := CheckPublic(p, nil)
			if tc.rule == "" {
				assert.Empty(t, got)
				return
			}
			require.Len(t, got, 1, "%v", got)
			assert.Equal(t, tc.rule, got[0].Rule)
			assert.Equal(t, tc.pointer, got[0].Pointer)
			want := SeverityError
			if tc.rule == RulePublicFalse {
				want = SeverityWarning
			}
			assert.Equal(t, want, got[0].Severity)
			assert.NotEmpty(t, got[0].String())
		})
	}
}

func TestCheckPublicNeverEchoesSecret(t *testing.T) {
	p := exampleProfile(t)
	secret := "ghp_" + strings.Repeat("Zz09", 9)
	p.Description = secret
	got := CheckPublic(p, nil)
	require.NotEmpty(t, got)
	for _, f := range got {
		assert.NotContains(t, f.Message, secret)
	}
	assert.Nil(t, CheckPublic(nil, nil))
}

func TestCheckPublicAllow(t *testing.T) {
	f := false
	p := exampleProfile(t)
	p.Description = "reports land in /home/agent/reports"
	p.WebhookURL = "https://hooks.example.com/x?access_token=abc"
	p.Public = &f
	rules := func(ps []Problem) []string {
		var out []string
		for _, x := range ps {
			out = append(out, x.Rule)
		}
		return out
	}
	assert.ElementsMatch(t, []string{RuleWorkspacePath, RuleCredentialInURL, RulePublicFalse}, rules(CheckPublic(p, nil)))
	assert.ElementsMatch(t, []string{RuleCredentialInURL, RulePublicFalse},
		rules(CheckPublic(p, &CheckPublicOptions{Allow: []string{RuleWorkspacePath}})), "one named finding is allowed, the others stay")
	assert.ElementsMatch(t, []string{RuleWorkspacePath},
		rules(CheckPublic(p, &CheckPublicOptions{Allow: []string{RuleCredentialInURL, RulePublicFalse}})))
	assert.ElementsMatch(t, []string{RuleWorkspacePath, RuleCredentialInURL, RulePublicFalse},
		rules(CheckPublic(p, &CheckPublicOptions{Allow: []string{"no-such-rule"}})))
}

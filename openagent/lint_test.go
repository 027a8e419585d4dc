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
		}, LintAccessToken, "/description"},
		{"github pat", func(p *Profile) { p.Description = "ghp_" + strings.Repeat("a1B2", 9) }, LintAccessToken, "/description"},
		{"github fine-grained", func(p *Profile) { p.Skills = append(p.Skills, "github_pat_11ABCDEFG0123456789_abcdefghijklmnop") }, LintAccessToken, "/skills/2"},
		{"slack", func(p *Profile) { p.Description = "xoxb-123456789012-abcdefghijkl" }, LintAccessToken, "/description"},
		{"aws", func(p *Profile) { p.Description = "key AKIAIOSFODNN7EXAMPLE here" }, LintAccessToken, "/description"},
		{"openai", func(p *Profile) { p.Description = "sk-proj-abcdefghijklmnopqrstuvwxyz0123" }, LintAccessToken, "/description"},
		{"stripe", func(p *Profile) { p.LogicSRCCompatibilityVersion = "sk_live_abcdefghijklmnop1234" }, LintAccessToken, "/logicsrc_compatibility_version"},
		{"google", func(p *Profile) { p.Description = "AIza" + strings.Repeat("x", 35) }, LintAccessToken, "/description"},
		{"bearer", func(p *Profile) { p.Description = "call with Bearer abcdef0123456789abcdef" }, LintAccessToken, "/description"},
		{"authorization header", func(p *Profile) { p.Description = "Authorization: Basic dXNlcjpwYXNz" }, LintAccessToken, "/description"},
		{"pem rsa", func(p *Profile) {
			p.Description = "-----BEGIN RSA PRIVATE KEY-----\nMIIE...\n-----END RSA PRIVATE KEY-----"
		}, LintPrivateKey, "/description"},
		{"pem pkcs8", func(p *Profile) { p.Description = "-----BEGIN PRIVATE KEY-----\nMC4CAQ" }, LintPrivateKey, "/description"},
		{"pem openssh", func(p *Profile) { p.Description = "-----BEGIN OPENSSH PRIVATE KEY-----" }, LintPrivateKey, "/description"},
		{"jwk private", func(p *Profile) {
			p.Description = `{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"}`
		}, LintPrivateJWK, "/description"},
		{"unix home path", func(p *Profile) { p.Description = "config in /home/alice/agent/.env" }, LintWorkspacePath, "/description"},
		{"macos path", func(p *Profile) { p.Skills[0] = "/Users/bob/work" }, LintWorkspacePath, "/skills/0"},
		{"home-relative path", func(p *Profile) { p.Description = "see ~/projects/agent" }, LintWorkspacePath, "/description"},
		{"windows path", func(p *Profile) { p.Description = `C:\Users\carol\agent` }, LintWorkspacePath, "/description"},
		{"unc path", func(p *Profile) { p.Description = `\\fileserver\share\agent` }, LintWorkspacePath, "/description"},
		{"file url", func(p *Profile) { p.WebhookURL = "file:///srv/agent/hook" }, LintFileURL, "/webhook_url"},
		{"url userinfo", func(p *Profile) { p.WebhookURL = "https://user:pass@hooks.example.com/x" }, LintCredentialInURL, "/webhook_url"},
		{"url token param", func(p *Profile) { p.WebhookURL = "https://hooks.example.com/x?access_token=abc" }, LintCredentialInURL, "/webhook_url"},
		{"public false", func(p *Profile) { p.Public = &f }, LintPublicFalse, "/public"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := exampleProfile(t)
			tc.mutate(p)
			got := CheckPublic(p)
			if tc.rule == "" {
				assert.Empty(t, got)
				return
			}
			require.Len(t, got, 1, "%v", got)
			assert.Equal(t, tc.rule, got[0].Rule)
			assert.Equal(t, tc.pointer, got[0].Pointer)
			want := SeverityError
			if tc.rule == LintPublicFalse {
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
	got := CheckPublic(p)
	require.NotEmpty(t, got)
	for _, f := range got {
		assert.NotContains(t, f.Message, secret)
	}
	assert.Nil(t, CheckPublic(nil))
}

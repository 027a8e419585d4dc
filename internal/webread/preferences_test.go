package webread

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadPreferencesPerGroup(t *testing.T) {
	tests := []struct {
		name      string
		body      string
		groups    []PreferenceGroup
		truncated bool
	}{
		{
			name: "Cloudflare's managed robots.txt: one signal in the * group",
			body: "# As a condition of accessing this website...\nUser-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /\n",
			groups: []PreferenceGroup{{UserAgents: []string{"*"}, Lines: []PreferenceLine{
				{Name: ContentSignalName, Line: 3, Values: map[string]string{"search": "yes", "ai-train": "no"}}}}},
		},
		{
			name: "a signal per crawler group, upper case keys and values",
			body: "User-agent: Googlebot\nUser-agent: Bingbot\nCONTENT-SIGNAL: Search=YES, AI-Input=No\n\nUser-agent: *\nContent-Signal: ai-train=no\n",
			groups: []PreferenceGroup{
				{UserAgents: []string{"Googlebot", "Bingbot"}, Lines: []PreferenceLine{{Name: ContentSignalName, Line: 3, Values: map[string]string{"search": "yes", "ai-input": "no"}}}},
				{UserAgents: []string{"*"}, Lines: []PreferenceLine{{Name: ContentSignalName, Line: 6, Values: map[string]string{"ai-train": "no"}}}},
			},
		},
		{
			name: "a user-agent line after a signal starts a new group",
			body: "User-agent: *\nContent-Signal: search=yes\nUser-agent: ClaudeBot\nContent-Signal: ai-train=no\n",
			groups: []PreferenceGroup{
				{UserAgents: []string{"*"}, Lines: []PreferenceLine{{Name: ContentSignalName, Line: 2, Values: map[string]string{"search": "yes"}}}},
				{UserAgents: []string{"ClaudeBot"}, Lines: []PreferenceLine{{Name: ContentSignalName, Line: 4, Values: map[string]string{"ai-train": "no"}}}},
			},
		},
		{
			name: "IETF aipref Content-Usage, with and without a path",
			body: "User-Agent: *\nAllow: /\nContent-Usage: train-ai=n\nContent-Usage: /blog/ train-ai=y, search=y\n",
			groups: []PreferenceGroup{{UserAgents: []string{"*"}, Lines: []PreferenceLine{
				{Name: ContentUsageName, Line: 3, Values: map[string]string{"train-ai": "n"}},
				{Name: ContentUsageName, Line: 4, Path: "/blog/", Values: map[string]string{"train-ai": "y", "search": "y"}},
			}}},
		},
		{
			name: "malformed values are problems and are not kept",
			body: "User-agent: *\nContent-Signal: search=maybe, ai-train, , ai-input=no\nContent-Usage: train-ai=\"n\", search=?1\nContent-Usage: ((\n",
			groups: []PreferenceGroup{{UserAgents: []string{"*"}, Lines: []PreferenceLine{
				{Name: ContentSignalName, Line: 2, Values: map[string]string{"ai-input": "no"}, Problems: []string{
					`search="maybe": the value must be yes or no`, `"ai-train" is not key=value`, "an empty member between commas"}},
				{Name: ContentUsageName, Line: 3, Values: map[string]string{}, Problems: []string{
					"train-ai: the value must be the token y or n", "search: the value must be the token y or n"}},
				{Name: ContentUsageName, Line: 4, Values: map[string]string{}, Problems: []string{"not an RFC 9651 dictionary: (("}},
			}}},
		},
		{
			name: "a signal before any user-agent line belongs to no group",
			body: "Content-Signal: ai-train=no\nUser-agent: *\nDisallow:\n",
			groups: []PreferenceGroup{{UserAgents: []string{}, Lines: []PreferenceLine{
				{Name: ContentSignalName, Line: 1, Values: map[string]string{"ai-train": "no"}}}}},
		},
		{name: "no preference line", body: "User-agent: *\nDisallow: /private\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := ReadPreferences([]byte(tc.body))
			for i := range p.Groups {
				if p.Groups[i].UserAgents == nil {
					p.Groups[i].UserAgents = []string{}
				}
			}
			assert.Equal(t, tc.groups, p.Groups)
			assert.Equal(t, tc.truncated, p.Truncated)
		})
	}
}

// A file of endless groups and lines is read within the documented bounds
// and said to be truncated.
func TestReadPreferencesBounds(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < MaxRobotsBytes+1000; i++ {
		b.WriteString("User-agent: bot\nContent-Signal: search=yes\nContent-Usage: train-ai=n\n")
	}
	p := ReadPreferences([]byte(b.String()))
	require.True(t, p.Truncated)
	assert.LessOrEqual(t, len(p.Groups), MaxPreferenceGroups)
	n := 0
	for _, g := range p.Groups {
		n += len(g.Lines)
	}
	assert.LessOrEqual(t, n, MaxPreferenceLines)
}

func FuzzReadPreferences(f *testing.F) {
	f.Add([]byte("User-agent: *\nContent-Signal: search=yes, ai-train=no\nContent-Usage: /a train-ai=n;x=1, search=y\n"))
	f.Add([]byte("Content-Usage: ((\nContent-Signal: =,=\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		p := ReadPreferences(body)
		assert.LessOrEqual(t, len(p.Groups), MaxPreferenceGroups)
		for _, g := range p.Groups {
			for _, l := range g.Lines {
				for _, v := range l.Values {
					assert.Contains(t, []string{"yes", "no", "y", "n"}, v)
				}
			}
		}
	})
}

func BenchmarkReadPreferences(b *testing.B) {
	body := []byte(strings.Repeat("User-agent: GPTBot\nDisallow: /\n\n", 20) + "User-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nContent-Usage: train-ai=n\nAllow: /\n")
	b.ReportAllocs()
	for b.Loop() {
		ReadPreferences(body)
	}
}

// The header forms: a Content-Usage field is the dictionary alone
// (draft-ietf-aipref-attach), a Content-Signal field the line's value.
func TestParsePreferenceHeaders(t *testing.T) {
	u := ParseContentUsage("train-ai=n, search=y")
	assert.Equal(t, map[string]string{"train-ai": "n", "search": "y"}, u.Values)
	assert.Empty(t, u.Problems)
	assert.Empty(t, u.Path)
	bad := ParseContentUsage(`train-ai="n", search`)
	assert.Len(t, bad.Problems, 2, "a string and a bare true are not y or n")
	c := ParseContentSignal("ai-train=yes, search=yes, ai-input=yes")
	assert.Equal(t, map[string]string{"ai-train": "yes", "search": "yes", "ai-input": "yes"}, c.Values)
}

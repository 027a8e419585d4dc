package agentsignup

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckAcceptedTerms(t *testing.T) {
	doc, err := Parse(seedBytes(t))
	require.NoError(t, err)
	current := doc.Terms.SHA256
	previous := TermsHash("Example RP Terms of Service, 2025 edition.")
	replaced := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	grace := func(w time.Duration) *TermsGrace {
		return &TermsGrace{Previous: previous, Replaced: replaced, Window: w}
	}
	tests := []struct {
		name     string
		accepted string
		now      time.Time
		grace    *TermsGrace
		want     TermsAcceptance
		expired  bool // want a *TermsMismatchError with GraceExpired
		mismatch bool // want a *TermsMismatchError without GraceExpired
	}{
		{name: "current", accepted: current, now: replaced, want: TermsAcceptanceCurrent},
		{name: "current with grace", accepted: current, now: replaced.Add(48 * time.Hour), grace: grace(time.Hour), want: TermsAcceptanceCurrent},
		{name: "previous without grace", accepted: previous, now: replaced, mismatch: true},
		{name: "previous within grace", accepted: previous, now: replaced.Add(59 * time.Minute), grace: grace(time.Hour), want: TermsAcceptancePrevious},
		{name: "previous at grace start", accepted: previous, now: replaced, grace: grace(time.Hour), want: TermsAcceptancePrevious},
		{name: "previous at grace end", accepted: previous, now: replaced.Add(time.Hour), grace: grace(time.Hour), expired: true},
		{name: "previous after grace", accepted: previous, now: replaced.Add(2 * time.Hour), grace: grace(time.Hour), expired: true},
		{name: "previous before replacement", accepted: previous, now: replaced.Add(-time.Minute), grace: grace(time.Hour), expired: true},
		{name: "window capped at 24h: inside", accepted: previous, now: replaced.Add(23 * time.Hour), grace: grace(72 * time.Hour), want: TermsAcceptancePrevious},
		{name: "window capped at 24h: outside", accepted: previous, now: replaced.Add(25 * time.Hour), grace: grace(72 * time.Hour), expired: true},
		{name: "zero window", accepted: previous, now: replaced, grace: grace(0), expired: true},
		{name: "unknown hash", accepted: TermsHash("something else"), now: replaced, grace: grace(time.Hour), mismatch: true},
		{name: "empty hash", accepted: "", now: replaced, grace: &TermsGrace{Replaced: replaced, Window: time.Hour}, mismatch: true},
		{name: "upper-case hex is not the same hash", accepted: "sha256:" + "05435FA3EAEE7F3534B4A771AB2328D66D33F712F3534B29E9035717C246D953", now: replaced, mismatch: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CheckAcceptedTerms(doc, tt.accepted, tt.now, tt.grace)
			if !tt.expired && !tt.mismatch {
				require.NoError(t, err)
				assert.Equal(t, tt.want, got)
				return
			}
			assert.Empty(t, got)
			var me *TermsMismatchError
			require.ErrorAs(t, err, &me)
			assert.ErrorIs(t, err, ErrTermsMismatch)
			assert.Equal(t, tt.accepted, me.Accepted)
			assert.Equal(t, current, me.Current)
			assert.Equal(t, tt.expired, me.GraceExpired)
		})
	}
	_, err = CheckAcceptedTerms(nil, current, replaced, nil)
	assert.Error(t, err)
}

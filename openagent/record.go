package openagent

import "github.com/agentweb/agentweb/safefetch"

// Record is a profile as a reader retrieved it: the profile beside the
// facts a reader must keep about where and when it came from ([OpenAgent 0.1],
// "Publication and discovery"). The embedded [safefetch.Provenance] is the
// retrieval record every fetched document of this module carries: the
// declared and final URLs, redirects, status, validators and retrieval time.
// The profile's claims (owner, skills, pricing) remain unverified; see
// [Profile].
//
// [OpenAgent 0.1]: https://github.com/profullstack/logicsrc/blob/main/docs/openagent.md
type Record struct {
	safefetch.Provenance
	// Profile is the validated profile; nil when NotModified is set, because
	// the server confirmed the caller's cached profile without sending it.
	Profile *Profile `json:"profile,omitempty"`
	// Body is the exact bytes received; nil when NotModified is set.
	Body []byte `json:"-"`
}

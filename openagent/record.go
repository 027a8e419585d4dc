package openagent

import "time"

// Record is a profile as a reader retrieved it: the profile beside the
// facts a reader must keep about where and when it came from
// (openagent-0.1.md, "Publication and discovery"). The profile's claims
// (owner, skills, pricing) remain unverified; see [Profile].
type Record struct {
	// Profile is the validated profile.
	Profile *Profile
	// Body is the exact bytes received.
	Body []byte
	// SourceURL is the descriptor URL the reader asked for, never replaced.
	SourceURL string
	// FinalURL is the URL that answered, after redirects.
	FinalURL string
	// Retrieved is when the record was last fetched or revalidated.
	Retrieved time.Time
	// ETag and LastModified are the publisher's validators, "" when absent;
	// [Refresh] sends them back.
	ETag         string
	LastModified string
	// NotModified is true when the last [Refresh] got 304 Not Modified and
	// kept the cached profile.
	NotModified bool
}

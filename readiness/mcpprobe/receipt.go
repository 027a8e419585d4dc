package mcpprobe

// Receipt is the evidence of one probe. It says where the endpoint is and
// how it answered. It records the protocol versions offered, returned and
// negotiated, and whether initialize and tools/list succeeded. It says how
// sign-in is advertised and which documents sign-in discovery read. It
// counts the tools that answer without a token, and keeps the raw
// handshake. The probe never signs in and never calls a tool; [Tools] says
// what that leaves unknown.
type Receipt struct {
	// Development is true when the probe's client was in development mode
	// (safefetch.Options.AllowLoopback). Then http and loopback addresses
	// were allowed, as no probe of a public endpoint allows them.
	Development bool `json:"development,omitempty"`

	Endpoint string `json:"endpoint"`
	// Outcome classifies the answer; Reason says it in words, naming the
	// URL and the cause of every failure.
	Outcome Outcome `json:"outcome"`
	Reason  string  `json:"reason"`
	// Transport is "streamable-http" when the endpoint answered as MCP
	// Streamable HTTP: a JSON-RPC answer, or a 401 with a Bearer challenge.
	// It is "" when no transport was recognised.
	Transport  string   `json:"transport"`
	Protocol   Protocol `json:"protocol"`
	Initialize bool     `json:"initialize"`
	ToolsList  bool     `json:"tools_list"`
	// ServerInfo is the server's name and version from the initialize (or
	// server/discover) result, nil when none was read.
	ServerInfo *Implementation `json:"server_info,omitempty"`
	Auth       Auth            `json:"auth"`
	Tools      Tools           `json:"tools"`
	// Omissions names what a server that speaks 2026-07-28 left out of
	// what that version requires of its answers. That is ttlMs and
	// cacheScope on the server/discover result and on list results
	// ([MCP 2026-07-28] schema, CacheableResult). It is empty when nothing
	// is missing, or when the server does not speak 2026-07-28.
	//
	// [MCP 2026-07-28]: https://modelcontextprotocol.io/specification/2026-07-28
	Omissions []string `json:"omissions,omitempty"`
	// Retried is true when the session was run a second time because a
	// pooled connection was closed under the first.
	Retried bool `json:"retried,omitempty"`
	// Status is left empty by Probe. A scanner that judges the endpoint
	// records its verdict here; package readiness records mcp_discovery's.
	Status string `json:"status,omitempty"`
	// Handshake is the raw exchange, one entry per HTTP request of the MCP
	// session. Sign-in discovery's requests are in Auth.Documents.
	Handshake []Exchange `json:"handshake"`
}

// Outcome is how an endpoint answered the probe.
type Outcome string

// The outcomes of a probe.
const (
	// OutcomeListed: a session was established and tools/list answered
	// without a token.
	OutcomeListed Outcome = "listed"
	// OutcomeInitialized: a session was established, but tools/list failed
	// for another reason than a token (Reason says which).
	OutcomeInitialized Outcome = "initialized"
	// OutcomeSignInRequired: a request answered 401 with a Bearer
	// challenge, before or after the session was established. The endpoint
	// is MCP behind OAuth (MCP authorization, 2025-06-18 and later).
	OutcomeSignInRequired Outcome = "sign_in_required"
	// OutcomeUnauthorized: initialize answered 401 without a Bearer
	// challenge. Something asks for a credential, not by MCP's rules.
	OutcomeUnauthorized Outcome = "unauthorized"
	// OutcomeUnsupportedVersion: initialize answered with a protocol
	// version this client does not implement (Protocol.Returned).
	OutcomeUnsupportedVersion Outcome = "unsupported_version"
	// OutcomeNotMCP: the endpoint answered, but not as MCP.
	OutcomeNotMCP Outcome = "not_mcp"
	// OutcomeUnanswered: no answer that can be judged. It is a transport
	// failure, a time-out, a cap, or a refusal or server failure (403, 429,
	// 5xx). A transport failure is never read as a version or protocol
	// problem.
	OutcomeUnanswered Outcome = "unanswered"
)

// IsMCP reports whether the outcome shows an MCP endpoint: a session, a
// JSON-RPC answer to initialize, or a Bearer challenge.
func (o Outcome) IsMCP() bool {
	switch o {
	case OutcomeListed, OutcomeInitialized, OutcomeSignInRequired, OutcomeUnsupportedVersion:
		return true
	}
	return false
}

// Protocol records the protocol versions. It holds the first version
// offered and every offer in order: 2026-07-28's server/discover, then
// initialize. It holds what the server returned, and what the session
// negotiated ("" when no session was established).
type Protocol struct {
	Offered    string  `json:"offered"`
	Offers     []Offer `json:"offers"`
	Returned   string  `json:"returned"`
	Negotiated string  `json:"negotiated"`
}

// Offer is one version offer: the JSON-RPC method that carried it
// ("server/discover" or "initialize") and the version.
type Offer struct {
	RPC     string `json:"rpc"`
	Version string `json:"version"`
}

// Implementation is a server's name and version as it states them.
type Implementation struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// Auth records how sign-in is advertised and what sign-in discovery found.
// Mode is "none" (nothing asks for a token), "oauth" (a Bearer challenge,
// or OAuth metadata found) or "token" (a 401 without a Bearer challenge).
type Auth struct {
	Mode string `json:"mode"`
	// Challenge is the Bearer challenge of the first 401, nil when none.
	Challenge *Challenge `json:"challenge,omitempty"`
	// BeforeVersion is true when a 401 came before any protocol version
	// was negotiated. The discovery rules were then not agreed with the
	// server, and Rules names the version whose rules find the most.
	BeforeVersion bool `json:"before_version"`
	// Rules is the protocol version whose authorization discovery was
	// applied, or "" when discovery did not run. RulesReason says why that
	// one.
	Rules       string `json:"rules,omitempty"`
	RulesReason string `json:"rules_reason,omitempty"`
	// OAuthMetadata is true when authorization server metadata was found
	// whose issuer matches (RFC 8414 Section 3.3). Where protected resource
	// metadata was read, its resource must match too (RFC 9728 Section 3.3).
	OAuthMetadata       bool   `json:"oauth_metadata"`
	MetadataURL         string `json:"metadata_url,omitempty"`
	ResourceMetadataURL string `json:"resource_metadata_url,omitempty"`
	// ProtectedResource and AuthorizationServer are the documents used.
	// A document whose identifier does not match is never used. Its data
	// appears nowhere in the receipt but in its Document's Problem.
	ProtectedResource   *ProtectedResourceMetadata `json:"protected_resource,omitempty"`
	AuthorizationServer *AuthServerMetadata        `json:"authorization_server,omitempty"`
	// PKCE lists the code challenge methods of the authorization server
	// used. It is empty when the server states none; MCP 2025-11-25
	// clients must then refuse.
	PKCE []string `json:"pkce"`
	// DynamicRegistration: the authorization server used has a
	// registration endpoint (RFC 7591) or supports client ID metadata
	// documents. It is reported, and scored in neither direction.
	DynamicRegistration bool `json:"dynamic_registration"`
	// OriginFallback is true when, from 2025-06-18, no protected resource
	// metadata was found. The MCP server origin's RFC 8414 metadata (the
	// 2025-03-26 rule) was then used instead.
	OriginFallback bool `json:"origin_fallback,omitempty"`
	// RequirementsDocumentedAt is left empty by Probe. A scanner that
	// reads a capability card records here where the service states which
	// capabilities need a token.
	RequirementsDocumentedAt string `json:"requirements_documented_at,omitempty"`
	// Documents lists every discovery request in order, with the rule and
	// version that asked for it and why it was or was not used.
	Documents []Document `json:"documents"`
}

// Challenge is a Bearer challenge of a WWW-Authenticate field (RFC 6750
// Section 3, RFC 9728 Section 5.1). It holds where the challenge came from
// and the parameters a client reads.
type Challenge struct {
	URL              string `json:"url"`
	ResourceMetadata string `json:"resource_metadata,omitempty"`
	Scope            string `json:"scope,omitempty"`
	Error            string `json:"error,omitempty"`
}

// DocumentKind names a sign-in discovery document.
type DocumentKind string

// The discovery documents.
const (
	// KindProtectedResource: OAuth 2.0 Protected Resource Metadata
	// (RFC 9728).
	KindProtectedResource DocumentKind = "protected_resource"
	// KindAuthorizationServer: OAuth 2.0 Authorization Server Metadata
	// (RFC 8414).
	KindAuthorizationServer DocumentKind = "authorization_server"
	// KindOpenIDConfiguration: OpenID Connect Discovery 1.0 provider
	// metadata.
	KindOpenIDConfiguration DocumentKind = "openid_configuration"
)

// Document is one sign-in discovery request.
type Document struct {
	Kind DocumentKind `json:"kind"`
	URL  string       `json:"url"`
	// Rule is the discovery step that asked for the URL. Version is the
	// earliest MCP protocol version whose authorization rules include it.
	Rule    string `json:"rule"`
	Version string `json:"version"`
	// Status is the HTTP status, 0 when no response arrived.
	Status int `json:"status,omitempty"`
	// Unanswered is true when no answer can be judged: a transport
	// failure, a time-out, a refusal or a server failure.
	Unanswered bool `json:"unanswered,omitempty"`
	// Used is true when the document was read and its identifier matches.
	Used bool `json:"used"`
	// Problem says why the document was not used, or what is wrong with
	// one that was. It is "" when nothing is.
	Problem string `json:"problem,omitempty"`
}

// Tools counts the tools. ListedWithoutToken tools are listed, not usable.
// Authenticated is always nil: unknown, never 0, since the probe never
// signs in. WithReadOnlyHint is reported, not scored, because a hint is not
// behaviour. ExecutionTested is always false.
type Tools struct {
	ListedWithoutToken int  `json:"listed_without_token"`
	Authenticated      *int `json:"authenticated"`
	WithReadOnlyHint   int  `json:"with_read_only_hint"`
	ExecutionTested    bool `json:"execution_tested"`
	// Pages is the number of tools/list pages read. PagesCapped is true
	// when Options.MaxToolPages, or the probe's bound of 16 requests a
	// session, stopped the listing with more to come.
	Pages       int  `json:"pages"`
	PagesCapped bool `json:"pages_capped,omitempty"`
}

// Exchange is one HTTP request of the MCP session and its answer. It holds
// the JSON-RPC method the request carried and the version it offered. It
// holds the status and media type of the answer. It says whether a session
// id was sent and received, never its value.
type Exchange struct {
	RPC             string `json:"rpc,omitempty"`
	Offered         string `json:"offered,omitempty"`
	Method          string `json:"method"`
	URL             string `json:"url"`
	ProtocolHeader  string `json:"protocol_header,omitempty"`
	SessionIDSent   bool   `json:"session_id_sent"`
	Status          int    `json:"status,omitempty"`
	ContentType     string `json:"content_type,omitempty"`
	SessionID       bool   `json:"session_id"`
	WWWAuthenticate string `json:"www_authenticate,omitempty"`
	Bytes           int64  `json:"bytes"`
	Capped          bool   `json:"capped,omitempty"`
	// Error names a failure: "timeout", "response too large: capped", or
	// a transport failure.
	Error string `json:"error,omitempty"`
	// Body is the start of the response body, at most 2 KiB, for reading
	// the handshake.
	Body string `json:"body,omitempty"`
}

package problem

// The rules every package shares. A URL member that breaks one of them gets
// the same rule name whichever document it is in.
const (
	// RuleURLSyntax: the value is not an absolute URI (RFC 3986 Section 4.3).
	RuleURLSyntax = "url-syntax"
	// RuleURLHTTPS: the URL's scheme is not https where the specification
	// asks for it.
	RuleURLHTTPS = "url-https"
	// RuleURLUserinfo: the URL carries user information (RFC 3986 Section
	// 3.2.1), which no published URL may.
	RuleURLUserinfo = "url-userinfo"
	// RuleURLQuery: the URL has a query where the specification forbids one.
	RuleURLQuery = "url-query"
	// RuleURLFragment: the URL has a fragment where the specification
	// forbids one.
	RuleURLFragment = "url-fragment"
	// RuleURLPort: the URL names a port the specification does not allow.
	RuleURLPort = "url-port"
	// RuleURLPrivateAddress: the URL's host is an IP literal or name that
	// is not globally reachable.
	RuleURLPrivateAddress = "url-private-address"
	// RuleSchemaPrefix starts the name of a JSON Schema failure: the rule is
	// "schema-" followed by the failing keyword, such as "schema-required".
	RuleSchemaPrefix = "schema-"
)

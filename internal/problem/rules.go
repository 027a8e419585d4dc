package problem

import "strconv"

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

// urlPhrases is what each shared URL rule says, after the quoted value.
var urlPhrases = map[string]string{
	RuleURLSyntax:         "is not an absolute URL",
	RuleURLHTTPS:          "is not an https URL",
	RuleURLUserinfo:       "carries user information (user:password@), which no published URL may",
	RuleURLQuery:          "has a query, which this URL may not",
	RuleURLFragment:       "has a fragment, which this URL may not",
	RuleURLPort:           "names a port other than the default 443",
	RuleURLPrivateAddress: "names a host that is not globally reachable",
}

// URLMessage is the one wording of a shared URL rule in every package. It
// gives the value quoted (cut to 80 bytes) and what the rule says. Then it
// gives detail when it is not empty (" with a host", "; scheme http",
// ...). A rule that is not a URL rule gets the value and detail only.
func URLMessage(rule, value, detail string) string {
	if len(value) > 80 {
		value = value[:77] + "..."
	}
	msg := strconv.Quote(value)
	if p := urlPhrases[rule]; p != "" {
		msg += " " + p
	}
	return msg + detail
}

package agentic

import (
	"net/netip"
	"net/url"
	"strings"

	"github.com/agentweb/agentweb/internal/problem"
	"github.com/agentweb/agentweb/safefetch"
)

type urlProblem struct{ rule, message string }

// checkSiteURL applies every URL rule to raw and returns the problems found.
func checkSiteURL(raw string) []urlProblem {
	var out []urlProblem
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Opaque != "" || u.Host == "" {
		return []urlProblem{{RuleURLSyntax, problem.URLMessage(RuleURLSyntax, raw, " with a host")}}
	}
	if u.Scheme != "https" {
		out = append(out, urlProblem{RuleURLHTTPS, problem.URLMessage(RuleURLHTTPS, raw, "")})
	}
	if u.User != nil {
		out = append(out, urlProblem{RuleURLUserinfo, problem.URLMessage(RuleURLUserinfo, raw, "")})
	}
	if u.RawQuery != "" || u.ForceQuery {
		out = append(out, urlProblem{RuleURLQuery, problem.URLMessage(RuleURLQuery, raw, "")})
	}
	if u.Fragment != "" || strings.Contains(raw, "#") {
		out = append(out, urlProblem{RuleURLFragment, problem.URLMessage(RuleURLFragment, raw, "")})
	}
	if p := u.Port(); p != "" && p != "443" {
		out = append(out, urlProblem{RuleURLPort, problem.URLMessage(RuleURLPort, raw, " ("+p+")")})
	} else if strings.HasSuffix(u.Host, ":") {
		out = append(out, urlProblem{RuleURLSyntax, problem.URLMessage(RuleURLSyntax, raw, " with a host and a port: the port is empty")})
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") || host == "local" || strings.HasSuffix(host, ".local") {
		out = append(out, urlProblem{RuleURLPrivateAddress, problem.URLMessage(RuleURLPrivateAddress, raw, ": "+host+" is a local name")})
	}
	if a, err := netip.ParseAddr(host); err == nil {
		if safefetch.CheckAddr(a) != nil {
			out = append(out, urlProblem{RuleURLPrivateAddress, problem.URLMessage(RuleURLPrivateAddress, raw, ": "+a.String()+" is a local, private or reserved address")})
		}
	} else if strings.Contains(host, ":") || looksNumeric(host) {
		// An IPv6 literal with a zone, or a numeric IPv4 form that URL parsers
		// normalise (0x7f.1, 2130706433): refused rather than guessed.
		out = append(out, urlProblem{RuleURLPrivateAddress, problem.URLMessage(RuleURLPrivateAddress, raw, ": "+host+" is an address in a non-canonical form")})
	}
	return out
}

// looksNumeric reports whether host's last label is all digits or a hex
// number, which WHATWG URL parsing would read as an IPv4 address.
func looksNumeric(host string) bool {
	last := host
	if i := strings.LastIndexByte(host, '.'); i >= 0 {
		last = host[i+1:]
	}
	if last == "" {
		return false
	}
	if strings.HasPrefix(last, "0x") {
		return true
	}
	for _, c := range last {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// canonicalOrigin returns the canonical form of an https URL's origin:
// "https://" + lower-case host, without the default port.
func canonicalOrigin(u *url.URL) string {
	host := strings.ToLower(u.Hostname())
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if p := u.Port(); p != "" && p != "443" {
		host += ":" + p
	}
	return strings.ToLower(u.Scheme) + "://" + host
}

// checkOrigin applies the URL rules and requires a bare canonical origin.
func checkOrigin(raw string) []urlProblem {
	out := checkSiteURL(raw)
	for _, p := range out {
		if p.rule == RuleURLSyntax {
			return out
		}
	}
	u, _ := url.Parse(raw)
	if u.Path != "" || u.RawPath != "" {
		out = append(out, urlProblem{RuleOriginForm, "origin must be a bare origin without a path (not even \"/\")"})
	} else if c := canonicalOrigin(u); c != raw && len(out) == 0 {
		out = append(out, urlProblem{RuleOriginForm, "origin must be written in canonical form " + c})
	}
	return out
}

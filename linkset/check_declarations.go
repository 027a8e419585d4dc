package linkset

import (
	"strings"

	"github.com/agentweb/agentweb/internal/shorten"
)

// This file holds the rules of Section 4.3.3 (declaration attributes) of the
// knowledge-linkset draft. A client that meets an unknown value MUST NOT
// fail and reads it as the most restrictive member of its list. So an
// unknown value is a notice. A declaration on a link it does not ride on is
// an error for a publisher, and a notice for a reader, which ignores it. The
// exception is agsc-access on the access link, which the draft does not
// forbid and the reference implementation writes. It is a notice in every
// mode.

var (
	knownAccess     = map[string]bool{"none": true, "consent": true, "credential": true}
	knownContribute = map[string]bool{"pr": true, "channel": true}
	knownSurfaces   = map[string]bool{"llms-txt": true, "chunks": true, "mcp": true, "webmcp": true, "a2a-card": true, "solid": true, "responder": true}
)

func knownSurface(v string) bool {
	return knownSurfaces[v] || (strings.HasPrefix(v, "x-") && len(v) > 2)
}

func (c *checker) declaration(a *Attribute, aptr lazyPointer, short string, isGraph bool) {
	switch a.Name {
	case "agsc-visibility":
		if !isGraph {
			c.placement(aptr.at(""), RuleDeclarationPlacement, "4.3.3", "agsc-visibility rides only on the anchor's describedby link")
			return
		}
		if c.one(a, aptr, RuleDeclarationCount, "4.3.3") && a.Values[0] != "restricted" {
			c.ps.note(aptr.at("/0"), RuleDeclarationValue, "4.3.3", "agsc-visibility %q is unknown and read as restricted", shorten.Bytes(a.Values[0], 60))
		}
	case "agsc-tombstone":
		if !isGraph {
			c.placement(aptr.at(""), RuleDeclarationPlacement, "4.3.3", "agsc-tombstone rides only on the anchor's describedby link")
			return
		}
		if c.one(a, aptr, RuleDeclarationCount, "4.3.3") {
			if _, err := parseInstant(a.Values[0]); err != nil {
				c.ps.add(aptr.at("/0"), RuleTombstoneFormat, "4.3.3", "agsc-tombstone %q is not an instant of the form YYYY-MM-DDTHH:MM:SSZ", shorten.Bytes(a.Values[0], 60))
			}
		}
	case "agsc-surface", "agsc-surface-version", "agsc-access":
		if a.Name == "agsc-access" && short == "#access" {
			// Section 4.3.3 places agsc-access on a surface link, but
			// forbids it nowhere, and the reference writes it on the
			// access link of a gated node: a notice in every mode. A
			// client reads it from surface links only.
			c.ps.note(aptr.at(""), RuleDeclarationPlacement, "4.3.3", "agsc-access is read from surface links; on the access link a client ignores it")
			return
		}
		if short != "#surface" {
			c.placement(aptr.at(""), RuleDeclarationPlacement, "4.3.3", "%s rides only on a surface link", a.Name)
			return
		}
		if !c.one(a, aptr, RuleDeclarationCount, "4.3.3") {
			return
		}
		v := a.Values[0]
		switch {
		case a.Name == "agsc-access" && !knownAccess[v]:
			c.ps.note(aptr.at("/0"), RuleDeclarationValue, "4.3.3", "agsc-access %q is unknown and read as credential", shorten.Bytes(v, 60))
		case a.Name == "agsc-surface" && !knownSurface(v):
			if c.mode == ModeStrict {
				c.ps.add(aptr.at("/0"), RuleSurfaceValue, "4.3.3", "agsc-surface %q is not a known surface or an x- name", shorten.Bytes(v, 60))
			} else {
				c.ps.note(aptr.at("/0"), RuleDeclarationValue, "4.3.3", "agsc-surface %q is unknown and read as not served", shorten.Bytes(v, 60))
			}
		}
	case "agsc-contribute-mode":
		if short != "#contribute" {
			c.placement(aptr.at(""), RuleDeclarationPlacement, "4.3.3", "agsc-contribute-mode rides only on a contribute link")
			return
		}
		if c.one(a, aptr, RuleDeclarationCount, "4.3.3") && !knownContribute[a.Values[0]] {
			c.ps.note(aptr.at("/0"), RuleDeclarationValue, "4.3.3", "agsc-contribute-mode %q is unknown and read as not contributable", shorten.Bytes(a.Values[0], 60))
		}
	}
}

// surfaceVersion applies the reference validator's rule (ModeStrict): a
// surface defined by an external specification names the revision it
// targets, the others carry none.
func (c *checker) surfaceVersion(l *Link, lptr string) {
	s := l.FirstAttr("agsc-surface")
	_, has := l.Attr("agsc-surface-version")
	switch s {
	case "mcp", "webmcp", "a2a-card", "solid", "responder":
		if !has {
			c.ps.add(lptr, RuleSurfaceVersion, "4.3.3", "a %s surface names the revision it targets in agsc-surface-version", s)
		}
	case "llms-txt", "chunks":
		if has {
			c.ps.add(lptr+"/agsc-surface-version", RuleSurfaceVersion, "4.3.3", "a %s surface carries no agsc-surface-version", s)
		}
	}
}

package linkset

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/agentweb/agentweb/internal/shorten"
)

// This file holds the rules of Section 4.3.2 (bundle-fact attributes and
// the ledger head) of the knowledge-linkset draft.

var (
	instantRE   = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$`)
	countRE     = regexp.MustCompile(`^([a-z][a-z0-9-]*)=(0|[1-9][0-9]{0,17})$`)
	ledgerRE    = regexp.MustCompile(`^[0-9a-f]{64}$`)
	bundleVerRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$`)
)

const instantLayout = "2006-01-02T15:04:05Z"

// parseInstant reads YYYY-MM-DDTHH:MM:SSZ (Section 4.3.2).
func parseInstant(s string) (time.Time, error) {
	if !instantRE.MatchString(s) {
		return time.Time{}, fmt.Errorf("linkset: %q is not YYYY-MM-DDTHH:MM:SSZ", s)
	}
	return time.Parse(instantLayout, s)
}

// formatInstant writes t in UTC at second precision, as agsc-generated-at
// and agsc-tombstone carry it.
func formatInstant(t time.Time) string { return t.UTC().Format(instantLayout) }

// graphLink returns the anchor's describedby link to the Bundle's JSON-LD
// graph. The bundle facts and the agsc-visibility and agsc-tombstone
// declarations ride on it (Sections 4.3.2 and 4.3.3). It is the first
// such link that carries a bundle fact, else the first such link.
func (c *Context) graphLink() (ri, li int, l *Link) {
	ri, li = -1, -1
	for i := range c.Relations {
		r := &c.Relations[i]
		if !strings.EqualFold(r.Name, "describedby") {
			continue
		}
		for j := range r.Links {
			if !mediaTypeIs(r.Links[j].Type, "application/ld+json") {
				continue
			}
			if li < 0 {
				ri, li = i, j
			}
			if hasBundleFact(&r.Links[j]) {
				return i, j, &r.Links[j]
			}
		}
	}
	if li < 0 {
		return -1, -1, nil
	}
	return ri, li, &c.Relations[ri].Links[li]
}

func (c *Context) graph() *Link {
	_, _, l := c.graphLink()
	return l
}

var bundleFacts = []string{"agsc-spec-version", "agsc-generated-at", "agsc-counts", "agsc-bundle-hash", "agsc-bundle-version"}

func isBundleFact(name string) bool {
	switch name {
	case "agsc-spec-version", "agsc-generated-at", "agsc-counts", "agsc-bundle-hash", "agsc-bundle-version":
		return true
	}
	return false
}

func hasBundleFact(l *Link) bool {
	for _, a := range l.Attributes {
		if isBundleFact(a.Name) {
			return true
		}
	}
	return false
}

// factsPresent requires the bundle facts of the full form on the graph
// link; a gated node states only agsc-spec-version and agsc-generated-at
// (Section 9.5).
func (c *checker) factsPresent(graph *Link, gptr string, gated bool) {
	var missing []string
	for _, f := range bundleFacts {
		if _, ok := graph.Attr(f); ok {
			continue
		}
		if gated && f != "agsc-spec-version" && f != "agsc-generated-at" {
			continue
		}
		missing = append(missing, f)
	}
	if len(missing) > 0 {
		c.ps.add(gptr, RuleBundleFactMissing, "4.3.2", "the graph link lacks %s: a document that carries digests, bundle facts or a ledger is in the full form, which states the bundle facts (the reduced form of Section 4.4 omits every digest and bundle fact)", strings.Join(missing, ", "))
	}
}

// bundleHash compares agsc-bundle-hash with the digest of the graph link to
// the N-Quads serialization (Section 4.3.2).
func (c *checker) bundleHash(ctx *Context, want Digest, ptr string) {
	for _, l := range ctx.Relation(RelGraph) {
		if !mediaTypeIs(l.Type, "application/n-quads") {
			continue
		}
		got, ok, err := l.Digest()
		if !ok || err != nil {
			c.ps.add(ptr, RuleBundleHashTarget, "4.3.2", "agsc-bundle-hash must equal the digest of the graph link to the N-Quads serialization, which carries no readable digest")
			return
		}
		if got != want {
			c.ps.add(ptr, RuleBundleHashMismatch, "4.3.2", "agsc-bundle-hash differs from the digest of the graph link to the N-Quads serialization %s", l.Href)
		}
		return
	}
	c.ps.add(ptr, RuleBundleHashTarget, "4.3.2", "agsc-bundle-hash must equal the digest of the graph link to the N-Quads serialization, and there is no such link")
}

func (c *checker) bundleFact(a *Attribute, aptr lazyPointer) {
	switch a.Name {
	case "agsc-spec-version":
		if c.one(a, aptr, RuleBundleFactCount, "4.3.2") && a.Values[0] == "" {
			c.ps.add(aptr.at("/0"), RuleSpecVersionEmpty, "4.3.2", "agsc-spec-version is empty")
		}
	case "agsc-generated-at":
		if c.one(a, aptr, RuleBundleFactCount, "4.3.2") {
			if _, err := parseInstant(a.Values[0]); err != nil {
				c.ps.add(aptr.at("/0"), RuleGeneratedAtFormat, "4.3.2", "agsc-generated-at %q is not YYYY-MM-DDTHH:MM:SSZ (UTC, second precision, no offset)", shorten.Bytes(a.Values[0], 60))
			}
		}
	case "agsc-counts":
		prev := ""
		for k, v := range a.Values {
			m := countRE.FindStringSubmatch(v)
			if m == nil {
				c.ps.add(aptr.index(k), RuleCountsFormat, "4.3.2", "agsc-counts value %q is not <type-plural>=<n>", shorten.Bytes(v, 60))
				continue
			}
			if k > 0 && prev >= m[1] {
				c.ps.add(aptr.index(k), RuleCountsOrder, "4.3.2", "agsc-counts type %q does not follow %q in code point order (one value per type)", m[1], prev)
			}
			prev = m[1]
		}
	case "agsc-bundle-hash":
		if !c.one(a, aptr, RuleBundleFactCount, "4.3.2") {
			return
		}
		if _, err := ParseDigest(a.Values[0]); err != nil {
			c.ps.add(aptr.at("/0"), RuleBundleHashSyntax, "4.3.2", "agsc-bundle-hash is not in the digest syntax of Section 4.3.1: %s", problemOf(err).Message)
		}
	case "agsc-bundle-version":
		if !c.one(a, aptr, RuleBundleFactCount, "4.3.2") {
			return
		}
		if c.mode == ModeStrict && !bundleVerRE.MatchString(a.Values[0]) {
			c.ps.add(aptr.at("/0"), RuleBundleVersionSyntax, "4.3.2", "agsc-bundle-version %q is not 1 to 64 characters of [A-Za-z0-9._+-] starting with a letter or digit", shorten.Bytes(a.Values[0], 80))
		}
	}
}

// ledgerHead applies Section 4.3.2 to agsc-ledger-head: on the ledger link
// only, 64 lower-case hexadecimal digits.
func (c *checker) ledgerHead(a *Attribute, aptr lazyPointer, short string) {
	if short != "#ledger" {
		c.ps.add(aptr.at(""), RuleLedgerHeadPlacement, "4.3.2", "agsc-ledger-head rides only on the ledger link")
		return
	}
	if c.one(a, aptr, RuleLedgerHeadFormat, "4.3.2") && !ledgerRE.MatchString(a.Values[0]) {
		c.ps.add(aptr.at("/0"), RuleLedgerHeadFormat, "4.3.2", "agsc-ledger-head is not 64 lower-case hexadecimal digits")
	}
}

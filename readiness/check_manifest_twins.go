package readiness

import "bytes"

func init() {
	register(checkDef{id: "manifest_twins", needs: []resource{resCards}, run: checkManifestTwins})
}

// checkManifestTwins: the two agents.json copies say the same thing (the
// agent-readiness scoring method, Section 07, "twins must agree"): equal RFC 8785
// (JCS) bytes. Copies that are not capability cards (an empty object, a
// document of another kind) leave nothing to agree about: not applicable.
//
// [RFC 8785]: https://www.rfc-editor.org/rfc/rfc8785
func checkManifestTwins(s *scan) outcome {
	c := s.cardsRead()
	out := outcome{requests: []*fetched{c.wellKnown.f, c.root.f}}
	wk, rt := c.wellKnown, c.root
	isCard := func(c *cardCopy) bool { return c.card != nil && len(c.card.Names()) > 0 }
	switch {
	case wk.present && rt.present && !isCard(wk) && !isCard(rt):
		// Two copies of something that is not a card agree about nothing.
		out.verdict, out.received = VerdictNotApplicable, "neither copy of agents.json is a capability card (naming a publication, interface, sign-in or contact): no card to compare"
	case wk.present && rt.present:
		a, b := canonicalJSON(wk.f.body()), canonicalJSON(rt.f.body())
		if a != nil && b != nil && bytes.Equal(a, b) {
			out.verdict, out.received = VerdictPass, "both copies present and JSON-equal"
		} else {
			out.verdict, out.received = VerdictFail, "both copies present and they differ"
			if a == nil || b == nil {
				out.notes = append(out.notes, "at least one copy is not valid JSON, so they cannot agree")
			}
		}
	case !wk.f.answered() || !rt.f.answered():
		out.verdict, out.received = VerdictUnverified, "cannot compare: "+firstUnanswered(wk.f, rt.f).why()
	case (wk.present && !isCard(wk)) || (rt.present && !isCard(rt)):
		out.verdict, out.received = VerdictNotApplicable, "only one copy of agents.json, and it is not a capability card"
	case wk.present || rt.present:
		out.verdict, out.received = VerdictPass, "only one copy, nothing to disagree with"
	default:
		out.verdict, out.received = VerdictNotApplicable, "no copy of agents.json"
	}
	return out
}

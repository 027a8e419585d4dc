package readiness

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/agentweb/agentweb/internal/plural"
	"github.com/agentweb/agentweb/internal/shorten"
	"github.com/agentweb/agentweb/readiness/agentsjson"
)

func init() {
	register(checkDef{id: "capability_manifest", needs: []resource{resCards}, run: checkCapabilityManifest})
}

// checkCapabilityManifest: R5, a machine-readable capability manifest (the
// check catalogue). It is a card at /.well-known/agents.json or /agents.json
// naming a publication, an interface, a sign-in or a contact. Else another
// recognised manifest earns partial credit.
func checkCapabilityManifest(s *scan) outcome {
	c := s.cardsRead()
	out := outcome{requests: []*fetched{c.wellKnown.f, c.root.f}}
	for _, cp := range []*cardCopy{c.wellKnown, c.root} {
		if cp.card != nil {
			if names := cp.card.Names(); len(names) > 0 {
				out.verdict = VerdictPass
				out.received = fmt.Sprintf("a card at %s naming %s", cp.f.url, strings.Join(names, ", "))
				if len(cp.card.Formats) > 0 {
					out.notes = append(out.notes, "card fields recognised: "+formatList(cp.card.Formats))
				}
				out.notes = append(out.notes, skippedNotes(cp.f.url, cp.card.Skipped)...)
				return out
			}
			if cp.card.Foreign != "" {
				out.notes = append(out.notes, cp.f.url+" is "+cp.card.Foreign+", not a capability card")
			} else {
				out.notes = append(out.notes, cp.f.url+" is a JSON object but names no publication, interface, sign-in or contact")
			}
		} else if cp.present && cp.jsonErr != nil {
			out.notes = append(out.notes, cp.f.url+" is not valid JSON: "+clean(cp.jsonErr.Error()))
		} else if cp.present {
			out.notes = append(out.notes, cp.f.url+" is JSON but not an object")
		}
	}
	unanswered := !c.wellKnown.f.answered() || !c.root.f.answered()
	others := s.otherManifests()
	var found []string
	for _, m := range others {
		out.requests = append(out.requests, m.f)
		if m.recognised() {
			found = append(found, m.kind+" at "+m.f.url)
		}
	}
	switch {
	case len(found) > 0:
		out.verdict = VerdictPartial
		out.received = "no card, but " + strings.Join(found, "; ")
		out.notes = append(out.notes, "other manifests are recognised by shape here; their validation is the optional conventions' job")
	case unanswered:
		out.verdict = VerdictUnverified
		out.received = "agents.json: " + firstUnanswered(c.wellKnown.f, c.root.f).why()
	default:
		out.verdict = VerdictFail
		out.received = "no capability card and no other recognised manifest"
	}
	return out
}

func formatList(fs []agentsjson.Format) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = string(f)
	}
	return strings.Join(parts, ", ")
}

// skippedNotes names, in a few notes, what the card reader could not read.
func skippedNotes(source string, ps []agentsjson.Problem) []string {
	const shown = 3
	var out []string
	for i, p := range ps {
		if i == shown {
			out = append(out, fmt.Sprintf("%s: %s not read", source, plural.N(len(ps)-shown, "more member", "more members")))
			break
		}
		out = append(out, fmt.Sprintf("%s: not read: %s: %s", source, cmp.Or(p.Pointer, "(the card)"), shorten.Runes(clean(p.Message), 120)))
	}
	return out
}

func firstUnanswered(fs ...*fetched) *fetched {
	for _, f := range fs {
		if !f.answered() {
			return f
		}
	}
	return fs[0]
}

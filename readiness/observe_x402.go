package readiness

import (
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/agentweb/agentweb/internal/plural"
	"github.com/agentweb/agentweb/internal/shorten"
	"github.com/agentweb/agentweb/internal/strictjson"
)

// x402Requirements validates a 402 answer's payment requirements (x402 protocol
// specification). Version 2 carries them base64-encoded in the PAYMENT-REQUIRED
// header, version 1 as the JSON body. Either is an object with x402Version and
// a non-empty accepts array. Each entry names a scheme, a network, a payTo
// address and an amount: maxAmountRequired in version 1, amount in version 2.
// It returns a description and the problems.
func x402Requirements(f *fetched) (string, []string) {
	var doc []byte
	where := "body"
	if h := f.resp.Header.Get("Payment-Required"); h != "" {
		where = "PAYMENT-REQUIRED header"
		b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(h))
		if err != nil {
			if b, err = base64.URLEncoding.DecodeString(strings.TrimSpace(h)); err != nil {
				return "", []string{"the PAYMENT-REQUIRED header is not base64"}
			}
		}
		doc = b
	} else {
		doc = f.body()
	}
	v, err := strictjson.Decode(doc)
	if err != nil {
		return "", []string{"the " + where + " is not JSON payment requirements"}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return "", []string{"the " + where + " is not a JSON object"}
	}
	var problems []string
	ver := fmt.Sprint(m["x402Version"])
	if ver != "1" && ver != "2" {
		problems = append(problems, "/x402Version: not 1 or 2")
	}
	amount := "maxAmountRequired"
	if ver == "2" {
		amount = "amount"
	}
	accepts, _ := m["accepts"].([]any)
	if len(accepts) == 0 {
		problems = append(problems, "/accepts: no payment option")
	}
	var schemes []string
	for i, a := range accepts[:min(len(accepts), 20)] {
		o, ok := a.(map[string]any)
		if !ok {
			problems = append(problems, fmt.Sprintf("/accepts/%d: not an object", i))
			continue
		}
		for _, k := range []string{"scheme", "network", "payTo", amount} {
			if str(o[k]) == "" {
				problems = append(problems, fmt.Sprintf("/accepts/%d/%s: missing", i, k))
			}
		}
		schemes = append(schemes, shorten.Runes(clean(str(o["scheme"])+" on "+str(o["network"])), 60))
	}
	return fmt.Sprintf("x402 version %s payment requirements in the %s (%s)", ver, where, strings.Join(schemes, ", ")), problems
}

func observeX402(s *scan) obsOutcome {
	paid := s.paid
	out := obsOutcome{
		expected: "a 402 Payment Required answer carrying x402 payment requirements, among the answers the scan received",
		requests: paid,
	}
	if len(paid) == 0 {
		out.status, out.received = ObservationAbsent, "absent: no request of the scan was answered 402 Payment Required"
		out.meaning = meaning(out.status, "", "nothing the scan read asks for payment")
		return out
	}
	var found []string
	for _, f := range paid[:min(len(paid), 5)] {
		what, problems := x402Requirements(f)
		if len(problems) > 0 {
			for _, p := range problems {
				out.notes = append(out.notes, f.url+": "+p)
			}
			continue
		}
		found = append(found, f.url+": "+what)
	}
	switch {
	case len(found) > 0:
		out.status, out.received = ObservationFound, "found: "+strings.Join(found, "; ")
	default:
		out.status, out.received = ObservationInvalid, plural.N(len(paid), "answer", "answers")+" 402 Payment Required, none with valid x402 payment requirements"
	}
	out.meaning = meaning(out.status, "an agent with an x402 wallet can pay for what it asked and retry", "")
	return out
}

package readiness

import "fmt"

// fixFor returns the report's fix for a check's verdict. It is empty for pass,
// optional and not_applicable, and the check's own text otherwise. For
// unverified, a sentence comes first that says the check could not be answered.
func fixFor(id string, v Verdict) string {
	r, ok := rowOf(id)
	if !ok || r.fix == "" {
		return ""
	}
	switch v {
	case VerdictPass, VerdictOptional, VerdictNotApplicable:
		return ""
	case VerdictUnverified:
		if r.neverVerifiable {
			return r.fix
		}
		return "The scan could not answer this check (see the receipt): make sure the requests it lists answer within the budget, then scan again. " + r.fix
	}
	return r.fix
}

// fixUnread is the fix of an unverified check whose every request answered.
// What kept it from an answer is something the scan did not read or run, named
// in the receipt. It is not a request that failed.
func fixUnread(id string) string {
	f := fixOf(id)
	if f == "" {
		return ""
	}
	return "Every request of this check answered, but the scan could not read all it needs (see the receipt's notes): serve the content in the HTML, or scan with a browser (readiness/browser), then scan again. " + f
}

// Fix returns what to publish or change so that the check passes: the text
// a report gives as [CheckResult].Fix when the check fails or is partial.
// It is empty for an optional convention (weight 0), which leaves no points
// to win, and for an id outside the catalogue.
func (c CheckSpec) Fix() string { return fixOf(c.ID) }

// fixTooLarge is the fix of an unverified check that needed an answer over the
// per-response cap. The cap, not the site's content, kept it from an answer. So
// the check's own fix is not repeated.
func fixTooLarge(maxBody int64) string {
	return fmt.Sprintf("An answer this check needs is larger than the scan's cap of %s per response (see the receipt), so the scan could not read it: serve a smaller page, or scan again with a larger cap (readiness.Options.MaxBodyBytes; the command's -max-body flag).", byteSize(maxBody))
}

// byteSize writes n bytes in the largest binary unit that divides it.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

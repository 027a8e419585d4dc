package readiness

// Verdict is how a check landed. The agent-readiness scoring method, Section
// 06, names four verdicts: pass, partial, optional, fail. It says that a probe
// that could not be answered is never a pass and is listed apart. This package
// spells that as unverified. It adds not_applicable for a check that cannot
// apply to the site.
type Verdict string

// The six verdicts, as they appear in every form of the report.
const (
	// VerdictPass: what the clause asks for came back (credit 1).
	VerdictPass Verdict = "pass"
	// VerdictPartial: part of it is in place; the receipt names the missing half (credit 0.5).
	VerdictPartial Verdict = "partial"
	// VerdictFail: it was asked for and nothing was there (credit 0).
	VerdictFail Verdict = "fail"
	// VerdictOptional: an optional convention, recorded as found or absent (weight 0).
	VerdictOptional Verdict = "optional"
	// VerdictNotApplicable: the check cannot apply to this site; it leaves the denominator.
	VerdictNotApplicable Verdict = "not_applicable"
	// VerdictUnverified: the probe could not be answered (refusal, timeout, a redirect
	// that never ends, budget exhausted). It earns 0, keeps its weight and is
	// listed apart. It is never a pass and never a fail.
	VerdictUnverified Verdict = "unverified"
)

// Credit is the fraction of its weight a verdict earns: 1 for pass, 0.5 for
// partial, 0 for everything else.
func (v Verdict) Credit() float64 {
	switch v {
	case VerdictPass:
		return 1
	case VerdictPartial:
		return 0.5
	}
	return 0
}

// Valid reports whether v is one of the six verdicts.
func (v Verdict) Valid() bool {
	switch v {
	case VerdictPass, VerdictPartial, VerdictFail, VerdictOptional, VerdictNotApplicable, VerdictUnverified:
		return true
	}
	return false
}

// counts reports whether the verdict keeps the check's weight in its section's
// denominator: every verdict but not_applicable does (optional checks weigh 0).
func (v Verdict) counts() bool { return v != VerdictNotApplicable }

// leavesWork reports whether the verdict leaves the site's owner something to
// do, so that a check result may carry a fix. That is fail, partial and
// unverified. A not_applicable check left the denominator: nothing to do.
func (v Verdict) leavesWork() bool {
	return v != VerdictPass && v != VerdictOptional && v != VerdictNotApplicable
}

// meets reports whether the verdict satisfies a requirement: pass or
// not_applicable.
func (v Verdict) meets() bool { return v == VerdictPass || v == VerdictNotApplicable }

// severity orders the verdicts that do not meet a requirement, worst first, to
// pick the one a requirement reports.
func (v Verdict) severity() int {
	switch v {
	case VerdictFail:
		return 4
	case VerdictUnverified:
		return 3
	case VerdictPartial:
		return 2
	case VerdictOptional:
		return 1
	}
	return 0
}

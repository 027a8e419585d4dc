package agentic

import (
	"errors"
	"fmt"
	"strings"
)

// existingProfile reads a fetched profile: a valid site profile on this
// origin or a valid action profile ends the scan.
func (s *scan) existingProfile(r *fetched, d *Discovery, explicit bool) bool {
	if !r.ok {
		if r.rec.StatusCode != 404 && r.rec.StatusCode != 410 {
			s.fail(r)
		}
		if explicit {
			s.report.Notes = append(s.report.Notes, "The named profile "+r.rec.URL+" could not be read; a new profile was generated.")
		}
		return false
	}
	pu := r.rec.URL
	if site, err := ParseSite(r.body); err == nil {
		if site.Origin != s.originS {
			s.report.Notes = append(s.report.Notes, fmt.Sprintf("The profile at %s is valid but describes origin %s; it was not used.", pu, site.Origin))
			return false
		}
		if s.opts.Regenerate {
			s.report.Existing = &ExistingProfile{URL: pu, Outcome: OutcomeExistingSite, Site: site}
			s.report.Notes = append(s.report.Notes, "A valid site profile is already published at "+pu+"; Regenerate was asked, so a new profile was built from what the site publishes to replace it.")
			return false
		}
		d.Outcome, d.Site, d.ProfileURL = OutcomeExistingSite, site, pu
		s.report.Notes = append(s.report.Notes, "A valid site profile is already published at "+pu+"; it is kept unchanged and its TXT regenerated.")
		return true
	} else if errors.Is(err, ErrActionProfile) {
		ap, aerr := ParseActionProfile(r.body)
		if aerr != nil {
			s.report.Notes = append(s.report.Notes, "The action profile at "+pu+" is not valid: "+aerr.Error())
			return false
		}
		if ap.Origin != s.originS {
			s.report.Notes = append(s.report.Notes, fmt.Sprintf("The action profile at %s describes origin %s; it was not used.", pu, ap.Origin))
			return false
		}
		if s.opts.Regenerate {
			s.report.Existing = &ExistingProfile{URL: pu, Outcome: OutcomeExistingAction, Action: ap}
			s.report.Notes = append(s.report.Notes, "A valid Action Profile 1.0 is already published at "+pu+"; Regenerate was asked, so a site profile was built from what the site publishes to replace it.")
			return false
		}
		d.Outcome, d.Action, d.ProfileURL = OutcomeExistingAction, ap, pu
		s.report.Notes = append(s.report.Notes, "A valid Action Profile 1.0 is published at "+pu+"; it is preserved byte for byte and its Action TXT regenerated.")
		for _, a := range ap.Actions {
			s.report.Bindings = append(s.report.Bindings, BindingCheck{Document: pu, Status: BindingStatusNotChecked,
				Reason: "the OpenAPI binding of action " + quoteTXT(a.ID) + " is not checked by this generator"})
		}
		return true
	} else {
		s.report.Notes = append(s.report.Notes, "The profile at "+pu+" is not valid and was replaced by a generated one: "+firstLine(err.Error()))
	}
	return false
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

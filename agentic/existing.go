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
	site, err := ParseSite(r.body)
	switch {
	case err == nil:
		return s.useExisting(d, &ExistingProfile{URL: pu, Outcome: OutcomeExistingSite, Site: site}, site.Origin, siteNotes)
	case errors.Is(err, ErrActionProfile):
		ap, aerr := ParseActionProfile(r.body)
		if aerr != nil {
			s.report.Notes = append(s.report.Notes, "The action profile at "+pu+" is not valid: "+aerr.Error())
			return false
		}
		if !s.useExisting(d, &ExistingProfile{URL: pu, Outcome: OutcomeExistingAction, Action: ap}, ap.Origin, actionNotes) {
			return false
		}
		for _, a := range ap.Actions {
			s.report.Bindings = append(s.report.Bindings, BindingCheck{Document: pu, Status: BindingStatusNotChecked,
				Reason: "the OpenAPI binding of action " + quoteTXT(a.ID) + " is not checked by this generator"})
		}
		return true
	}
	s.report.Notes = append(s.report.Notes, "The profile at "+pu+" is not valid and was replaced by a generated one: "+firstLine(err.Error()))
	return false
}

// existingNotes are the report notes about one kind of valid published
// profile. Each note formats the profile's URL; otherOrigin adds the origin
// the profile describes.
type existingNotes struct{ otherOrigin, replaced, kept string }

var (
	siteNotes = existingNotes{
		otherOrigin: "The profile at %s is valid but describes origin %s; it was not used.",
		replaced:    "A valid site profile is already published at %s; Regenerate was asked, so a new profile was built from what the site publishes to replace it.",
		kept:        "A valid site profile is already published at %s; it is kept unchanged and its TXT regenerated.",
	}
	actionNotes = existingNotes{
		otherOrigin: "The action profile at %s describes origin %s; it was not used.",
		replaced:    "A valid Action Profile 1.0 is already published at %s; Regenerate was asked, so a site profile was built from what the site publishes to replace it.",
		kept:        "A valid Action Profile 1.0 is published at %s; it is preserved byte for byte and its Action TXT regenerated.",
	}
)

// useExisting decides what the valid profile ex does to the scan. A profile
// of another origin is not used. With Regenerate it is reported and
// replaced. Otherwise it becomes the Discovery, and useExisting returns true.
func (s *scan) useExisting(d *Discovery, ex *ExistingProfile, origin string, notes existingNotes) bool {
	switch {
	case origin != s.originS:
		s.report.Notes = append(s.report.Notes, fmt.Sprintf(notes.otherOrigin, ex.URL, origin))
		return false
	case s.opts.Regenerate:
		s.report.Existing = ex
		s.report.Notes = append(s.report.Notes, fmt.Sprintf(notes.replaced, ex.URL))
		return false
	}
	d.Outcome, d.Site, d.Action, d.ProfileURL = ex.Outcome, ex.Site, ex.Action, ex.URL
	s.report.Notes = append(s.report.Notes, fmt.Sprintf(notes.kept, ex.URL))
	return true
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

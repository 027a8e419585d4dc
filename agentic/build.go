package agentic

import (
	"cmp"
	"fmt"
	"sort"
)

// build assembles the site profile from what the scan read.
func (s *scan) build(d *Discovery) error {
	if len(s.retrieved) == 0 {
		return ErrNothingRetrieved
	}
	site := &Site{Agentic: Version, Type: TypeSite, Origin: s.originS, APIs: []API{}}
	site.Name = cutRunes(cleanText(cmp.Or(s.opts.Name, s.home.siteName, s.home.title)), maxNameLength)
	if site.Name == "" {
		site.Name = s.origin.Hostname()
	}
	site.Description = cutRunes(cleanText(cmp.Or(s.opts.Description, s.home.description)), maxDescriptionLength)
	if site.Description == "" {
		site.Description = "Public documents and agent connections of " + s.origin.Hostname() + "."
	}
	var res []Resource
	for _, u := range s.order {
		r := s.retrieved[u]
		res = append(res, Resource{Kind: r.kind, URL: r.url, Source: r.source, Availability: AvailabilityRetrieved, Title: cutRunes(r.title, maxTitleLength)})
	}
	for _, c := range s.linked {
		if rd, ok := s.retrieved[c.url]; ok && rd.kind == c.kind {
			continue
		}
		if _, moved := s.movedTo[c.url]; moved {
			continue // read at the URL it redirected to
		}
		if c.kind == KindAgentic && s.sameSite(c.url) {
			continue // a nested profile that was not used is not a resource of this one
		}
		res = append(res, Resource{Kind: c.kind, URL: c.url, Source: c.source, Availability: AvailabilityLinked, Title: c.title})
	}
	res = dedupeResources(res)
	sort.SliceStable(res, func(i, j int) bool {
		if res[i].Kind != res[j].Kind {
			return res[i].Kind < res[j].Kind
		}
		return res[i].URL < res[j].URL
	})
	if len(res) > maxResources {
		res = s.trimResources(res)
	}
	site.Resources = res
	s.buildAPIs(site)
	s.fitSize(site)
	if err := site.Validate(); err != nil {
		return fmt.Errorf("agentic: generated profile is invalid: %w", err)
	}
	d.Site, d.Outcome = site, OutcomeGenerated
	return nil
}

func dedupeResources(res []Resource) []Resource {
	seen := map[string]bool{}
	out := res[:0]
	for _, r := range res {
		k := string(r.Kind) + " " + r.URL
		if !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	return out
}

// trimResources keeps the forty most useful resources: retrieved before
// linked, then by kind order, and reports the rest.
func (s *scan) trimResources(res []Resource) []Resource {
	keep := append([]Resource(nil), res...)
	sort.SliceStable(keep, func(i, j int) bool {
		ri, rj := keep[i].Availability == AvailabilityRetrieved, keep[j].Availability == AvailabilityRetrieved
		if ri != rj {
			return ri
		}
		return kindRank(keep[i].Kind) < kindRank(keep[j].Kind)
	})
	dropped := keep[maxResources:]
	keep = keep[:maxResources]
	for _, r := range dropped {
		s.report.Linked = append(s.report.Linked, LinkedURL{URL: r.URL, Kind: r.Kind, Source: r.Source, Reason: "left out: the profile holds at most 40 resources"})
	}
	s.report.Truncations = append(s.report.Truncations, Truncation{Pointer: "/resources", Reason: fmt.Sprintf("%d resources found; the profile holds at most %d", len(res), maxResources), Dropped: len(dropped)})
	sort.SliceStable(keep, func(i, j int) bool {
		if keep[i].Kind != keep[j].Kind {
			return keep[i].Kind < keep[j].Kind
		}
		return keep[i].URL < keep[j].URL
	})
	return keep
}

// fitSize shortens operation indexes, then linked resources, until the
// compact JSON and both TXT forms fit in 64 KiB.
func (s *scan) fitSize(site *Site) {
	fits := func() bool {
		if len(site.compact()) > maxProfileBytes {
			return false
		}
		pu, err := profileURLFor(site.Origin, s.report.ProfileURL)
		if err != nil {
			return true
		}
		b := site.appendText(nil, pu, textVersion12)
		return len(appendReferences(b)) <= maxTextBytes
	}
	droppedOps := map[int]int{}
	for guard := 0; !fits() && guard < 1000; guard++ {
		largest := -1
		for i, a := range site.APIs {
			if len(a.Operations) > 0 && (largest < 0 || len(a.Operations) > len(site.APIs[largest].Operations)) {
				largest = i
			}
		}
		if largest >= 0 {
			ops := site.APIs[largest].Operations
			n := max(1, len(ops)/10)
			site.APIs[largest].Operations = ops[:len(ops)-n]
			droppedOps[largest] += n
			continue
		}
		// Only resources are left: drop the last linked one.
		dropped := false
		for i := len(site.Resources) - 1; i >= 0; i-- {
			if site.Resources[i].Availability == AvailabilityLinked {
				r := site.Resources[i]
				site.Resources = append(site.Resources[:i], site.Resources[i+1:]...)
				s.report.Truncations = append(s.report.Truncations, Truncation{Pointer: "/resources", Reason: "left out " + r.URL + " to keep the files within 64 KiB", Dropped: 1})
				dropped = true
				break
			}
		}
		if !dropped {
			break
		}
	}
	for i, n := range droppedOps {
		s.report.Truncations = append(s.report.Truncations, Truncation{Pointer: idx("/apis", i) + "/operations", Reason: "shortened to keep agentic.json and agentic.txt within 64 KiB", Dropped: n})
	}
}

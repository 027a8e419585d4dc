package readiness

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
)

// Bounds of the JSON-LD reader.
const (
	maxLDNodes = 1000
	maxLDDepth = 32
)

// ldNode is a JSON-LD node object with a @type: its schema.org type names
// (prefixes such as "https://schema.org/" removed) and its members.
type ldNode struct {
	types []string
	m     map[string]any
}

func (n ldNode) is(set map[string]bool) bool {
	for _, t := range n.types {
		if set[t] {
			return true
		}
	}
	return false
}

// has reports a non-empty value for key: a non-blank string, or a non-empty
// object or array.
func (n ldNode) has(key string) bool {
	switch v := n.m[key].(type) {
	case string:
		return strings.TrimSpace(v) != ""
	case []any:
		return len(v) > 0
	case map[string]any:
		return len(v) > 0
	}
	return false
}

// ldResult is what the JSON-LD blocks of a page hold.
type ldResult struct {
	blocks    int
	parseErrs []string
	nodes     []ldNode
}

// readJSONLD parses each block as JSON and collects every typed node: the
// top-level objects, the members of @graph and typed objects nested in
// property values, within bounds.
func readJSONLD(blocks []string) ldResult {
	var r ldResult
	for _, b := range blocks {
		r.blocks++
		v, err := decodeJSONLD(b)
		if err != nil {
			r.parseErrs = append(r.parseErrs, err.Error())
			continue
		}
		r.collect(v, 0)
	}
	return r
}

func decodeJSONLD(b string) (any, error) {
	b = strings.TrimSpace(b)
	// Some pages wrap the block in an HTML comment or CDATA; browsers and
	// search engines tolerate it.
	b = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(b, "<!--"), "-->"))
	b = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(b, "//<![CDATA["), "//]]>"))
	if b == "" {
		return nil, errors.New("empty JSON-LD block")
	}
	d := json.NewDecoder(bytes.NewReader([]byte(b)))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("data after the JSON value")
	}
	return v, nil
}

func (r *ldResult) collect(v any, depth int) {
	if depth > maxLDDepth || len(r.nodes) >= maxLDNodes {
		return
	}
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			r.collect(e, depth+1)
		}
	case map[string]any:
		if types := ldTypes(x["@type"]); len(types) > 0 {
			r.nodes = append(r.nodes, ldNode{types: types, m: x})
		}
		for k, e := range x {
			if k == "@context" {
				continue
			}
			switch e.(type) {
			case []any, map[string]any:
				r.collect(e, depth+1)
			}
		}
	}
}

func ldTypes(v any) []string {
	var raw []string
	switch t := v.(type) {
	case string:
		raw = []string{t}
	case []any:
		for _, e := range t {
			if s, ok := e.(string); ok {
				raw = append(raw, s)
			}
		}
	}
	var out []string
	for _, s := range raw {
		s = strings.TrimSpace(s)
		for _, p := range []string{"https://schema.org/", "http://schema.org/", "schema:"} {
			s = strings.TrimPrefix(s, p)
		}
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// organisationTypes are schema.org Organization and its subtypes that name a
// business (including LocalBusiness and its common subtypes).
var organisationTypes = set(
	"Organization", "Corporation", "OnlineBusiness", "OnlineStore", "NGO", "NewsMediaOrganization",
	"EducationalOrganization", "GovernmentOrganization", "MedicalOrganization", "SportsOrganization",
	"PerformingGroup", "Airline", "Consortium", "LibrarySystem", "ResearchOrganization", "WorkersUnion",
	"FundingScheme", "Project", "PoliticalParty", "Cooperative", "SearchRescueOrganization",
	"LocalBusiness", "Store", "Restaurant", "FoodEstablishment", "ProfessionalService", "FinancialService",
	"LodgingBusiness", "Hotel", "AutomotiveBusiness", "HealthAndBeautyBusiness", "HomeAndConstructionBusiness",
	"LegalService", "RealEstateAgent", "TravelAgency", "EntertainmentBusiness", "SportsActivityLocation",
	"MedicalBusiness", "Dentist", "Physician", "ClothingStore", "ElectronicsStore", "BookStore", "CafeOrCoffeeShop",
	"BarOrPub", "Bakery", "EmploymentAgency", "InternetCafe", "Library", "RadioStation", "TelevisionStation",
	"ShoppingCenter", "SelfStorage", "TouristInformationCenter", "ChildCare", "DryCleaningOrLaundry",
	"EmergencyService", "GovernmentOffice", "AnimalShelter", "ArchiveOrganization", "Brewery", "Winery",
	"SportingGoodsStore", "OutletStore", "HardwareStore", "GroceryStore", "FurnitureStore", "JewelryStore",
)

// businessTypes are the node types structured_business_data accepts
// (readiness-checks.md): organisations, products, services and software.
var businessTypes = func() map[string]bool {
	m := set("Product", "ProductGroup", "ProductModel", "IndividualProduct", "SomeProducts", "Vehicle",
		"Service", "FinancialProduct", "BroadcastService", "CableOrSatelliteService", "FoodService", "GovernmentService", "Taxi", "TaxiService", "WebAPI",
		"SoftwareApplication", "WebApplication", "MobileApplication", "VideoGame")
	for k := range organisationTypes {
		m[k] = true
	}
	return m
}()

// identityTypes are the types of the node that represents who the site is.
var identityTypes = func() map[string]bool {
	m := set("Person")
	for k := range organisationTypes {
		m[k] = true
	}
	return m
}()

// creativeWorkTypes are CreativeWork and its subtypes that define
// dateModified as content (schema.org). WebSite, an identity node, and the
// software types, scored as products, are left out (readiness-method.md §07,
// "the right field for each type").
var creativeWorkTypes = set(
	"CreativeWork", "Article", "NewsArticle", "BlogPosting", "TechArticle", "ScholarlyArticle", "Report",
	"SocialMediaPosting", "LiveBlogPosting", "DiscussionForumPosting", "AdvertiserContentArticle", "SatiricalArticle",
	"WebPage", "AboutPage", "CheckoutPage", "CollectionPage", "ContactPage", "FAQPage", "ItemPage",
	"MedicalWebPage", "ProfilePage", "QAPage", "RealEstateListing", "SearchResultsPage",
	"HowTo", "Recipe", "Dataset", "Review", "Blog", "Book", "Course", "Guide", "Movie", "MusicRecording",
	"Photograph", "PodcastEpisode", "PodcastSeries", "DigitalDocument", "TextDigitalDocument",
	"SoftwareSourceCode", "Collection", "Episode", "Legislation", "Manuscript", "Map", "Menu", "Thesis", "VideoObject",
	"Chapter", "Claim", "Comment", "Answer", "Question", "LearningResource", "Quiz",
)

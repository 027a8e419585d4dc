package readiness

// The schema.org type sets the Understand checks judge JSON-LD nodes by
// (read with the JSON-LD reader the publish kit shares).

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
// (the catalogue row of structured_business_data): organisations,
// products, services and software.
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
// software types, scored as products, are left out (the agent-readiness
// scoring method, Section 07, "the right field for each type").
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

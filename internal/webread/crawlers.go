package webread

// CrawlerClass is one of the three kinds of AI crawler the agent-readiness
// scoring method tells apart (Section 07, "three kinds of crawler"). Blocking a
// training crawler costs a site nothing; blocking one that searches, cites or
// acts for a person does.
type CrawlerClass string

// The three classes.
const (
	// CrawlerTraining crawlers collect text to train models.
	CrawlerTraining CrawlerClass = "training"
	// CrawlerSearch crawlers index pages for AI search and citation.
	CrawlerSearch CrawlerClass = "search"
	// CrawlerUser agents fetch a page because a person asked them to.
	CrawlerUser CrawlerClass = "user"
)

// Crawler is one AI crawler: its robots.txt product token and its class.
type Crawler struct {
	Token string
	Class CrawlerClass
}

// CrawlersAsOf is the date the crawler table was last checked against its
// sources.
const CrawlersAsOf = "2026-11-29"

// Crawlers returns the one table of AI crawler product tokens, by class,
// that the scanner judges robots.txt by and the publisher writes it from.
// Tokens are matched exactly, case-insensitively (RFC 9309 Section 2.2.1).
//
// Sources, checked on [CrawlersAsOf], are collected in the ai-robots-txt
// project's robots.json. They are OpenAI's "Overview of OpenAI Crawlers"
// (GPTBot, OAI-SearchBot, ChatGPT-User) and Anthropic's "Does Anthropic
// crawl data from the web" (ClaudeBot, Claude-SearchBot, Claude-User).
// Then Google's "Google's common crawlers" (Google-Extended), Apple's
// "About Applebot" (Applebot-Extended), Common Crawl's CCBot page and
// ByteDance's Bytespider page. Then Meta's "Meta Web Crawlers"
// (meta-externalagent) and Perplexity's "Perplexity Crawlers"
// (PerplexityBot, Perplexity-User).
func Crawlers() []Crawler {
	return []Crawler{
		{"GPTBot", CrawlerTraining},
		{"ClaudeBot", CrawlerTraining},
		{"Google-Extended", CrawlerTraining},
		{"Applebot-Extended", CrawlerTraining},
		{"CCBot", CrawlerTraining},
		{"Bytespider", CrawlerTraining},
		{"meta-externalagent", CrawlerTraining},
		{"OAI-SearchBot", CrawlerSearch},
		{"Claude-SearchBot", CrawlerSearch},
		{"PerplexityBot", CrawlerSearch},
		{"ChatGPT-User", CrawlerUser},
		{"Claude-User", CrawlerUser},
		{"Perplexity-User", CrawlerUser},
	}
}

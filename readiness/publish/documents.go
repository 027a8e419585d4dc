package publish

// buildDocuments validates and builds everything the kit serves besides
// llms.txt, robots.txt and the sitemap.
func (k *kit) buildDocuments() error {
	if err := k.buildMCP(); err != nil {
		return err
	}
	return k.buildOpenAPI()
}

package publish

import (
	"net/url"
	"strings"
)

// llmsText builds /llms.txt by the llms.txt proposal: an H1 with the
// site's name, a blockquote with its summary, then sections of "-
// [name](url): notes" lines. The sections are the pages (grouped by
// Page.Section), the interfaces an agent can call, the documents
// published for agents, and where a person can be reached. Every URL is
// absolute, on the site's origin or the contact's own.
//
// [llms.txt proposal]: https://llmstxt.org/
func (k *kit) llmsText() []byte {
	var b strings.Builder
	b.WriteString("# " + oneLine(k.site.Name) + "\n\n")
	b.WriteString("> " + oneLine(k.site.Description) + "\n")
	if k.site.Summary != "" {
		b.WriteString("\n" + strings.TrimSpace(k.site.Summary) + "\n")
	}
	var order []string
	bySection := map[string][]Page{}
	for _, p := range k.site.Pages {
		sec := p.Section
		if sec == "" {
			sec = "Pages"
		}
		if _, ok := bySection[sec]; !ok {
			order = append(order, sec)
		}
		bySection[sec] = append(bySection[sec], p)
	}
	for _, sec := range order {
		b.WriteString("\n## " + oneLine(sec) + "\n\n")
		for _, p := range bySection[sec] {
			link(&b, p.Title, k.abs(p.Path), p.Description)
		}
	}
	if ifs := k.interfaces(); len(ifs) > 0 {
		b.WriteString("\n## Interfaces\n\n")
		for _, i := range ifs {
			link(&b, i.name, i.url, i.notes)
		}
	}
	b.WriteString("\n## For agents\n\n")
	link(&b, "Capability card", k.abs(cardPath), "what this site publishes, its interfaces, sign-in and contact")
	link(&b, "Sitemap", k.abs(sitemapPath), "every page")
	for _, d := range k.documents {
		link(&b, d.title, k.abs(d.path), d.notes)
	}
	if c := k.site.Contact; c.Email != "" || c.URL != "" {
		b.WriteString("\n## Contact\n\n")
		if c.Email != "" {
			link(&b, "Email a person", "mailto:"+c.Email, "")
		}
		if c.URL != "" {
			link(&b, "Contact page", k.absOrSelf(c.URL), "")
		}
	}
	return []byte(b.String())
}

// link writes one llms.txt list item.
func link(b *strings.Builder, name, u, notes string) {
	b.WriteString("- [" + escapeLinkText(oneLine(name)) + "](" + escapeLinkURL(u) + ")")
	if notes = oneLine(notes); notes != "" {
		b.WriteString(": " + notes)
	}
	b.WriteByte('\n')
}

// oneLine folds runs of white space (line breaks included) into one space,
// so that no value can start a heading or a list item of its own.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// escapeLinkText escapes the brackets of Markdown link text.
func escapeLinkText(s string) string {
	return strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`).Replace(s)
}

// escapeLinkURL percent-encodes the characters that would end a Markdown
// link destination: space, parentheses and angle brackets.
func escapeLinkURL(s string) string {
	return strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29", "<", "%3C", ">", "%3E").Replace(s)
}

// abs is path on the site's origin.
func (k *kit) abs(path string) string { return k.origin.JoinPath(path).String() }

// absOrSelf returns u when it is absolute, else u resolved on the origin.
func (k *kit) absOrSelf(u string) string {
	ref, err := url.Parse(u)
	if err != nil {
		return u
	}
	return k.origin.ResolveReference(ref).String()
}

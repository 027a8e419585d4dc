package publish

import (
	"strings"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"golang.org/x/net/html"
)

// Bounds of a form's Markdown description.
const (
	maxFormFields = 32
	maxFormText   = 200
)

// newMarkdownConverter is html-to-markdown's default converter (its base
// and CommonMark plugins) with one addition: a form is described, not
// dropped. The base plugin removes input and textarea elements, so a
// form's fields would vanish from the Markdown twin. Here each form starts
// with a line naming it: its WebMCP toolname and tooldescription, its
// method and action. A list of its named fields follows, then its other
// content. Each field gives its type, whether it is required, and the
// toolparamdescription, aria-label or placeholder that says what it is
// for.
//
// A converter holds the fields it read, so it converts one page: make one
// per conversion, as html-to-markdown's own ConvertReader does.
func newMarkdownConverter() *converter.Converter {
	conv := converter.NewConverter(converter.WithPlugins(base.NewBasePlugin(), commonmark.NewCommonmarkPlugin()))
	fields := map[*html.Node]string{}
	// The fields are read before the base plugin removes the inputs.
	conv.Register.PreRenderer(func(_ converter.Context, doc *html.Node) {
		var walk func(n *html.Node)
		walk = func(n *html.Node) {
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode && c.Data == "form" {
					fields[c] = formFields(c)
				}
				walk(c)
			}
		}
		walk(doc)
	}, converter.PriorityEarly-10)
	conv.Register.RendererFor("form", converter.TagTypeBlock, func(ctx converter.Context, w converter.Writer, n *html.Node) converter.RenderStatus {
		return renderForm(ctx, w, n, fields[n])
	}, converter.PriorityEarly)
	return conv
}

// formFields lists the named fields of a form, one Markdown list item each.
func formFields(n *html.Node) string {
	var b strings.Builder
	count := 0
	var walk func(c *html.Node)
	walk = func(c *html.Node) {
		for ; c != nil && count < maxFormFields; c = c.NextSibling {
			if c.Type == html.ElementNode {
				switch c.Data {
				case "input", "select", "textarea":
					if line := fieldLine(c); line != "" {
						b.WriteString(line)
						count++
					}
				}
			}
			walk(c.FirstChild)
		}
	}
	walk(n.FirstChild)
	return b.String()
}

func renderForm(ctx converter.Context, w converter.Writer, n *html.Node, fields string) converter.RenderStatus {
	var b strings.Builder
	b.WriteString("\n\n**Form**")
	if name := formText(attrOf(n, "toolname")); name != "" {
		b.WriteString(" `" + name + "`")
	}
	if d := formText(attrOf(n, "tooldescription")); d != "" {
		b.WriteString(": " + d)
	} else if l := formText(attrOf(n, "aria-label")); l != "" {
		b.WriteString(": " + l)
	}
	method := strings.ToUpper(formText(attrOf(n, "method")))
	if method == "" {
		method = "GET"
	}
	action := formText(attrOf(n, "action"))
	if action != "" {
		b.WriteString(" (" + method + " " + action + ")")
	} else {
		b.WriteString(" (" + method + ")")
	}
	b.WriteString("\n\n")
	if fields != "" {
		b.WriteString(fields + "\n")
	}
	w.WriteString(b.String())
	ctx.RenderChildNodes(ctx, w, n)
	w.WriteString("\n\n")
	return converter.RenderSuccess
}

// fieldLine is one named field of a form as a list item, or "" for a field
// an agent does not fill (unnamed, hidden, a button).
func fieldLine(c *html.Node) string {
	name := formText(attrOf(c, "name"))
	typ := strings.ToLower(formText(attrOf(c, "type")))
	switch {
	case name == "":
		return ""
	case c.Data == "input" && typ == "":
		typ = "text"
	case c.Data != "input":
		typ = c.Data
	}
	switch typ {
	case "hidden", "submit", "button", "reset", "image":
		return ""
	}
	line := "- `" + name + "` (" + typ
	if _, ok := attrOK(c, "required"); ok {
		line += ", required"
	}
	line += ")"
	for _, k := range []string{"toolparamdescription", "aria-label", "placeholder", "title"} {
		if v := formText(attrOf(c, k)); v != "" {
			line += ": " + v
			break
		}
	}
	return line + "\n"
}

// formText is an attribute value fit for one line of Markdown: whitespace
// collapsed, backticks and asterisks dropped, at most maxFormText bytes.
func formText(s string) string {
	s = strings.Join(strings.Fields(strings.NewReplacer("`", "", "*", "").Replace(s)), " ")
	if len(s) > maxFormText {
		s = strings.ToValidUTF8(s[:maxFormText], "")
	}
	return s
}

func attrOf(n *html.Node, key string) string {
	v, _ := attrOK(n, key)
	return v
}

func attrOK(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && strings.EqualFold(a.Key, key) {
			return a.Val, true
		}
	}
	return "", false
}

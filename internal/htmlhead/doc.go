// Package htmlhead extracts the metadata of an HTML page's head: the
// document language, base URL, title, <link> elements and <meta> elements.
//
// Parsing follows the HTML Living Standard (https://html.spec.whatwg.org/)
// with the streaming tokenizer of golang.org/x/net/html. It stops as soon as
// the head is over: at the <body> or <frameset> start tag. It also stops at
// the first start tag or non-whitespace text that would make a browser open
// the body. See the "in head" and "after head" insertion modes (section
// 13.2.6.4.4 and 13.2.6.4.6). Elements that a browser moves into the head
// after </head> still count.
//
// As in a browser with scripting enabled, nothing inside comments, <script>,
// <style>, <noscript> or <template> counts: a <link> written there is not a
// link of the page.
//
// The rules applied to what is found:
//   - Lang is the lang attribute of the <html> element (section 3.2.6.2); a
//     later <html> tag supplies it only if the first had none, as the tree
//     builder merges attributes.
//   - Base is the href of the first <base> element that has one (section
//     4.2.3), resolved against the page URL; a data: or javascript: base is
//     ignored, as the standard says. Every link resolves against it,
//     including links that appear before it, because the document base URL
//     is a property of the whole document.
//   - Title is the text of the first <title> element with ASCII whitespace
//     stripped and collapsed, as document.title returns it (section 3.1.3).
//   - Link.Rel is the rel attribute split on ASCII whitespace and lower-cased
//     (section 4.6.7: link types are ASCII case-insensitive). Href is resolved
//     after stripping leading and trailing ASCII whitespace and removing tabs
//     and newlines, as the URL parser does; RawHref keeps the attribute.
//   - For duplicate attributes the first occurrence wins (section 13.2.5.33).
//
// Parse is bounded: at most [MaxLinks] links and [MaxMetas] metas are
// collected, and no single token may exceed [MaxTokenBytes]. Reaching a
// bound is an error wrapping [ErrLimit], returned together with what was
// collected before it. The caller bounds the total input by capping the
// reader.
package htmlhead

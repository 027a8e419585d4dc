package agentsjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/agentweb/agentweb/internal/problem"
	"github.com/agentweb/agentweb/internal/strictjson"
)

// methodCard is the method's card on the wire, members in the order the
// method's example writes them.
type methodCard struct {
	Name        string            `json:"name,omitempty"`
	URL         string            `json:"url,omitempty"`
	Description string            `json:"description,omitempty"`
	Publishes   map[string]string `json:"publishes,omitempty"`
	Interfaces  *[]wireInterface  `json:"interfaces,omitempty"` // nil: not stated; empty: states none
	Auth        *wireAuth         `json:"auth,omitempty"`
	Contact     *wireContact      `json:"contact,omitempty"`
}

type wireInterface struct {
	ID   string `json:"id,omitempty"`
	Type string `json:"type,omitempty"`
	URL  string `json:"url,omitempty"`
	Auth string `json:"auth,omitempty"`
}

type wireAuth struct {
	Type          string   `json:"type,omitempty"`
	Metadata      string   `json:"metadata,omitempty"`
	Required      *bool    `json:"required,omitempty"`
	Methods       []string `json:"methods,omitempty"`
	Public        []string `json:"public,omitempty"`
	TokenRequired []string `json:"token_required,omitempty"`
}

type wireContact struct {
	Email string `json:"email,omitempty"`
	URL   string `json:"url,omitempty"`
}

// methodMembers are the members Marshal writes itself; an Extra member of
// the same name is not written.
var methodMembers = map[string]bool{"name": true, "url": true, "description": true, "publishes": true, "interfaces": true, "auth": true, "contact": true}

// Check lists the problems that keep [Card.Marshal] from writing c. A card
// must name a publication, interface, sign-in or contact: that is what a
// card is for, by the method's Section 05. An interface needs a URL or a
// type, a contact an email or a URL, and a publication a name and a URL.
// Empty means the card can be written.
func (c *Card) Check() []Problem {
	var ps []Problem
	if len(c.Names()) == 0 {
		ps = append(ps, Problem{Rule: RuleEmpty, Message: "the card names no publication, interface, sign-in or contact"})
	}
	for _, k := range slices.Sorted(maps.Keys(c.Publishes)) {
		if k == "" || c.Publishes[k] == "" {
			ps = append(ps, Problem{Pointer: "/publishes/" + strictjson.EscapeToken(k), Rule: RulePublishes, Message: "a publication needs a name and a URL"})
		}
	}
	for i, it := range c.Interfaces {
		if it.URL == "" && it.Type == "" {
			ps = append(ps, Problem{Pointer: fmt.Sprintf("/interfaces/%d", i), Rule: RuleInterface, Message: "an interface needs a url or a type"})
		}
	}
	if c.Contact != nil && c.Contact.Email == "" && c.Contact.URL == "" {
		ps = append(ps, Problem{Pointer: "/contact", Rule: RuleContact, Message: "a contact needs an email or a URL"})
	}
	return ps
}

// Marshal writes c as the method's card, whatever format it was read from.
// Its members are name, url, description, publishes, interfaces, auth and
// contact. Empty ones are left out, except an Interfaces list that is empty
// but not nil. That list is written as [] to state that the site offers no
// tool or API. The Extra members follow, in byte order of their names. The
// text is indented with two spaces and ends in a newline. The same card
// always gives the same bytes. A card with problems ([Card.Check]) is
// refused with a [*ValidationError] wrapping [ErrInvalid].
func (c *Card) Marshal() ([]byte, error) {
	if ps := c.Check(); len(ps) > 0 {
		return nil, problem.New(ps, ErrInvalid)
	}
	w := methodCard{Name: c.Name, URL: c.URL, Description: c.Description, Publishes: c.Publishes}
	if c.Interfaces != nil {
		// An empty, non-nil list is written as [] : the card states that
		// the site offers no tool or API (requirement R9's honest answer).
		list := make([]wireInterface, 0, len(c.Interfaces))
		for _, it := range c.Interfaces {
			list = append(list, wireInterface{ID: it.ID, Type: it.Type, URL: it.URL, Auth: it.Auth})
		}
		w.Interfaces = &list
	}
	if a := c.Auth; a != nil {
		w.Auth = &wireAuth{Type: a.Type, Metadata: a.Metadata, Required: a.Required, Methods: a.Methods, Public: a.Public, TokenRequired: a.TokenRequired}
	}
	if ct := c.Contact; ct != nil {
		w.Contact = &wireContact{Email: ct.Email, URL: ct.URL}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(w); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	compact := bytes.TrimSpace(buf.Bytes())
	keys := make([]string, 0, len(c.Extra))
	for k := range c.Extra {
		if !methodMembers[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	if len(keys) > 0 {
		var b bytes.Buffer
		b.Write(compact[:len(compact)-1])
		sep := len(compact) > 2
		for _, k := range keys {
			var v bytes.Buffer
			if err := json.Compact(&v, c.Extra[k]); err != nil {
				return nil, problem.New([]Problem{{Pointer: "/" + strictjson.EscapeToken(k), Rule: RuleSyntax, Message: "the kept member is not JSON: " + err.Error()}}, ErrInvalid)
			}
			if sep {
				b.WriteByte(',')
			}
			sep = true
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteByte(':')
			b.Write(v.Bytes())
		}
		b.WriteByte('}')
		compact = b.Bytes()
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact, "", "  "); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

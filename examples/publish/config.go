package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/agentweb/agentweb/examples/internal/cli"
	"github.com/agentweb/agentweb/readiness/publish"
)

// maxConfig bounds the config file.
const maxConfig = 1 << 20

// config is the JSON config file: the site's facts.
type config struct {
	Origin        string       `json:"origin"`
	Name          string       `json:"name"`
	Description   string       `json:"description"`
	Summary       string       `json:"summary"`
	Language      string       `json:"language"`
	Contact       contact      `json:"contact"`
	Crawlers      crawlers     `json:"crawlers"`
	Disallow      []string     `json:"disallow"`
	Logo          string       `json:"logo"`
	SameAs        []string     `json:"same_as"`
	ContentSignal string       `json:"content_signal"`
	Pages         []pageConfig `json:"pages"`
}

type contact struct {
	Email string `json:"email"`
	URL   string `json:"url"`
}

type crawlers struct {
	Training string `json:"training"`
	Search   string `json:"search"`
	User     string `json:"user"`
}

type pageConfig struct {
	Path        string `json:"path"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Updated     string `json:"updated"`
	Section     string `json:"section"`
}

// readConfig reads the config file, at most maxConfig bytes, and decodes
// it with parseConfig.
func readConfig(name string) (*config, error) {
	data, err := cli.ReadFile(name, maxConfig)
	if err != nil {
		return nil, err
	}
	c, err := parseConfig(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return c, nil
}

// parseConfig strictly decodes a config: one JSON object, no unknown
// member, nothing after it.
func parseConfig(data []byte) (*config, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var c config
	if err := dec.Decode(&c); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return nil, fmt.Errorf("byte %d: %v", syn.Offset, err)
		}
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the JSON object")
	}
	return &c, nil
}

// site turns the config into the kit's Site (pages come later).
func (c *config) site() (*publish.Site, error) {
	s := &publish.Site{
		Origin: c.Origin, Name: c.Name, Description: c.Description, Summary: c.Summary,
		Language: c.Language, Contact: publish.Contact{Email: c.Contact.Email, URL: c.Contact.URL},
		Disallow: c.Disallow, Logo: c.Logo, SameAs: c.SameAs, ContentSignal: c.ContentSignal,
	}
	for _, f := range []struct {
		name string
		v    string
		dst  *publish.Access
	}{
		{"crawlers.training", c.Crawlers.Training, &s.Crawlers.Training},
		{"crawlers.search", c.Crawlers.Search, &s.Crawlers.Search},
		{"crawlers.user", c.Crawlers.User, &s.Crawlers.User},
	} {
		switch f.v {
		case "", "allow":
			*f.dst = publish.Allow
		case "disallow":
			*f.dst = publish.Disallow
		default:
			return nil, fmt.Errorf("%s: %q is neither \"allow\" nor \"disallow\"", f.name, f.v)
		}
	}
	for i, p := range c.Pages {
		pg := publish.Page{Path: p.Path, Title: p.Title, Description: p.Description, Section: p.Section}
		if p.Updated != "" {
			t, err := parseDate(p.Updated)
			if err != nil {
				return nil, fmt.Errorf("pages[%d].updated: %q is not an RFC 3339 date or date-time", i, p.Updated)
			}
			pg.Updated = t
		}
		s.Pages = append(s.Pages, pg)
	}
	return s, nil
}

// parseDate accepts an RFC 3339 full-date ("2026-11-20") or date-time.
func parseDate(v string) (time.Time, error) {
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		return t, nil
	}
	return time.Parse(time.RFC3339, v)
}

// load reads the config and the folder into the Site to serve.
func load(dir, configFile string) (*publish.Site, error) {
	if fi, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("-dir: %v", err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("-dir: %s is not a folder", dir)
	}
	c, err := readConfig(configFile)
	if err != nil {
		return nil, err
	}
	s, err := c.site()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", configFile, err)
	}
	root := os.DirFS(dir)
	if len(s.Pages) == 0 {
		if s.Pages, err = walkPages(root); err != nil {
			return nil, fmt.Errorf("-dir %s: %v", dir, err)
		}
	}
	if err := addMarkdown(root, s.Pages); err != nil {
		return nil, fmt.Errorf("-dir %s: %v", dir, err)
	}
	if s.OpenAPI, err = readOptional(root, "openapi.json"); err != nil {
		return nil, fmt.Errorf("-dir %s: %v", dir, err)
	}
	return s, nil
}

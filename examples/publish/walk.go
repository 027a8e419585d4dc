package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"strings"

	"github.com/agentweb/agentweb/readiness/publish"
)

// Bounds of the folder walk and of every file the program reads.
const (
	maxFiles     = 10000   // entries visited while listing pages
	maxDepth     = 16      // folders below the top
	maxFileBytes = 4 << 20 // an HTML, Markdown or OpenAPI file
)

// files serves the folder, refusing any path with a segment starting with
// "." (.git, .env) but .well-known, and any folder without an index.html
// (no directory listings).
func files(dir string) http.Handler {
	root := os.DirFS(dir)
	fsrv := http.FileServerFS(root)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for seg := range strings.SplitSeq(r.URL.Path, "/") {
			if strings.HasPrefix(seg, ".") && seg != ".well-known" {
				http.NotFound(w, r)
				return
			}
		}
		name := strings.Trim(path.Clean("/"+r.URL.Path), "/")
		if name == "" {
			name = "."
		}
		if fi, err := fs.Stat(root, name); err == nil && fi.IsDir() {
			if _, err := fs.Stat(root, path.Join(name, "index.html")); err != nil {
				http.NotFound(w, r)
				return
			}
		}
		fsrv.ServeHTTP(w, r)
	})
}

// walkPages lists the folder's HTML pages, in lexical order: index.html
// stands for its folder's path, every other foo.html for its own.
func walkPages(root fs.FS) ([]publish.Page, error) {
	var pages []publish.Page
	seen := 0
	err := fs.WalkDir(root, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if seen++; seen > maxFiles {
			return fmt.Errorf("more than %d files: list the pages in the config instead", maxFiles)
		}
		if name != "." && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if name != "." && strings.Count(name, "/") >= maxDepth {
				return fmt.Errorf("%s: more than %d folders deep", name, maxDepth)
			}
			return nil
		}
		if !d.Type().IsRegular() || path.Ext(name) != ".html" {
			return nil
		}
		p, err := readPage(root, name, d)
		if err != nil {
			return err
		}
		pages = append(pages, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(pages) == 0 {
		return nil, errors.New("no *.html file")
	}
	return pages, nil
}

// readPage makes the page of one HTML file from its head and mtime.
func readPage(root fs.FS, name string, d fs.DirEntry) (publish.Page, error) {
	info, err := d.Info()
	if err != nil {
		return publish.Page{}, err
	}
	f, err := root.Open(name)
	if err != nil {
		return publish.Page{}, err
	}
	defer f.Close()
	title, desc, err := headFacts(io.LimitReader(f, maxFileBytes))
	if err != nil {
		return publish.Page{}, fmt.Errorf("%s: %v", name, err)
	}
	if title == "" {
		return publish.Page{}, fmt.Errorf("%s: no <title>: give the page one, or list the pages in the config", name)
	}
	return publish.Page{Path: pagePath(name), Title: title, Description: desc, Updated: info.ModTime().UTC()}, nil
}

// pagePath is the URL path of an HTML file of the folder.
func pagePath(name string) string {
	if path.Base(name) == "index.html" {
		if dir := path.Dir(name); dir != "." {
			return "/" + dir + "/"
		}
		return "/"
	}
	return "/" + name
}

// htmlFile is the folder's file for a page path: index.html for a folder
// path, the path itself for a .html path, "" otherwise.
func htmlFile(p string) string {
	switch {
	case strings.HasSuffix(p, "/"):
		return strings.TrimPrefix(p, "/") + "index.html"
	case path.Ext(p) == ".html":
		return strings.TrimPrefix(p, "/")
	}
	return ""
}

// addMarkdown gives each page whose foo.html has a foo.md beside it that
// Markdown as its own.
func addMarkdown(root fs.FS, pages []publish.Page) error {
	for i := range pages {
		f := htmlFile(pages[i].Path)
		if f == "" {
			continue
		}
		md, err := readOptional(root, strings.TrimSuffix(f, ".html")+".md")
		if err != nil {
			return err
		}
		pages[i].Markdown = md
	}
	return nil
}

// readOptional reads name from root, at most maxFileBytes; a missing file
// is nil and no error.
func readOptional(root fs.FS, name string) ([]byte, error) {
	f, err := root.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(data) > maxFileBytes {
		return nil, fmt.Errorf("%s is larger than %d bytes", name, maxFileBytes)
	}
	return data, nil
}

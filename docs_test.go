package agentweb_test

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// parseDir returns the go/doc package of the non-test files of dir.
func parseDir(t *testing.T, dir string) *doc.Package {
	t.Helper()
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var files []*ast.File
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.ParseComments)
		require.NoError(t, err)
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, files, "example.test/"+dir, doc.AllDecls)
	require.NoError(t, err)
	return p
}

// publicDirs lists the directories of the module's public packages.
func publicDirs(t *testing.T) []string {
	t.Helper()
	var dirs []string
	require.NoError(t, filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		base := d.Name()
		if path != "." && (strings.HasPrefix(base, ".") || base == "testdata" || base == "internal" || base == "examples") {
			return filepath.SkipDir
		}
		if m, _ := filepath.Glob(filepath.Join(path, "*.go")); len(m) > 0 {
			dirs = append(dirs, path)
		}
		return nil
	}))
	return dirs
}

// TestAliasDocsListTheirFields keeps the doc comment of every public alias
// of a type of the shared problem vocabulary listing that type's exported
// fields and methods, since go doc shows neither for an alias: a field or
// method added to the shared type and not to every alias's doc fails here.
func TestAliasDocsListTheirFields(t *testing.T) {
	shared := parseDir(t, filepath.Join("internal", "problem"))
	members := map[string][]string{}
	for _, ty := range shared.Types {
		if !ast.IsExported(ty.Name) {
			continue
		}
		for _, spec := range ty.Decl.Specs {
			ts := spec.(*ast.TypeSpec)
			if st, ok := ts.Type.(*ast.StructType); ok {
				for _, f := range st.Fields.List {
					for _, n := range f.Names {
						if n.IsExported() {
							members[ty.Name] = append(members[ty.Name], "\t"+n.Name+" ")
						}
					}
				}
			}
		}
		for _, m := range ty.Methods {
			members[ty.Name] = append(members[ty.Name], ") "+m.Name+"(")
		}
	}
	require.NotEmpty(t, members["Problem"])
	require.NotEmpty(t, members["ValidationError"])
	require.NotEmpty(t, members["Severity"])

	aliases := 0
	for _, dir := range publicDirs(t) {
		p := parseDir(t, dir)
		for _, ty := range p.Types {
			for _, spec := range ty.Decl.Specs {
				ts := spec.(*ast.TypeSpec)
				sel, ok := ts.Type.(*ast.SelectorExpr)
				if !ts.Assign.IsValid() || !ok || !ts.Name.IsExported() {
					continue
				}
				if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "problem" {
					continue
				}
				aliases++
				for _, want := range members[sel.Sel.Name] {
					assert.Contains(t, ty.Doc, want, "%s.%s: the alias's doc does not list %q", dir, ts.Name.Name, strings.TrimSpace(want))
				}
			}
		}
	}
	assert.GreaterOrEqual(t, aliases, 15, "the five spec packages alias Problem, ValidationError and Severity")
}

// docLink matches a doc link to a single identifier or a method, [name] or
// [Type.name].
var docLink = regexp.MustCompile(`\[(\*?[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)\]`)

// TestDocLinksNameExportedIdentifiers: no doc comment of a public package
// links an unexported identifier of its own package, which a reader of go
// doc or pkg.go.dev cannot open.
func TestDocLinksNameExportedIdentifiers(t *testing.T) {
	for _, dir := range publicDirs(t) {
		p := parseDir(t, dir)
		unexported := map[string]bool{}
		for _, ty := range p.Types {
			for _, m := range append(ty.Methods, ty.Funcs...) {
				if !ast.IsExported(m.Name) {
					unexported[ty.Name+"."+m.Name] = true
				}
			}
			if !ast.IsExported(ty.Name) {
				unexported[ty.Name] = true
			}
		}
		for _, f := range p.Funcs {
			if !ast.IsExported(f.Name) {
				unexported[f.Name] = true
			}
		}
		for _, vs := range append(p.Consts, p.Vars...) {
			for _, n := range vs.Names {
				if !ast.IsExported(n) {
					unexported[n] = true
				}
			}
		}
		check := func(where, text string) {
			if text == "" {
				return
			}
			for _, m := range docLink.FindAllStringSubmatch(text, -1) {
				name := strings.TrimPrefix(m[1], "*")
				assert.False(t, unexported[name], "%s: %s links the unexported %s", dir, where, m[0])
			}
		}
		check("package doc", p.Doc)
		for _, ty := range p.Types {
			if !ast.IsExported(ty.Name) {
				continue
			}
			check(ty.Name, ty.Doc)
			for _, m := range append(ty.Methods, ty.Funcs...) {
				if ast.IsExported(m.Name) {
					check(ty.Name+"."+m.Name, m.Doc)
				}
			}
			for _, spec := range ty.Decl.Specs {
				if st, ok := spec.(*ast.TypeSpec).Type.(*ast.StructType); ok {
					for _, fl := range st.Fields.List {
						if len(fl.Names) > 0 && fl.Names[0].IsExported() {
							check(ty.Name+"."+fl.Names[0].Name, fl.Doc.Text())
						}
					}
				}
			}
		}
		for _, f := range p.Funcs {
			if ast.IsExported(f.Name) {
				check(f.Name, f.Doc)
			}
		}
	}
}

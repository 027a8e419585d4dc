package apisurface

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite .ci/api.txt")

const module = "github.com/agentweb/agentweb"

// publicPackages returns the directories (relative to root) of the public
// packages: everything but internal/, examples/, testdata and hidden
// folders.
func publicPackages(t *testing.T, root string) []string {
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		name := d.Name()
		if rel != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "internal" || rel == "examples") {
			return filepath.SkipDir
		}
		if m, _ := filepath.Glob(filepath.Join(path, "*.go")); len(m) > 0 {
			dirs = append(dirs, rel)
		}
		return nil
	})
	require.NoError(t, err)
	return dirs
}

// surface lists the exported names of the package in dir, as
// "const Name", "var Name", "type Name", "func Name" and "method T.Name".
func surface(t *testing.T, dir string) []string {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	require.NoError(t, err)
	var out []string
	for _, p := range pkgs {
		for _, f := range p.Files {
			for _, decl := range f.Decls {
				switch d := decl.(type) {
				case *ast.FuncDecl:
					if !d.Name.IsExported() {
						continue
					}
					if d.Recv == nil {
						out = append(out, "func "+d.Name.Name)
						continue
					}
					recv := d.Recv.List[0].Type
					if s, ok := recv.(*ast.StarExpr); ok {
						recv = s.X
					}
					if ix, ok := recv.(*ast.IndexExpr); ok {
						recv = ix.X
					}
					if id, ok := recv.(*ast.Ident); ok && id.IsExported() {
						out = append(out, "method "+id.Name+"."+d.Name.Name)
					}
				case *ast.GenDecl:
					for _, spec := range d.Specs {
						switch s := spec.(type) {
						case *ast.TypeSpec:
							if s.Name.IsExported() {
								out = append(out, "type "+s.Name.Name)
							}
						case *ast.ValueSpec:
							kind := "var"
							if d.Tok == token.CONST {
								kind = "const"
							}
							for _, n := range s.Names {
								if n.IsExported() {
									out = append(out, kind+" "+n.Name)
								}
							}
						}
					}
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// counted reports whether an entry counts against MaxExported: the Rule…
// constants of the rule vocabulary do not.
func counted(entry string) bool { return !strings.HasPrefix(entry, "const Rule") }

func TestSurface(t *testing.T) {
	root := filepath.Join("..", "..")
	var b strings.Builder
	for _, dir := range publicPackages(t, root) {
		names := surface(t, filepath.Join(root, dir))
		path := module
		if dir != "." {
			path += "/" + filepath.ToSlash(dir)
		}
		n := 0
		for _, e := range names {
			if counted(e) {
				n++
			}
		}
		assert.LessOrEqual(t, n, MaxExported, "%s exports %d identifiers (Rule… constants not counted)", path, n)
		for _, e := range names {
			b.WriteString(path + ": " + e + "\n")
		}
	}
	file := filepath.Join(root, ".ci", "api.txt")
	if *update {
		require.NoError(t, os.WriteFile(file, []byte(b.String()), 0o644))
		return
	}
	want, err := os.ReadFile(file)
	require.NoError(t, err, "run go test ./internal/apisurface -update to record the surface")
	assert.Equal(t, string(want), b.String(), "the exported surface changed: if on purpose, record it with go test ./internal/apisurface -update and bash .ci/apidiff -update")
}

// Package problemtest checks, for the tests of a spec package, that every
// rule the package exports cites the section of its specification.
package problemtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// RulesWithoutSection parses the package in dir (its non-test files). It
// returns, sorted, the names of its Rule… constants that are not a key
// of the composite literal assigned to the package variable table (such
// as "ruleSections"). An error means the files could not be read or the
// table was not found.
func RulesWithoutSection(dir, table string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var rules []string
	keys := map[string]bool{}
	found := false
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, 0)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range gd.Specs {
				vs, ok := spec.(*ast.ValueSpec)
				if !ok {
					continue
				}
				for i, n := range vs.Names {
					if gd.Tok == token.CONST && strings.HasPrefix(n.Name, "Rule") && n.IsExported() {
						rules = append(rules, n.Name)
					}
					if gd.Tok == token.VAR && n.Name == table && i < len(vs.Values) {
						if cl, ok := vs.Values[i].(*ast.CompositeLit); ok {
							found = true
							for _, el := range cl.Elts {
								if kv, ok := el.(*ast.KeyValueExpr); ok {
									if id, ok := kv.Key.(*ast.Ident); ok {
										keys[id.Name] = true
									}
								}
							}
						}
					}
				}
			}
		}
	}
	if !found {
		return nil, os.ErrNotExist
	}
	var missing []string
	for _, r := range rules {
		if !keys[r] {
			missing = append(missing, r)
		}
	}
	slices.Sort(missing)
	return missing, nil
}

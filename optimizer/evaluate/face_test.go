package evaluate_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"sort"
	"strings"
	"testing"
)

// exportedMethods returns the exported methods declared on each type in
// the package's non-test files.
func exportedMethods(t *testing.T) map[string][]string {
	t.Helper()
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, en := range entries {
		name := en.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || !fd.Name.IsExported() {
				continue
			}
			typ := fd.Recv.List[0].Type
			if s, ok := typ.(*ast.StarExpr); ok {
				typ = s.X
			}
			if id, ok := typ.(*ast.Ident); ok {
				out[id.Name] = append(out[id.Name], fd.Name.Name)
			}
		}
	}
	for k := range out {
		sort.Strings(out[k])
	}
	return out
}

// TestEvaluatorFace: the type a search holds, Evaluator, exports at most 25
// methods (the analyses, the values they fill and what a search needs
// beside them; the model's facts are Model's), and no setter: a worker's
// settings are Options given once to With, the test hooks are set by the
// function SetHooks, and the switches only this package's tests use are
// in export_test.go (doc.go, "The package's face, by who uses it").
func TestEvaluatorFace(t *testing.T) {
	m := exportedMethods(t)
	if n := len(m["Evaluator"]); n > 25 {
		t.Errorf("Evaluator exports %d methods, more than 25: %v", n, m["Evaluator"])
	}
	for _, name := range m["Evaluator"] {
		if strings.HasPrefix(name, "Set") || name == "Hooks" {
			t.Errorf("Evaluator.%s: a setting or a test hook on the evaluator's face", name)
		}
	}
	if len(m["Model"]) == 0 {
		t.Error("no Model view")
	}
}

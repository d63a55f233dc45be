package configs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestNoNegativeBudgetSentinel: the evaluation budget has one "no limit"
// value, 0, as search.max_evaluations has (moo.NoLimit); what is left of a
// budget says whether there is one with a boolean, never with -1. The
// test parses every non-test Go file of the module and reports
// (budgetSentinels) a name of the budget (budgetName) compared with, or
// given, a negative number, compared as >= 0 (or, what is left of it,
// as < 0: a sign that tells "no limit"), and the old name
// NoAllowanceBound.
func TestNoNegativeBudgetSentinel(t *testing.T) {
	root := filepath.Join("..")
	var found []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		found = append(found, budgetSentinels(t, path)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found {
		t.Error(f)
	}
}

// TestBudgetScanFinds: the scan of TestNoNegativeBudgetSentinel finds each
// way of spelling a negative "no limit" in testdata/budgetscan/bad.go.txt
// (one finding per line marked "// want"), and none in good.go.txt.
func TestBudgetScanFinds(t *testing.T) {
	bad := filepath.Join("testdata", "budgetscan", "bad.go.txt")
	found := budgetSentinels(t, bad)
	if got, want := findingLines(t, bad, found); !slices.Equal(got, want) {
		t.Errorf("findings on lines %v, want %v:\n%s", got, want, strings.Join(found, "\n"))
	}
	if found := budgetSentinels(t, filepath.Join("testdata", "budgetscan", "good.go.txt")); len(found) > 0 {
		t.Errorf("false alarms:\n%s", strings.Join(found, "\n"))
	}
}

// findingLines returns the lines of the file bad that a scan's findings
// ("path:line: what") name, sorted and distinct, and the lines marked
// "// want" there.
func findingLines(t *testing.T, bad string, found []string) (got, want []int) {
	t.Helper()
	src, err := os.ReadFile(bad)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(src), "\n") {
		if strings.Contains(line, "// want") {
			want = append(want, i+1)
		}
	}
	for _, f := range found {
		n, _ := strconv.Atoi(strings.Split(f, ":")[1])
		got = append(got, n)
	}
	slices.Sort(got)
	return slices.Compact(got), want
}

// budgetName matches the names the evaluation budget goes by (the run's
// bound, what is left of it, and the names it had before it had one), and
// boundName those of a bound, which may be checked for a negative value
// where it is read (MaxEvaluations < 0 is an error there, not a sentinel).
var (
	budgetName = regexp.MustCompile(`(?i)^(max_?evaluations|maxanalyses|\w*evaluationsleft|allowance|analysesleft|stepsleft)$`)
	boundName  = regexp.MustCompile(`(?i)^(max_?evaluations|maxanalyses)$`)
)

// budgetSentinels parses the Go file path and reports, as "path:line:
// what", each place where a budget's name meets a negative number.
func budgetSentinels(t *testing.T, path string) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	report := func(n ast.Node, what string) {
		found = append(found, fset.Position(n.Pos()).String()+": "+what)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if n.Name == "NoAllowanceBound" {
				report(n, "NoAllowanceBound: the budget's \"no limit\" is 0 (moo.NoLimit)")
			}
		case *ast.BinaryExpr:
			for _, s := range [][2]ast.Expr{{n.X, n.Y}, {n.Y, n.X}} {
				name, lit := budgetNameOf(s[0]), s[1]
				if name == "" {
					continue
				}
				if negative(lit) {
					report(n, name+" "+n.Op.String()+" a negative number")
				}
				if isZero(lit) && (n.Op == token.GEQ || n.Op == token.LSS && !boundName.MatchString(name)) {
					report(n, name+" "+n.Op.String()+" 0: a negative budget as \"no limit\"")
				}
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if name := budgetNameOf(l); name != "" && i < len(n.Rhs) && negative(n.Rhs[i]) {
					report(n, name+" given a negative number")
				}
			}
		case *ast.KeyValueExpr:
			if name := budgetNameOf(n.Key); name != "" && negative(n.Value) {
				report(n, name+" given a negative number")
			}
		case *ast.FuncDecl:
			if n.Body == nil || !budgetName.MatchString(n.Name.Name) {
				return true
			}
			ast.Inspect(n.Body, func(m ast.Node) bool {
				if r, ok := m.(*ast.ReturnStmt); ok {
					for _, x := range r.Results {
						if negative(x) {
							report(r, n.Name.Name+" returns a negative number")
						}
					}
				}
				return true
			})
		}
		return true
	})
	return found
}

// budgetNameOf is the budget name x spells (a name, a field, a call of
// one), or "".
func budgetNameOf(x ast.Expr) string {
	switch x := x.(type) {
	case *ast.ParenExpr:
		return budgetNameOf(x.X)
	case *ast.CallExpr:
		return budgetNameOf(x.Fun)
	case *ast.SelectorExpr:
		return budgetNameOf(x.Sel)
	case *ast.Ident:
		if budgetName.MatchString(x.Name) {
			return x.Name
		}
	}
	return ""
}

// negative reports whether x is a negative integer literal.
func negative(x ast.Expr) bool {
	u, ok := x.(*ast.UnaryExpr)
	if !ok || u.Op != token.SUB {
		return false
	}
	lit, ok := u.X.(*ast.BasicLit)
	return ok && lit.Kind == token.INT
}

func isZero(x ast.Expr) bool {
	lit, ok := x.(*ast.BasicLit)
	return ok && lit.Kind == token.INT && lit.Value == "0"
}

package configs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	goimporter "go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// TestNoOptionStringsPastConfigs: the options are typed once, here, so no
// non-test Go file of another package spells an option's value as a
// string. It type-checks every package of the module but this one and
// reports (optionStrings) a string literal that takes a named string type
// of this package (compared with an option, a case of a switch on one,
// assigned or passed as one) and a literal compared with an option turned
// back into a string (string(x), x.String()); in templates (a Go string
// literal holding "{{"), an eq or ne against a literal that spells an
// option's value. The empty literal (an option left unset) is allowed.
func TestNoOptionStringsPastConfigs(t *testing.T) {
	l := loadModule(t)
	var found []string
	for _, p := range l.pkgs {
		if p.Module == nil || p.Module.Path != l.module || p.ImportPath == l.module+"/configs" || strings.HasPrefix(p.ImportPath, l.module+"/configs/") {
			continue
		}
		var files []string
		for _, f := range p.GoFiles {
			files = append(files, filepath.Join(p.Dir, f))
		}
		found = append(found, l.scan(t, p.ImportPath, files)...)
	}
	for _, f := range found {
		t.Error(f)
	}
}

// TestOptionScanFinds: the scan of TestNoOptionStringsPastConfigs finds
// each way of spelling an option as a string in testdata/optionscan/bad.go
// (one finding per line marked "// want"), and none in good.go.
func TestOptionScanFinds(t *testing.T) {
	l := loadModule(t)
	bad := filepath.Join("testdata", "optionscan", "bad.go.txt")
	found := l.scan(t, "optionscan", []string{bad})
	if got, want := findingLines(t, bad, found); !slices.Equal(got, want) {
		t.Errorf("findings on lines %v, want %v:\n%s", got, want, strings.Join(found, "\n"))
	}
	if found := l.scan(t, "optionscan", []string{filepath.Join("testdata", "optionscan", "good.go.txt")}); len(found) > 0 {
		t.Errorf("false alarms:\n%s", strings.Join(found, "\n"))
	}
}

type listedPackage struct {
	ImportPath, Dir, Export string
	GoFiles                 []string
	Module                  *struct{ Path string }
}

type moduleLoad struct {
	module  string
	pkgs    []listedPackage
	exports map[string]string
	values  map[string]bool // every option value, for the templates
}

var (
	moduleOnce   sync.Once
	moduleLoaded *moduleLoad
	moduleErr    error
)

// loadModule lists the module's packages with their dependencies' export
// data (go list -export), from which the scan type-checks them; once per
// test binary.
func loadModule(t *testing.T) *moduleLoad {
	t.Helper()
	moduleOnce.Do(func() { moduleLoaded, moduleErr = listModule() })
	if moduleErr != nil {
		t.Fatal(moduleErr)
	}
	return moduleLoaded
}

func listModule() (*moduleLoad, error) {
	cmd := exec.Command("go", "list", "-export", "-deps", "-json=ImportPath,Dir,Export,GoFiles,Module", "./...")
	cmd.Dir = ".."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v\n%s", err, stderr.String())
	}
	l := &moduleLoad{exports: map[string]string{}, values: map[string]bool{}}
	for dec := json.NewDecoder(bytes.NewReader(out)); ; {
		var p listedPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		l.exports[p.ImportPath] = p.Export
		l.pkgs = append(l.pkgs, p)
		if strings.HasSuffix(p.ImportPath, "/configs") && p.Module != nil {
			l.module = strings.TrimSuffix(p.ImportPath, "/configs")
		}
	}
	for _, list := range [][]string{optionStrings(DeadlineConventions), optionStrings(PriorityConventions), optionStrings(GPUModels),
		optionStrings(PriorityAssignments), optionStrings(ContentionCounts), optionStrings(ChainParadigms), optionStrings(ChainMetrics), optionStrings(ChainBounds)} {
		for _, v := range list {
			l.values[v] = true
		}
	}
	return l, nil
}

// templateCompare is an eq or ne of a template against a string literal.
var templateCompare = regexp.MustCompile(`\b(eq|ne)\s[^}]*?"([^"]*)"`)

// scan type-checks files as package path and returns its findings as
// "file:line: what".
func (l *moduleLoad) scan(t *testing.T, path string, files []string) []string {
	t.Helper()
	fset := token.NewFileSet()
	var parsed []*ast.File
	for _, f := range files {
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, af)
	}
	imp := goimporter.ForCompiler(fset, "gc", func(p string) (io.ReadCloser, error) {
		if e := l.exports[p]; e != "" {
			return os.Open(e)
		}
		return nil, fmt.Errorf("no export data for %s", p)
	})
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	conf := types.Config{Importer: imp}
	if _, err := conf.Check(path, fset, parsed, info); err != nil {
		t.Fatalf("type-checking %s: %v", path, err)
	}
	configsPath := l.module + "/configs"
	// option says whether e is an option: of a named string type of configs.
	option := func(e ast.Expr) bool {
		n, ok := info.Types[e].Type.(*types.Named)
		if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != configsPath {
			return false
		}
		b, ok := n.Underlying().(*types.Basic)
		return ok && b.Kind() == types.String
	}
	// asString says whether e is an option turned into a string.
	asString := func(e ast.Expr) bool {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return false
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "String" && len(call.Args) == 0 {
			return option(sel.X)
		}
		return len(call.Args) == 1 && info.Types[call.Fun].IsType() && option(call.Args[0])
	}
	literal := func(e ast.Expr) (string, bool) {
		lit, ok := ast.Unparen(e).(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(lit.Value)
		return s, err == nil && s != ""
	}
	var found []string
	report := func(n ast.Node, format string, args ...any) {
		p := fset.Position(n.Pos())
		found = append(found, fmt.Sprintf("%s:%d: %s", filepath.ToSlash(p.Filename), p.Line, fmt.Sprintf(format, args...)))
	}
	for _, f := range parsed {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				s, ok := literal(n)
				switch {
				case !ok:
				case option(n):
					report(n, "%q spells a value of %s: use its constant", s, info.Types[n].Type)
				case strings.Contains(s, "{{"):
					for _, m := range templateCompare.FindAllStringSubmatch(s, -1) {
						if l.values[m[2]] {
							report(n, "a template compares with %q, an option's value: give the template a field that says it", m[2])
						}
					}
				}
			case *ast.BinaryExpr:
				if n.Op != token.EQL && n.Op != token.NEQ {
					break
				}
				for _, side := range [][2]ast.Expr{{n.X, n.Y}, {n.Y, n.X}} {
					if s, ok := literal(side[0]); ok && asString(side[1]) {
						report(n, "compares an option, as a string, with %q: compare the option with its constant", s)
					}
				}
			case *ast.SwitchStmt:
				ast.Inspect(n.Body, func(m ast.Node) bool {
					cc, ok := m.(*ast.CaseClause)
					if !ok {
						return true
					}
					for _, e := range cc.List {
						if s, ok := literal(e); ok && n.Tag != nil && asString(n.Tag) {
							report(e, "a case %q of a switch on an option as a string: switch on the option", s)
						}
					}
					return false
				})
			}
			return true
		})
	}
	slices.Sort(found)
	return found
}

package main

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/sharedtest"
	"github.com/hetmap/hetmap/results/sweep"
	"gopkg.in/yaml.v3"
)

// repoRoot is the module's root, relative to this package.
const repoRoot = "../.."

// codeBlock is a fenced code block of a Markdown file.
type codeBlock struct {
	lang string
	text string
	line int // of the opening fence
}

func codeBlocks(t *testing.T, path string) []codeBlock {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var blocks []codeBlock
	var cur *codeBlock
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case cur == nil && strings.HasPrefix(trimmed, "```"):
			cur = &codeBlock{lang: strings.TrimPrefix(trimmed, "```"), line: n}
		case cur != nil && trimmed == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.text += line + "\n"
		}
	}
	if cur != nil {
		t.Fatalf("%s: the code block of line %d is not closed", path, cur.line)
	}
	return blocks
}

// TestReadmeFirstLines: the README opens with the two commands a new user
// runs.
func TestReadmeFirstLines(t *testing.T) {
	blocks := codeBlocks(t, filepath.Join(repoRoot, "README.md"))
	want := "go run ./cmd/hetmap optimize  # the main job: the Pareto-optimal mappings of the built-in WATERS 2019 model\n" +
		"go test ./...                 # the tests\n"
	if len(blocks) == 0 || blocks[0].lang != "sh" || blocks[0].text != want {
		t.Errorf("the README's first block is not the two commands:\n%s", blocks[0].text)
	}
	data, _ := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if !strings.HasPrefix(string(data), "# hetmap\n\n```sh\n"+want+"```\n") {
		t.Error("the README does not start with its title and the two commands")
	}
}

// TestReadmeGoVersion: the README names the Go version that go.mod needs
// (it said 1.26 where go.mod names 1.26.8).
func TestReadmeGoVersion(t *testing.T) {
	mod, err := os.ReadFile(filepath.Join(repoRoot, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod has no go line")
	}
	readme, _ := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if want := "Needs Go " + string(m[1]) + ", the version `go.mod` names"; !strings.Contains(string(readme), want) {
		t.Errorf("the README does not say %q", want)
	}
}

// TestReadmeBlocks runs every code block of the README, as a user who
// pastes it would, so that the README cannot drift from the program:
//
//   - a shell block runs its hetmap commands, in order, in a folder of its
//     own (paths of the checkout and of ../shared are given as the README
//     gives them, from the checkout's root); a command must exit 0. A sweep
//     runs with --dry-run, which builds and checks every run's configuration
//     (the sweep itself takes minutes); --summarize must find the sweep's
//     folder and list its missing runs. `go test ./...` is this test's own
//     command and is not run again.
//   - a YAML block whose first line names a file of the checkout is that
//     file, byte for byte (after that line), and loads;
//   - any other YAML block loads as what its keys make it: a configuration
//     (relative paths from the checkout's root), a configuration's search
//     section (on the built-in model), a mapping (analyze takes it and finds
//     it schedulable) or a sweep file.
func TestReadmeBlocks(t *testing.T) {
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range codeBlocks(t, filepath.Join(root, "README.md")) {
		name := "line " + strconv.Itoa(b.line)
		switch b.lang {
		case "sh":
			t.Run(name, func(t *testing.T) { runShellBlock(t, root, b) })
		case "yaml":
			t.Run(name, func(t *testing.T) { checkYAMLBlock(t, root, b) })
		default:
			t.Errorf("README line %d: a %q block: the test knows sh and yaml", b.line, b.lang)
		}
	}
}

var shellComment = regexp.MustCompile(`\s+#.*$`)

func runShellBlock(t *testing.T, root string, b codeBlock) {
	wd := t.TempDir()
	for _, line := range strings.Split(strings.TrimSpace(b.text), "\n") {
		line = strings.TrimSpace(shellComment.ReplaceAllString(line, ""))
		fields := strings.Fields(line)
		switch {
		case len(fields) == 0:
			continue
		case line == "go test ./...":
			continue // this test's own command
		case len(fields) < 3 || strings.Join(fields[:3], " ") != "go run ./cmd/hetmap":
			t.Errorf("README line %d: %q is not a hetmap command the test can run", b.line, line)
			continue
		}
		args := fields[3:]
		for i, a := range args {
			if strings.HasPrefix(a, "../shared/") {
				sharedtest.Require(t)
			}
			// An output stays relative to the test's own folder, even when
			// the checkout holds a folder of that name (a user who followed
			// the README wrote it there).
			if i > 0 && (args[i-1] == "--out" || args[i-1] == "-o" || args[i-1] == "--output") {
				// A run or sweep folder goes under runs/, where optimize
				// and sweep write by default, not into the checkout.
				if args[i-1] == "--out" && !strings.HasPrefix(a, runsFolder+"/") {
					t.Errorf("README line %d: --out %s: a run folder goes under %s/, where hetmap writes by default", b.line, a, runsFolder)
				}
				continue
			}
			if _, err := os.Stat(filepath.Join(root, a)); err == nil && !strings.HasPrefix(a, "-") {
				args[i] = filepath.Join(root, a)
			}
		}
		wantCode := 0
		if args[0] == "sweep" {
			switch {
			case contains(args, "--summarize"):
				// The folder of a sweep that has not run: its runs are
				// listed as missing.
				prepareSweepFolder(t, wd, args)
				wantCode = 1
			case !contains(args, "--dry-run"):
				args = append(args, "--dry-run")
			}
		}
		cmd := hetmapCommand(t, wd, args...)
		out, _ := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); code != wantCode {
			t.Errorf("README line %d: hetmap %s: exit %d (want %d):\n%s", b.line, strings.Join(fields[3:], " "), code, wantCode, out)
		}
	}
}

// prepareSweepFolder makes the --out of a --summarize command a sweep
// folder without runs, as a first shard that has just started leaves it.
func prepareSweepFolder(t *testing.T, wd string, args []string) {
	t.Helper()
	out := args[indexOf(args, "--out")+1]
	if !filepath.IsAbs(out) {
		out = filepath.Join(wd, out)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(args[1])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "sweep.yaml"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func contains(list []string, s string) bool { return indexOf(list, s) >= 0 }

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

func checkYAMLBlock(t *testing.T, root string, b codeBlock) {
	first, rest, _ := strings.Cut(b.text, "\n")
	if path, ok := strings.CutPrefix(first, "# "); ok && !strings.Contains(path, " ") {
		file := filepath.Join(root, path)
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("README line %d names %s: %v", b.line, path, err)
		}
		if string(data) != rest {
			t.Errorf("README line %d: the block is not %s as it is", b.line, path)
		}
		if _, err := sweep.Load(file); err != nil && strings.Contains(rest, "base:") {
			t.Errorf("README line %d: %v", b.line, err)
		}
		return
	}
	var keys map[string]any
	if err := yaml.Unmarshal([]byte(b.text), &keys); err != nil {
		t.Fatalf("README line %d: not YAML: %v", b.line, err)
	}
	_, hasModel := keys["model"]
	_, hasBase := keys["base"]
	_, hasUnits := keys["units"]
	_, hasSearch := keys["search"]
	switch {
	case hasBase:
		dir := t.TempDir()
		file := filepath.Join(dir, "sweep.yaml")
		os.WriteFile(file, []byte(b.text), 0o644)
		if _, err := sweep.Load(file); err != nil {
			t.Errorf("README line %d: the sweep file does not load: %v", b.line, err)
		}
	case hasModel:
		if strings.Contains(b.text, "../shared/") {
			sharedtest.Require(t)
		}
		if _, err := configs.Load(strings.NewReader(b.text), "README block", root); err != nil {
			t.Errorf("README line %d: the configuration does not load: %v", b.line, err)
		}
	case hasUnits:
		file := filepath.Join(t.TempDir(), "mapping.yaml")
		os.WriteFile(file, []byte(b.text), 0o644)
		if _, errOut, code := hetmap(t, "analyze", "--mapping", file); code != 0 {
			t.Errorf("README line %d: analyze --mapping: exit %d: %s", b.line, code, errOut)
		}
	case hasSearch && len(keys) == 1:
		if _, err := configs.Load(strings.NewReader("model: builtin\n"+b.text), "README block", root); err != nil {
			t.Errorf("README line %d: the search section does not load on the built-in model: %v", b.line, err)
		}
	default:
		t.Errorf("README line %d: a YAML block the test cannot place (keys %v)", b.line, keys)
	}
}

// TestReadmeFuzzTargets: the README's fuzzing table names every fuzz
// target of the module, in its package, and no other.
func TestReadmeFuzzTargets(t *testing.T) {
	root, _ := filepath.Abs(repoRoot)
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\s*\\| `(\\./[a-z/]+)` \\| (.*) \\|$")
	target := regexp.MustCompile("`(Fuzz[A-Za-z]+)`")
	listed := map[string]bool{}
	for _, m := range row.FindAllStringSubmatch(string(data), -1) {
		for _, f := range target.FindAllStringSubmatch(m[2], -1) {
			listed[strings.TrimPrefix(m[1], "./")+"."+f[1]] = true
		}
	}
	found := map[string]bool{}
	fuzz := regexp.MustCompile(`(?m)^func (Fuzz[A-Za-z0-9_]+)\(`)
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, _ := os.ReadFile(path)
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		for _, m := range fuzz.FindAllStringSubmatch(string(src), -1) {
			found[filepath.ToSlash(rel)+"."+m[1]] = true
		}
		return nil
	})
	for f := range found {
		if !listed[f] {
			t.Errorf("the README's fuzzing table lacks %s", f)
		}
	}
	for f := range listed {
		if !found[f] {
			t.Errorf("the README's fuzzing table names %s, which does not exist", f)
		}
	}
	if len(found) < 12 {
		t.Errorf("found %d fuzz targets, the module has at least 12", len(found))
	}
}

// TestClusterDocs: every hetmap command of docs/sweeps-on-a-cluster.md
// parses with the shards the job files give (the job arrays' variables
// taken at their first value): flags that exist, a valid --shard.
func TestClusterDocs(t *testing.T) {
	root, _ := filepath.Abs(repoRoot)
	n := 0
	vars := strings.NewReplacer(`"$K/$N"`, "1/8", `"$((JOB_COMPLETION_INDEX + 1))/8"`, "1/8", "{}/8", "1/8", `\`, "")
	for _, b := range codeBlocks(t, filepath.Join(root, "docs", "sweeps-on-a-cluster.md")) {
		for _, line := range strings.Split(b.text, "\n") {
			i := strings.Index(line, "hetmap sweep ")
			if i < 0 {
				continue
			}
			cmdline := strings.Trim(vars.Replace(line[i:]), `"`)
			args := strings.Fields(cmdline)[2:]
			cmd := newSweepCmd()
			if err := cmd.ParseFlags(args); err != nil {
				t.Errorf("docs line %q: %v", line, err)
				continue
			}
			if s, _ := cmd.Flags().GetString("shard"); s != "" {
				if _, err := sweep.ParseShard(s); err != nil {
					t.Errorf("docs line %q: %v", line, err)
				}
			}
			if out, _ := cmd.Flags().GetString("out"); out == "" {
				t.Errorf("docs line %q: no --out, which the shards share", line)
			}
			n++
		}
	}
	if n < 5 {
		t.Errorf("found %d hetmap commands in the cluster docs", n)
	}
}

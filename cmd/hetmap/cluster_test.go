package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/results/sweep"
	"gopkg.in/yaml.v3"
)

// The Kubernetes manifests of the sweep recipe (scripts/kubernetes) are
// checked against the API's own schema: an excerpt of the OpenAPI
// definitions that Kubernetes publishes (testdata/kubernetes, which names
// its source and licence), with every definition the manifests reach,
// whole but for its descriptions. -k8s-openapi rewrites the excerpt from
// the full definitions file.
var k8sOpenAPI = flag.String("k8s-openapi", "", "TestKubernetesManifests: rewrite testdata/kubernetes/openapi-excerpt.json from this Kubernetes OpenAPI v2 file (api/openapi-spec/swagger.json)")

const (
	k8sExcerpt   = "testdata/kubernetes/openapi-excerpt.json"
	k8sManifests = repoRoot + "/scripts/kubernetes"
)

// k8sSchema is an OpenAPI v2 schema, with the keys that validation uses.
type k8sSchema struct {
	Ref                  string                `json:"$ref,omitempty"`
	Type                 string                `json:"type,omitempty"`
	Format               string                `json:"format,omitempty"`
	Properties           map[string]*k8sSchema `json:"properties,omitempty"`
	Required             []string              `json:"required,omitempty"`
	Items                *k8sSchema            `json:"items,omitempty"`
	AdditionalProperties *k8sSchema            `json:"additionalProperties,omitempty"`
	GVK                  []k8sGVK              `json:"x-kubernetes-group-version-kind,omitempty"`
}

type k8sGVK struct {
	Group   string `json:"group"`
	Kind    string `json:"kind"`
	Version string `json:"version"`
}

type k8sSpec struct {
	Source      string                `json:"source,omitempty"`
	Definitions map[string]*k8sSchema `json:"definitions"`
}

const refPrefix = "#/definitions/"

// Definitions that the API server reads as a string or a number
// (int-or-string; the v2 definitions say "string").
var k8sIntOrString = map[string]bool{
	"io.k8s.apimachinery.pkg.api.resource.Quantity":   true,
	"io.k8s.apimachinery.pkg.util.intstr.IntOrString": true,
}

// validate checks v against s, adding each problem (with its path) to
// errs and each definition it reaches to used.
func (spec *k8sSpec) validate(v any, s *k8sSchema, path string, errs *[]string, used map[string]bool) {
	bad := func(format string, args ...any) { *errs = append(*errs, path+": "+fmt.Sprintf(format, args...)) }
	if s.Ref != "" {
		name := strings.TrimPrefix(s.Ref, refPrefix)
		used[name] = true
		def := spec.Definitions[name]
		if def == nil {
			bad("definition %s is not in %s: rewrite it with -k8s-openapi", name, k8sExcerpt)
			return
		}
		if k8sIntOrString[name] {
			switch v.(type) {
			case string, int, float64:
			default:
				bad("%v is no quantity (a string or a number)", v)
			}
			return
		}
		spec.validate(v, def, path, errs, used)
		return
	}
	switch s.Type {
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			bad("want an object, not %T %v", v, v)
			return
		}
		for _, r := range s.Required {
			if _, ok := m[r]; !ok {
				bad("the required field %s is missing", r)
			}
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			switch p := s.Properties[k]; {
			case p != nil:
				spec.validate(m[k], p, path+"."+k, errs, used)
			case s.AdditionalProperties != nil:
				spec.validate(m[k], s.AdditionalProperties, path+"."+k, errs, used)
			case s.Properties != nil:
				bad("unknown field %q", k)
			}
		}
	case "array":
		a, ok := v.([]any)
		if !ok {
			bad("want a list, not %T %v", v, v)
			return
		}
		for i, x := range a {
			spec.validate(x, s.Items, fmt.Sprintf("%s[%d]", path, i), errs, used)
		}
	case "string":
		if _, ok := v.(string); !ok {
			bad("want a string, not %T %v (quote it)", v, v)
		}
	case "integer":
		n, ok := v.(int)
		if !ok {
			bad("want an integer, not %T %v", v, v)
		} else if s.Format == "int32" && (n < math.MinInt32 || n > math.MaxInt32) {
			bad("%d is outside int32", n)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			bad("want true or false, not %T %v", v, v)
		}
	case "number":
		switch v.(type) {
		case int, float64:
		default:
			bad("want a number, not %T %v", v, v)
		}
	}
}

// kind finds the definition of a manifest's apiVersion and kind.
func (spec *k8sSpec) kind(m map[string]any) (string, error) {
	apiVersion, _ := m["apiVersion"].(string)
	kind, _ := m["kind"].(string)
	group, version, ok := strings.Cut(apiVersion, "/")
	if !ok {
		group, version = "", apiVersion
	}
	for name, def := range spec.Definitions {
		for _, g := range def.GVK {
			if g.Group == group && g.Version == version && g.Kind == kind {
				return name, nil
			}
		}
	}
	return "", fmt.Errorf("apiVersion %q, kind %q: no such definition", apiVersion, kind)
}

// check validates a manifest and returns its problems and the definitions
// it reaches.
func (spec *k8sSpec) check(m map[string]any) ([]string, map[string]bool) {
	var errs []string
	used := map[string]bool{}
	name, err := spec.kind(m)
	if err != nil {
		return []string{err.Error()}, used
	}
	spec.validate(m, &k8sSchema{Ref: refPrefix + name}, m["kind"].(string), &errs, used)
	return errs, used
}

func readK8sSpec(t *testing.T, path string) *k8sSpec {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var spec k8sSpec
	if err := json.Unmarshal(data, &spec); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &spec
}

// k8sManifest is a manifest of scripts/kubernetes, decoded.
type k8sManifest struct {
	file string
	text string
	obj  map[string]any
}

func readManifests(t *testing.T) []k8sManifest {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(k8sManifests, "*.yaml"))
	if err != nil || len(paths) != 3 {
		t.Fatalf("manifests %v (%v), want the volume claim, the shards and the summary", paths, err)
	}
	var out []k8sManifest
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var obj map[string]any
		if err := yaml.Unmarshal(data, &obj); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out = append(out, k8sManifest{file: filepath.Base(p), text: string(data), obj: obj})
	}
	return out
}

// TestKubernetesManifests: every manifest of the recipe is a valid object
// of its apiVersion and kind (batch/v1 Job, v1 PersistentVolumeClaim) by
// the Kubernetes OpenAPI definitions: no unknown field, every required
// field, every value of its type. The validator refutes: a misspelt field,
// a value of another type, a missing required field and an unknown kind
// are each reported. The excerpt holds exactly the definitions the
// manifests reach.
func TestKubernetesManifests(t *testing.T) {
	if *k8sOpenAPI != "" {
		writeK8sExcerpt(t, readK8sSpec(t, *k8sOpenAPI))
	}
	spec := readK8sSpec(t, k8sExcerpt)
	all := map[string]bool{}
	for _, m := range readManifests(t) {
		errs, used := spec.check(m.obj)
		for _, e := range errs {
			t.Errorf("%s: %s", m.file, e)
		}
		for d := range used {
			all[d] = true
		}
	}
	var extra []string
	for d := range spec.Definitions {
		if !all[d] {
			extra = append(extra, d)
		}
	}
	if len(extra) > 0 {
		t.Errorf("%s holds definitions no manifest reaches (rewrite it with -k8s-openapi): %v", k8sExcerpt, extra)
	}

	shards := k8sObject(t, "sweep-shards.yaml")
	for _, tt := range []struct {
		name   string
		change func(m map[string]any)
		want   string
	}{
		{"misspelt", func(m map[string]any) {
			spec := m["spec"].(map[string]any)
			spec["podFailurePolicies"] = spec["podFailurePolicy"]
		}, `Job.spec: unknown field "podFailurePolicies"`},
		{"nested", func(m map[string]any) { container(m)["volumeMount"] = []any{} }, `Job.spec.template.spec.containers[0]: unknown field "volumeMount"`},
		{"type", func(m map[string]any) { m["spec"].(map[string]any)["completions"] = "8" }, "Job.spec.completions: want an integer, not string 8"},
		{"int32", func(m map[string]any) { m["spec"].(map[string]any)["parallelism"] = 1 << 40 }, "is outside int32"},
		{"required", func(m map[string]any) { delete(m["spec"].(map[string]any), "template") }, "Job.spec: the required field template is missing"},
		{"quantity", func(m map[string]any) {
			container(m)["resources"].(map[string]any)["limits"].(map[string]any)["cpu"] = []any{4}
		}, "is no quantity"},
		{"kind", func(m map[string]any) { m["kind"] = "Jobs" }, `kind "Jobs": no such definition`},
	} {
		m := k8sObject(t, "sweep-shards.yaml")
		tt.change(m)
		errs, _ := spec.check(m)
		if !strings.Contains(strings.Join(errs, "\n"), tt.want) {
			t.Errorf("%s: %v; want %q", tt.name, errs, tt.want)
		}
	}
	if errs, _ := spec.check(shards); len(errs) > 0 {
		t.Errorf("the changes above changed the manifest: %v", errs)
	}
}

// k8sObject decodes one manifest afresh.
func k8sObject(t *testing.T, file string) map[string]any {
	t.Helper()
	for _, m := range readManifests(t) {
		if m.file == file {
			return m.obj
		}
	}
	t.Fatalf("no manifest %s", file)
	return nil
}

func podSpec(m map[string]any) map[string]any {
	return m["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)
}

func container(m map[string]any) map[string]any {
	return podSpec(m)["containers"].([]any)[0].(map[string]any)
}

// writeK8sExcerpt writes the definitions the manifests reach, without
// their descriptions and the keys validation does not use.
func writeK8sExcerpt(t *testing.T, full *k8sSpec) {
	used := map[string]bool{}
	for _, m := range readManifests(t) {
		errs, u := full.check(m.obj)
		if len(errs) > 0 {
			t.Fatalf("%s against %s: %v", m.file, *k8sOpenAPI, errs)
		}
		for d := range u {
			used[d] = true
		}
	}
	excerpt := k8sSpec{Source: "Kubernetes 1.36 api/openapi-spec/swagger.json (Apache-2.0, The Kubernetes Authors): see README.md", Definitions: map[string]*k8sSchema{}}
	for d := range used {
		excerpt.Definitions[d] = full.Definitions[d]
	}
	data, err := json.MarshalIndent(excerpt, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(k8sExcerpt, append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestKubernetesRecipe: what the schema cannot say, as the API reference
// states it and as the recipe needs it. The shards Job is Indexed with as
// many completions as --shard-index's N, its pods are never restarted in
// place (podFailurePolicy and backoffLimitPerIndex need restartPolicy
// Never), exit code 2 fails the index at once (FailIndex, which needs
// backoffLimitPerIndex) and disruptions are ignored; the summary Job fails
// at once on exit 1 or 2. Both mount the claim of the volume manifest,
// which is ReadWriteMany, and the ConfigMap the comment creates from the
// sweep file and its base. Images carry a version tag (not :latest, which
// pulls at every start) pulled IfNotPresent. The containers' arguments are
// hetmap's: with each index, the shards Job's runs hetmap's sweep --dry-run
// on the sweep file, and together the shards run every run once.
func TestKubernetesRecipe(t *testing.T) {
	var pvc, shards, summary map[string]any
	var shardsText string
	for _, m := range readManifests(t) {
		switch m.file {
		case "runs-volume.yaml":
			pvc = m.obj
		case "sweep-shards.yaml":
			shards, shardsText = m.obj, m.text
		case "sweep-summary.yaml":
			summary = m.obj
		}
	}
	if pvc == nil || shards == nil || summary == nil {
		t.Fatal("want runs-volume.yaml, sweep-shards.yaml and sweep-summary.yaml")
	}
	if modes := fmt.Sprint(pvc["spec"].(map[string]any)["accessModes"]); modes != "[ReadWriteMany]" {
		t.Errorf("the volume claim's access modes %s, want [ReadWriteMany]", modes)
	}
	claim := pvc["metadata"].(map[string]any)["name"]

	// The ConfigMap of the comment: its name and its files.
	m := regexp.MustCompile(`kubectl create configmap (\S+) (.*)`).FindStringSubmatch(shardsText)
	if m == nil {
		t.Fatal("sweep-shards.yaml does not say how to create the ConfigMap")
	}
	configMap, files := m[1], map[string]string{}
	for _, f := range regexp.MustCompile(`--from-file=(\S+)`).FindAllStringSubmatch(m[2], -1) {
		files[filepath.Base(f[1])] = filepath.Join(repoRoot, f[1])
	}

	spec := shards["spec"].(map[string]any)
	completions, _ := spec["completions"].(int)
	if spec["completionMode"] != "Indexed" || completions < 1 || spec["parallelism"].(int) > completions {
		t.Errorf("shards Job: completionMode %v, completions %v, parallelism %v", spec["completionMode"], spec["completions"], spec["parallelism"])
	}
	if n, _ := spec["backoffLimitPerIndex"].(int); n < 1 {
		t.Error("shards Job: no backoffLimitPerIndex, so a failed shard fails the Job")
	}
	checkFailurePolicy(t, "shards Job", shards, "FailIndex", []int{2})
	checkFailurePolicy(t, "summary Job", summary, "FailJob", []int{1, 2})

	for name, job := range map[string]map[string]any{"shards Job": shards, "summary Job": summary} {
		pod := podSpec(job)
		if pod["restartPolicy"] != "Never" {
			t.Errorf("%s: restartPolicy %v, want Never", name, pod["restartPolicy"])
		}
		c := container(job)
		image, _ := c["image"].(string)
		if tag := image[strings.LastIndex(image, "/")+1:]; !strings.Contains(tag, ":") || strings.HasSuffix(tag, ":latest") || c["imagePullPolicy"] != "IfNotPresent" {
			t.Errorf("%s: image %q pulled %v: want a version tag, pulled IfNotPresent", name, image, c["imagePullPolicy"])
		}
		mounts := map[string]string{}
		for _, v := range pod["volumes"].([]any) {
			v := v.(map[string]any)
			switch {
			case v["persistentVolumeClaim"] != nil:
				if got := v["persistentVolumeClaim"].(map[string]any)["claimName"]; got != claim {
					t.Errorf("%s mounts the claim %v, the volume manifest makes %v", name, got, claim)
				}
				mounts[v["name"].(string)] = "runs"
			case v["configMap"] != nil:
				if got := v["configMap"].(map[string]any)["name"]; got != configMap {
					t.Errorf("%s mounts the ConfigMap %v, the comment creates %v", name, got, configMap)
				}
				mounts[v["name"].(string)] = "sweep"
			}
		}
		var sweepDir string
		for _, vm := range c["volumeMounts"].([]any) {
			vm := vm.(map[string]any)
			if mounts[vm["name"].(string)] == "sweep" {
				sweepDir = vm["mountPath"].(string)
			}
		}
		args := k8sArgs(t, c["args"])
		if len(args) < 2 || args[0] != "sweep" || filepath.Dir(args[1]) != sweepDir || files[filepath.Base(args[1])] == "" {
			t.Fatalf("%s: arguments %v: want hetmap sweep on a file of the ConfigMap, mounted at %s", name, args, sweepDir)
		}
		sw, err := sweep.Load(files[filepath.Base(args[1])])
		if err != nil {
			t.Fatal(err)
		}
		if base := filepath.Base(sw.Base); files[base] == "" {
			t.Errorf("the ConfigMap lacks the sweep's base %s", base)
		}
		local := append([]string{"sweep", files[filepath.Base(args[1])]}, args[2:]...)
		if name == "summary Job" {
			cmd := newSweepCmd()
			if err := cmd.ParseFlags(local[2:]); err != nil || !strings.Contains(strings.Join(args, " "), "--summarize") {
				t.Errorf("summary Job: %v: %v", args, err)
			}
			continue
		}
		// Every index's pod runs its shard; together, every run once.
		seen := map[string]int{}
		for i := 0; i < completions; i++ {
			withIndex := strings.Split(strings.ReplaceAll(strings.Join(local, "\x00"), "$(JOB_COMPLETION_INDEX)", strconv.Itoa(i)), "\x00")
			stdout, errOut, code := hetmap(t, append(withIndex, "--dry-run")...)
			if code != 0 || !strings.Contains(stdout, fmt.Sprintf("shard %d/%d: ", i+1, completions)) {
				t.Fatalf("index %d: hetmap %v --dry-run: exit %d\n%s%s", i, withIndex, code, stdout, errOut)
			}
			for _, line := range strings.Split(stdout, "\n") {
				if strings.HasPrefix(line, "run-") {
					seen[line]++
				}
			}
		}
		if len(seen) != len(sw.Runs) {
			t.Errorf("the %d shards run %d of the %d runs", completions, len(seen), len(sw.Runs))
		}
		for run, n := range seen {
			if n != 1 {
				t.Errorf("%s runs in %d shards", run, n)
			}
		}
	}
}

// k8sArgs reads a container's args.
func k8sArgs(t *testing.T, v any) []string {
	t.Helper()
	list, ok := v.([]any)
	if !ok {
		t.Fatalf("args %v: want a list", v)
	}
	var args []string
	for _, a := range list {
		args = append(args, fmt.Sprint(a))
	}
	return args
}

// checkFailurePolicy: the Job's podFailurePolicy takes action on exactly
// the exit codes codes of its container and ignores disruptions.
func checkFailurePolicy(t *testing.T, name string, job map[string]any, action string, codes []int) {
	t.Helper()
	policy, _ := job["spec"].(map[string]any)["podFailurePolicy"].(map[string]any)
	if policy == nil {
		t.Errorf("%s: no podFailurePolicy", name)
		return
	}
	onCodes, ignoresDisruption := false, false
	for _, r := range policy["rules"].([]any) {
		r := r.(map[string]any)
		if e, ok := r["onExitCodes"].(map[string]any); ok && r["action"] == action {
			onCodes = e["containerName"] == container(job)["name"] && e["operator"] == "In" && fmt.Sprint(e["values"]) == fmt.Sprint(intsAny(codes))
		}
		if c, ok := r["onPodConditions"].([]any); ok && r["action"] == "Ignore" && len(c) == 1 && c[0].(map[string]any)["type"] == "DisruptionTarget" {
			ignoresDisruption = true
		}
	}
	if !onCodes || !ignoresDisruption {
		t.Errorf("%s: podFailurePolicy %v: want %s on the exit codes %v of its container, Ignore on DisruptionTarget", name, policy, action, codes)
	}
}

func intsAny(xs []int) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// TestContainerfile: the image runs hetmap as its entry point, from
// nothing (FROM scratch: built offline, no shell to need), as a user
// without privileges; the build script refuses :latest.
func TestContainerfile(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "scripts", "container", "Containerfile"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	want := []string{"FROM scratch", "COPY hetmap /hetmap", "USER 65532:65532", `ENTRYPOINT ["/hetmap"]`}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("Containerfile instructions:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	build, err := os.ReadFile(filepath.Join(repoRoot, "scripts", "container", "build"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(build, []byte("CGO_ENABLED=0 go build")) || !bytes.Contains(build, []byte(`*:latest|*:) fail`)) {
		t.Error("the build script does not build a static binary or does not refuse :latest")
	}
}

package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"maps"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/internal/sharedtest"
)

// TestManifest: the manifest in the repository parses, pins every file by
// a full commit and a SHA-256, and covers every folder the tests read.
func TestManifest(t *testing.T) {
	m, err := parseManifest(manifestText)
	if err != nil {
		t.Fatal(err)
	}
	folders := map[string]int{}
	for _, e := range m {
		folders[strings.SplitN(e.File, "/", 2)[0]]++
		if !strings.HasPrefix(e.URL(), "https://raw.githubusercontent.com/"+e.Repo+"/"+e.Commit+"/") {
			t.Errorf("%s: URL %s", e.File, e.URL())
		}
	}
	for _, f := range []string{"waters2019", "amalthea-examples", "cuda_scheduling_examiner"} {
		if folders[f] == 0 {
			t.Errorf("the manifest lists nothing in %s/", f)
		}
	}
	if folders["spec"] != 0 {
		t.Errorf("the manifest lists spec/, which has no public source")
	}
}

// TestManifestMatchesShared: every file of the manifest is in ../shared
// with the manifest's SHA-256 (so the manifest describes the inputs the
// tests read).
func TestManifestMatchesShared(t *testing.T) {
	sharedtest.Require(t)
	m, err := parseManifest(manifestText)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range m {
		if err := verify(sharedtest.Root(), e); err != nil {
			t.Error(err)
		}
	}
}

// TestParseManifestRejects: a line that does not pin a file, or whose file
// would land outside the folder, is refused, naming the line.
func TestParseManifestRejects(t *testing.T) {
	const sum, commit = "0906322b31d2ffb1b0c9b031db2b73aa75f274f2a9bdff38998524e630785126", "768886248c89e3d749e157f022b88d747508fa68"
	for _, tt := range []struct{ line, want string }{
		{"a.json " + sum + " o/r " + commit, "4 fields, want 5"},
		{"a.json " + sum[:63] + " o/r " + commit + " p", "SHA-256"},
		{"a.json " + strings.ToUpper(sum) + " o/r " + commit + " p", "SHA-256"},
		{"a.json " + sum + " o/r 7688862 p", "commit \"7688862\" is not 40"},
		{"a.json " + sum + " or " + commit + " p", "not owner/name"},
		{"../a.json " + sum + " o/r " + commit + " p", "inside the folder"},
		{"/etc/a.json " + sum + " o/r " + commit + " p", "inside the folder"},
		{"x/../../a " + sum + " o/r " + commit + " p", "inside the folder"},
		{"a.json " + sum + " o/r " + commit + " ../p", "relative path in the repository"},
		{"a.json " + sum + " o/r " + commit + " p\na.json " + sum + " o/r " + commit + " q", "line 2: file a.json is listed already on line 1"},
		{"# nothing\n\n", "lists no file"},
	} {
		if _, err := parseManifest([]byte(tt.line)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want one saying %q", tt.line, err, tt.want)
		}
	}
}

// TestFetchAll: with the network replaced by a map of URLs, the files are
// fetched into an empty folder; a second run fetches nothing; when one
// file's content is not the manifest's (a changed upstream, a proxy's error
// page) nothing is written: the missing file stays missing, a wrong file
// already there stays as it was, and no temporary file is left; once every
// file checks, the missing one is fetched and the wrong one replaced;
// -check says which files are missing or wrong.
func TestFetchAll(t *testing.T) {
	good := map[string][]byte{"a/one.json": []byte("{\"one\": 1}\n"), "b/c/two.amxmi": []byte("<xmi/>\r\n")}
	m, served := testManifest(t, good)
	calls := 0
	get := func(_ context.Context, url string) (io.ReadCloser, error) {
		calls++
		data, ok := served[url]
		if !ok {
			return nil, errors.New("404 Not Found")
		}
		return io.NopCloser(bytes.NewReader(data)), nil
	}
	parent := t.TempDir()
	dir := filepath.Join(parent, "shared")
	if fetched, kept, errs := fetchAll(context.Background(), m, dir, get); fetched != 2 || kept != 0 || len(errs) != 0 {
		t.Fatalf("empty folder: %d fetched, %d kept, %v", fetched, kept, errs)
	}
	for f, data := range good {
		if got, err := os.ReadFile(filepath.Join(dir, f)); err != nil || !bytes.Equal(got, data) {
			t.Errorf("%s: %q (%v), want %q", f, got, err, data)
		}
	}
	calls = 0
	if fetched, kept, errs := fetchAll(context.Background(), m, dir, get); fetched != 0 || kept != 2 || len(errs) != 0 || calls != 0 {
		t.Errorf("second run: %d fetched, %d kept, %v, %d downloads; want none fetched", fetched, kept, errs, calls)
	}

	// Upstream changed: the first file is refused, and so nothing is put
	// in place: the second (wrong on disk) stays as it is.
	served[m[0].URL()] = []byte("<html>rate limited</html>")
	os.Remove(filepath.Join(dir, m[0].File))
	os.WriteFile(filepath.Join(dir, m[1].File), []byte("stale"), 0o644)
	var out bytes.Buffer
	if code := run([]string{"-check", "-dir", dir}, &out, io.Discard); code != 1 ||
		!strings.Contains(out.String(), "a/one.json: missing") || !strings.Contains(out.String(), "b/c/two.amxmi: SHA-256 ") {
		t.Errorf("-check: exit %d, %s", code, out.String())
	}
	fetched, kept, errs := fetchAll(context.Background(), m, dir, get)
	if fetched != 0 || kept != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "a/one.json: https://raw.githubusercontent.com/owner/repo/") ||
		!strings.Contains(errs[0].Error(), "the manifest says "+m[0].SHA256+": not put in place") {
		t.Errorf("changed upstream: %d fetched, %d kept, %v", fetched, kept, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, m[0].File)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a file with the wrong checksum was put in place (%v)", err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, m[1].File)); string(got) != "stale" {
		t.Errorf("the stale file was replaced while another failed: %q", got)
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 1 {
		t.Errorf("beside the folder: %v; want nothing but it", entries)
	}

	served[m[0].URL()] = good[m[0].File]
	if fetched, kept, errs := fetchAll(context.Background(), m, dir, get); fetched != 2 || kept != 0 || len(errs) != 0 {
		t.Errorf("every file checks: %d fetched, %d kept, %v", fetched, kept, errs)
	}
	out.Reset()
	if code := run([]string{"-check", "-dir", dir}, &out, io.Discard); code != 0 {
		t.Errorf("-check after fetching: exit %d, %s", code, out.String())
	}
}

// TestOffline: without the network the command says so in one line and
// writes nothing (it printed a DNS error per file and left an empty
// ../shared, after which every test that needs it failed alone).
func TestOffline(t *testing.T) {
	m, _ := testManifest(t, map[string][]byte{"a/one.json": []byte("1"), "b/two.json": []byte("2"), "c/three.json": []byte("3")})
	calls := 0
	old := httpGet
	t.Cleanup(func() { httpGet = old })
	httpGet = func(_ context.Context, u string) (io.ReadCloser, error) {
		calls++
		return nil, &url.Error{Op: "Get", URL: u, Err: &net.OpError{Op: "dial", Net: "tcp",
			Err: &net.DNSError{Err: "no such host", Name: "raw.githubusercontent.com", IsNotFound: true}}}
	}
	parent := t.TempDir()
	var out, errOut bytes.Buffer
	code := run([]string{"-dir", filepath.Join(parent, "shared")}, &out, &errOut)
	lines := strings.Split(strings.TrimSuffix(errOut.String(), "\n"), "\n")
	if code != 1 || len(lines) != 1 || !strings.HasPrefix(lines[0], "fetchshared: cannot reach "+m[0].URL()) ||
		!strings.Contains(lines[0], "no such host): fetching the reference inputs needs the network; nothing was written") || out.Len() > 0 {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and one line saying it needs the network", code, out.String(), errOut.String())
	}
	if calls != 1 {
		t.Errorf("%d fetches tried; the first failure says it for all", calls)
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 0 {
		t.Errorf("wrote %v", entries)
	}
}

// testManifest makes the manifest of the files, served at their URLs, the
// one run reads for the test.
func testManifest(t *testing.T, files map[string][]byte) ([]entry, map[string][]byte) {
	var m []entry
	served := map[string][]byte{}
	for _, f := range slices.Sorted(maps.Keys(files)) {
		s := sha256.Sum256(files[f])
		e := entry{File: f, SHA256: hex.EncodeToString(s[:]), Repo: "owner/repo", Commit: strings.Repeat("ab", 20), Path: "src/" + filepath.Base(f)}
		m = append(m, e)
		served[e.URL()] = files[f]
	}
	old := manifestText
	t.Cleanup(func() { manifestText = old })
	var text bytes.Buffer
	for _, e := range m {
		text.WriteString(e.File + " " + e.SHA256 + " " + e.Repo + " " + e.Commit + " " + e.Path + "\n")
	}
	manifestText = text.Bytes()
	return m, served
}

// TestList: -list prints every file with its pinned URL and checksum, and
// the command says that spec/ has no public source.
func TestList(t *testing.T) {
	var out bytes.Buffer
	if code := run([]string{"-list"}, &out, io.Discard); code != 0 ||
		!strings.Contains(out.String(), "waters2019/ChallengeModel_release_fix.amxmi\thttps://raw.githubusercontent.com/panorama-research/mobstr-dataset/768886248c89e3d749e157f022b88d747508fa68/app4mc.waters.fmtv.challenge.amalthea/ChallengeModel_release_fix.amxmi\t0906322b") {
		t.Errorf("-list: exit %d, %s", code, out.String())
	}
	if !strings.Contains(notFetched, "spec/") || !strings.Contains(notFetched, "no public source") {
		t.Errorf("the note on spec/: %s", notFetched)
	}
	if code := run([]string{"extra"}, io.Discard, io.Discard); code != 2 {
		t.Errorf("an argument: exit %d, want 2", code)
	}
}

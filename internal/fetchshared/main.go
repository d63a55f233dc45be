// Command fetchshared fetches the reference inputs that the tests read from
// ../shared (beside the checkout) from their public sources: every file
// listed in manifest.txt, from raw.githubusercontent.com at the commit the
// manifest pins, checked against the SHA-256 it gives. A file already there
// with the right checksum is kept; the others are fetched into a temporary
// folder beside ../shared and put in place only once every one of them
// checks: a failed fetch (offline, a changed upstream) writes nothing.
// Offline, it says so in one line. Nothing but Go and an internet
// connection is needed:
//
//	go run ./internal/fetchshared            # fetch what is missing into ../shared
//	go run ./internal/fetchshared -check     # only check ../shared against the manifest (offline)
//	go run ./internal/fetchshared -list      # print the manifest: file, URL, SHA-256
//
// ../shared/spec/ (the domain specification) and the README.md and
// SOURCE.md notes of ../shared are this project's own text, with no public
// source: the command says so and fetches nothing for them (the tests do
// not read them).
//
// Exit status: 0 when every file is in place with its checksum, 1 when one
// is missing or wrong (after -check) or could not be fetched (then nothing
// was written), 2 for bad usage or a bad manifest.
package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

//go:embed manifest.txt
var manifestText []byte

// entry is one file of the manifest.
type entry struct {
	File   string // path in ../shared, slash-separated
	SHA256 string // 64 lower-case hex digits
	Repo   string // GitHub owner/name
	Commit string // 40 hex digits
	Path   string // path in the repository
}

// URL is where the file is fetched: the blob at the pinned commit.
func (e entry) URL() string {
	return "https://raw.githubusercontent.com/" + e.Repo + "/" + e.Commit + "/" + e.Path
}

// notFetched says what ../shared holds that has no public source.
const notFetched = "not fetched: ../shared/spec/ (the domain specification) and the README.md and SOURCE.md notes " +
	"of ../shared are this project's own text and have no public source; the tests do not read them, " +
	"and the provenance of every file fetched is in internal/fetchshared/manifest.txt"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fetchshared", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "", "the folder to fill (default: ../shared beside the module's root)")
	check := fs.Bool("check", false, "only check the files against the manifest, fetching nothing")
	list := fs.Bool("list", false, "print the manifest (file, URL, SHA-256) and exit")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "fetchshared: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	m, err := parseManifest(manifestText)
	if err != nil {
		fmt.Fprintf(stderr, "fetchshared: %v\n", err)
		return 2
	}
	if *list {
		for _, e := range m {
			fmt.Fprintf(stdout, "%s\t%s\t%s\n", e.File, e.URL(), e.SHA256)
		}
		return 0
	}
	if *dir == "" {
		root, err := moduleRoot()
		if err != nil {
			fmt.Fprintf(stderr, "fetchshared: %v; give -dir\n", err)
			return 2
		}
		*dir = filepath.Join(filepath.Dir(root), "shared")
	}
	var bad int
	if *check {
		for _, e := range m {
			if err := verify(*dir, e); err != nil {
				fmt.Fprintf(stdout, "%s\n", err)
				bad++
			}
		}
		if bad > 0 {
			fmt.Fprintf(stdout, "%d of %d files missing or wrong in %s: go run ./internal/fetchshared fetches them\n", bad, len(m), *dir)
			return 1
		}
		fmt.Fprintf(stdout, "all %d files in %s match the manifest\n%s\n", len(m), *dir, notFetched)
		return 0
	}
	fetched, kept, errs := fetchAll(context.Background(), m, *dir, httpGet)
	var offline *offlineError
	switch {
	case len(errs) == 1 && errors.As(errs[0], &offline):
		fmt.Fprintf(stderr, "fetchshared: %v\n", offline)
		return 1
	case len(errs) > 0:
		for _, err := range errs {
			fmt.Fprintf(stderr, "fetchshared: %v\n", err)
		}
		fmt.Fprintf(stderr, "fetchshared: %d of the %d files to fetch failed: nothing was written into %s\n", len(errs), len(m)-kept, *dir)
		return 1
	}
	fmt.Fprintf(stdout, "%s: %d fetched, %d already there, of %d files\n%s\n", *dir, fetched, kept, len(m), notFetched)
	return 0
}

// httpGet fetches url: the body of a 200 response, else an error; a
// variable for the tests.
var httpGet = func(ctx context.Context, url string) (io.ReadCloser, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, fmt.Errorf("%s", resp.Status)
	}
	return resp.Body, nil
}

var httpClient = &http.Client{Timeout: 2 * time.Minute}

// offlineError is a fetch that failed for want of the network (a name
// that does not resolve, a connection refused or timed out): every other
// fetch would fail alike, so the command says it once.
type offlineError struct {
	url string
	err error
}

func (e *offlineError) Error() string {
	return fmt.Sprintf("cannot reach %s (%v): fetching the reference inputs needs the network; nothing was written (go test -short ./... runs without them)", e.url, e.err)
}

// moduleRoot returns the folder of go.mod, looking up from the working
// directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod in the working directory or above it: run it from the checkout")
		}
		dir = parent
	}
}

// parseManifest reads the manifest: one entry a line, five fields
// separated by spaces (file, SHA-256, repository, commit, path), '#'
// comments and blank lines ignored. A file must be a relative,
// slash-separated path that stays inside the folder, listed once.
func parseManifest(data []byte) ([]entry, error) {
	var out []entry
	seen := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 5 {
			return nil, fmt.Errorf("manifest line %d: %d fields, want 5 (file, SHA-256, repository, commit, path)", n, len(f))
		}
		e := entry{File: f[0], SHA256: f[1], Repo: f[2], Commit: f[3], Path: f[4]}
		switch {
		case !isHex(e.SHA256, 64):
			return nil, fmt.Errorf("manifest line %d: SHA-256 %q is not 64 lower-case hex digits", n, e.SHA256)
		case !isHex(e.Commit, 40):
			return nil, fmt.Errorf("manifest line %d: commit %q is not 40 lower-case hex digits (a full commit pins the file)", n, e.Commit)
		case strings.Count(e.Repo, "/") != 1 || strings.HasPrefix(e.Repo, "/") || strings.HasSuffix(e.Repo, "/"):
			return nil, fmt.Errorf("manifest line %d: repository %q is not owner/name", n, e.Repo)
		case !local(e.File):
			return nil, fmt.Errorf("manifest line %d: file %q must be a relative path inside the folder", n, e.File)
		case !local(e.Path):
			return nil, fmt.Errorf("manifest line %d: path %q must be a relative path in the repository", n, e.Path)
		}
		if first, dup := seen[e.File]; dup {
			return nil, fmt.Errorf("manifest line %d: file %s is listed already on line %d", n, e.File, first)
		}
		seen[e.File] = n
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New("the manifest lists no file")
	}
	return out, nil
}

func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// local reports whether p is a clean relative slash path that does not
// leave its folder.
func local(p string) bool {
	return p != "" && path.Clean(p) == p && !path.IsAbs(p) && p != "." && !strings.HasPrefix(p, "../") && p != ".." &&
		!strings.Contains(p, "\\") && filepath.IsLocal(filepath.FromSlash(p))
}

// verify checks that dir holds e's file with e's checksum.
func verify(dir string, e entry) error {
	path := filepath.Join(dir, filepath.FromSlash(e.File))
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file", e.File) // a FIFO would block the read
	}
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("%s: missing", e.File)
		}
		return err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return fmt.Errorf("%s: %v", e.File, err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != e.SHA256 {
		return fmt.Errorf("%s: SHA-256 %s, the manifest says %s", e.File, got, e.SHA256)
	}
	return nil
}

// maxFile bounds what one download may be: the largest reference input
// is under 100 kB.
const maxFile = 16 << 20

// fetchAll puts every file of m into dir, or nothing: a file already there
// with its checksum is kept; the others are fetched with get from their
// URLs into a temporary folder beside dir and checked, and only when every
// one has the manifest's SHA-256 are they moved into dir (made if need
// be). It returns how many it fetched and kept, and an error for every
// file that failed; then dir is as it was. A fetch that fails for want of
// the network stops the others: the one error is an *offlineError.
func fetchAll(ctx context.Context, m []entry, dir string, get func(context.Context, string) (io.ReadCloser, error)) (fetched, kept int, errs []error) {
	var need []entry
	for _, e := range m {
		if verify(dir, e) == nil {
			kept++
		} else {
			need = append(need, e)
		}
	}
	if len(need) == 0 {
		return 0, kept, nil
	}
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return 0, kept, []error{err}
	}
	stage, err := os.MkdirTemp(parent, ".fetchshared-*.tmp")
	if err != nil {
		return 0, kept, []error{err}
	}
	defer os.RemoveAll(stage)
	for _, e := range need {
		err := fetchOne(ctx, stage, e, get)
		var ne net.Error
		if errors.As(err, &ne) {
			return 0, kept, []error{&offlineError{url: e.URL(), err: ne}}
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return 0, kept, errs
	}
	for _, e := range need {
		dst := filepath.Join(dir, filepath.FromSlash(e.File))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return fetched, kept, []error{err}
		}
		if err := os.Rename(filepath.Join(stage, filepath.FromSlash(e.File)), dst); err != nil {
			return fetched, kept, []error{err}
		}
		fetched++
	}
	return fetched, kept, nil
}

// fetchOne fetches e's file with get into the folder stage and checks it
// against the manifest. An error that get returns is wrapped (%w): the
// caller tells a network failure by it.
func fetchOne(ctx context.Context, stage string, e entry, get func(context.Context, string) (io.ReadCloser, error)) error {
	dst := filepath.Join(stage, filepath.FromSlash(e.File))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	body, err := get(ctx, e.URL())
	if err != nil {
		return fmt.Errorf("%s: fetching %s: %w", e.File, e.URL(), err)
	}
	defer body.Close()
	f, err := os.Create(dst)
	if err != nil {
		return err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), io.LimitReader(body, maxFile+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil:
		return fmt.Errorf("%s: fetching %s: %w", e.File, e.URL(), err)
	case n > maxFile:
		return fmt.Errorf("%s: %s is larger than %d MiB, not the file the manifest names", e.File, e.URL(), maxFile>>20)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != e.SHA256 {
		return fmt.Errorf("%s: %s has SHA-256 %s, the manifest says %s: not put in place", e.File, e.URL(), got, e.SHA256)
	}
	return nil
}

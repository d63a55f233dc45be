package amalthea

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hetmap/hetmap/configs"
)

// NamespacePrefix starts the namespace of every APP4MC Amalthea
// metamodel; the version follows it ("…/amalthea/0.9.8").
const NamespacePrefix = "http://app4mc.eclipse.org/amalthea/"

// Versions lists the metamodel versions hetmap reads, oldest first:
// every APP4MC release from 0.9.0 (the first with the ProcessingUnit
// hardware model) to 3.3.0. A newer version is read as the newest one, with
// a warning. 0.9.0 to 0.9.2 are read as APP4MC's model migration converts
// them to 0.9.3 (see amalthea_old.go).
var Versions = []string{
	"0.9.0", "0.9.1", "0.9.2", "0.9.3", "0.9.4", "0.9.5", "0.9.6", "0.9.7", "0.9.8", "0.9.9",
	"1.0.0", "1.1.0", "1.2.0", "2.0.0", "2.1.0", "2.2.0", "3.0.0", "3.1.0", "3.2.0", "3.3.0",
}

// version is a metamodel version as three numbers.
type version [3]int

func parseVersion(s string) (version, bool) {
	var v version
	parts := strings.Split(s, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return v, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 9999 {
			return v, false
		}
		v[i] = n
	}
	return v, true
}

func (v version) less(w version) bool {
	for i := range v {
		if v[i] != w[i] {
			return v[i] < w[i]
		}
	}
	return false
}

func (v version) String() string { return fmt.Sprintf("%d.%d.%d", v[0], v[1], v[2]) }

var (
	oldestVersion, _ = parseVersion(Versions[0])
	newestVersion, _ = parseVersion(Versions[len(Versions)-1])
)

// migrationAdvice ends every message about a version hetmap does not read.
func migrationAdvice(found string) string {
	return fmt.Sprintf("hetmap reads Amalthea %s to %s (namespaces %s%s … %s); APP4MC's model migration (the Eclipse APP4MC platform, or its amalthea.converters) converts %s to a version hetmap reads",
		Versions[0], Versions[len(Versions)-1], NamespacePrefix, Versions[0],
		Versions[len(Versions)-1], found)
}

// checkVersion finds the metamodel version of a parsed file from its root
// element and namespace. It refuses an older version (0.7 … 0.8.3), the
// ITEA AMALTHEA metamodel and anything that is not an Amalthea model, with
// one message naming what it found; a version newer than the newest known
// one is read with a warning.
func checkVersion(root *xnode) (version, []configs.Warning, error) {
	n := root
	// A model may be wrapped in an <xmi:XMI> element.
	if n.name == "XMI" && len(n.kids) > 0 {
		n = n.kids[0]
	}
	switch {
	case n.name == "AMALTHEA" || strings.Contains(n.space, "amalthea.itea2.org") || strings.Contains(n.space, "amalthea-project.org"):
		return version{}, nil, &configs.InputError{File: root.file, Line: n.line, Where: n.name,
			What: fmt.Sprintf("an ITEA AMALTHEA model (namespace %s): %s", n.space, migrationAdvice("it"))}
	case n.name != "Amalthea":
		return version{}, nil, &configs.InputError{File: root.file, Line: n.line, Where: n.name,
			What: fmt.Sprintf("not an Amalthea model: the root element is <%s> (namespace %q), expected <am:Amalthea xmlns:am=\"%s<version>\">", n.name, n.space, NamespacePrefix)}
	case !strings.HasPrefix(n.space, NamespacePrefix):
		return version{}, nil, &configs.InputError{File: root.file, Line: n.line, Where: "Amalthea",
			What: fmt.Sprintf("unsupported namespace %q: expected %s<version>; %s", n.space, NamespacePrefix, migrationAdvice("older models"))}
	}
	raw := strings.TrimSuffix(strings.TrimPrefix(n.space, NamespacePrefix), "/")
	v, ok := parseVersion(raw)
	if !ok {
		return v, nil, &configs.InputError{File: root.file, Line: n.line, Where: "Amalthea",
			What: fmt.Sprintf("unsupported namespace %q: %q is not a version; %s", n.space, raw, migrationAdvice("older models"))}
	}
	if v.less(oldestVersion) {
		return v, nil, &configs.InputError{File: root.file, Line: n.line, Where: "Amalthea",
			What: fmt.Sprintf("the model is Amalthea %s (namespace %s), older than hetmap reads: %s", raw, n.space, migrationAdvice("it"))}
	}
	var warns []configs.Warning
	if newestVersion.less(v) {
		warns = append(warns, configs.Warning{Where: "Amalthea", What: fmt.Sprintf("the model is Amalthea %s, newer than the newest version hetmap knows (%s): read as %s; an element hetmap does not know is an error that names it",
			raw, newestVersion, newestVersion)})
	}
	return v, warns, nil
}

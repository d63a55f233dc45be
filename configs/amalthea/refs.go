package amalthea

import (
	"net/url"
	"sort"
	"strings"

	"github.com/hetmap/hetmap/configs"
)

// References. APP4MC names an element by "Name?type=Kind" (the name
// escaped, refName), and so do hetmap's reader and writer. A model saved by
// a plain EMF writer may instead name elements by their xmi:id
// (task="_u0", href="hw.amxmi#_x7"): resolveIDs rewrites such references
// to the names of the elements they identify before the model is read, so
// that both forms read the same, and the export writes a reference to an
// element that has an xmi:id as that id (exporter.ref).

// xmiNS is the namespace of the xmi:id attribute.
const xmiNS = "http://www.omg.org/XMI"

// xmiID returns the xmi:id of n, or "".
func xmiID(n *xnode) string {
	for _, a := range n.attrs {
		if a.Name.Local == "id" && a.Name.Space == xmiNS {
			return a.Value
		}
	}
	return ""
}

// featureKinds are the metaclasses of the elements, without an xsi:type,
// of the features the export references.
var featureKinds = map[string]string{
	"tasks": "Task", "runnables": "Runnable", "labels": "Label", "taskSchedulers": "TaskScheduler",
	"schedulerDefinitions": "SchedulerDefinition", "schedulingParameterDefinitions": "SchedulingParameterDefinition",
}

// kindOf returns the metaclass of element n: its xsi:type, else its
// feature's type where featureKinds knows it, else the feature's name.
func kindOf(n *xnode) string {
	if t := n.typ(); t != "" {
		return t
	}
	if k, ok := featureKinds[n.name]; ok {
		return k
	}
	return n.name
}

// notReferences are attributes whose values are never references.
var notReferences = map[string]bool{
	"name": true, "value": true, "unit": true, "description": true, "displayName": true, "uuid": true,
	"version": true, "id": true, "lowerBound": true, "upperBound": true, "average": true,
}

// resolveIDs rewrites the references by xmi:id of the model's files to
// references by name: in an attribute every blank-separated token that is
// the xmi:id of a named element of the model (and no "Name?type=Kind"
// reference), in an href the fragment. It records each element's id for
// the export (ids) and, when it rewrote any, one warning naming the
// attributes that held ids.
func (im *importer) resolveIDs() {
	byID := map[string]*xnode{}
	var index func(n *xnode)
	index = func(n *xnode) {
		if id := xmiID(n); id != "" && n.attr("name") != "" {
			byID[id] = n
		}
		for _, k := range n.kids {
			index(k)
		}
	}
	for _, r := range im.roots {
		index(r)
	}
	if len(byID) == 0 {
		return
	}
	im.ids = map[string]string{}
	for id, n := range byID {
		if !strings.Contains(id, "?type=") { // APP4MC's ids are its references
			im.ids[kindOf(n)+"\x00"+n.attr("name")] = id
		}
	}
	name := func(id string) (string, bool) {
		if strings.Contains(id, "?type=") {
			return "", false
		}
		n, ok := byID[id]
		if !ok {
			return "", false
		}
		return url.QueryEscape(n.attr("name")) + "?type=" + kindOf(n), true
	}
	held := map[string]int{} // element/attribute → references rewritten
	var rewrite func(n *xnode)
	rewrite = func(n *xnode) {
		for i, a := range n.attrs {
			if a.Name.Space == xsiNS || a.Name.Space == xmiNS || a.Name.Space == "xmlns" || notReferences[a.Name.Local] {
				continue
			}
			if a.Name.Local == "href" {
				if j := strings.LastIndexByte(a.Value, '#'); j >= 0 {
					if ref, ok := name(a.Value[j+1:]); ok {
						n.attrs[i].Value = a.Value[:j+1] + ref
						held[n.name+"/"+a.Name.Local]++
					}
				}
				continue
			}
			toks := strings.Fields(a.Value)
			refs := make([]string, 0, len(toks))
			for _, t := range toks {
				ref, ok := name(t)
				if !ok {
					break
				}
				refs = append(refs, ref)
			}
			if len(toks) > 0 && len(refs) == len(toks) {
				n.attrs[i].Value = strings.Join(refs, " ")
				held[n.name+"/"+a.Name.Local] += len(refs)
			}
		}
		for _, k := range n.kids {
			rewrite(k)
		}
	}
	for _, r := range im.roots {
		rewrite(r)
	}
	if len(held) == 0 {
		im.ids = nil
		return
	}
	var attrs []string
	total := 0
	for k, c := range held {
		attrs = append(attrs, k)
		total += c
	}
	sort.Strings(attrs)
	im.byIDs = true
	im.warn("Amalthea", "%d reference(s) name elements by their xmi:id (in %s): resolved to the elements' names, as hetmap reads references by name (Name?type=Kind); the export writes references to these elements by id", total, listSome(attrs, 6))
}

// undefinedRef is the error for a reference (the attribute or child
// feature of element at, at where) that names nothing of kind what: an
// unset reference says so instead of quoting an empty name; a name that
// looks like an xmi:id says that hetmap resolves names and the model's
// ids.
func (im *importer) undefinedRef(at *xnode, where, what, feature, name string) *configs.InputError {
	if name == "" {
		return im.errAt(at, where, "names no %s: its %s reference is unset", what, feature)
	}
	if !strings.ContainsAny(name, " ") && (strings.HasPrefix(name, "_") || im.byIDs) {
		return im.errAt(at, where, "%s %q is not defined: hetmap resolves a reference by the element's name (Name?type=Kind) or by an xmi:id of the model's files, and %s=%q is neither", what, name, feature, name)
	}
	return im.errAt(at, where, "%s %q is not defined", what, name)
}

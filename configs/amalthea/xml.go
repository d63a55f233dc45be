package amalthea

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"sort"
	"strings"

	"github.com/hetmap/hetmap/configs"
)

// The importer reads an Amalthea XMI file into a small element tree (xnode)
// and interprets it by element and xsi:type names, so that one reader serves
// every metamodel version from 0.9.0 to 3.x: the versions differ in which
// elements exist (callGraph or activityGraph, schedulingAlgorithm or a
// scheduler definition, segments or items of an event chain), and an
// element that changes timing but is not understood must be an error that
// names it, never silently skipped. Every node keeps its file, line and byte
// range: messages cite them, and the export splices the mapping model into
// the original bytes so that the rest of the file stays as it was.

const xsiNS = "http://www.w3.org/2001/XMLSchema-instance"

// xnode is one XML element.
type xnode struct {
	name  string // local name
	space string // namespace URL
	attrs []xml.Attr
	kids  []*xnode
	file  string
	line  int
	// start and end are the byte offsets of the element in its file:
	// data[start:end] is the element from '<' to the end of its end tag.
	start, end int64
}

// maxDepth bounds the nesting the parser accepts: real models nest a few
// dozen levels; a deeper document is refused instead of exhausting the
// stack of the recursive interpretation.
const maxDepth = 200

// maxAttr bounds the length of an attribute value: a name, a reference
// list or a number of a real model is at most a few kilobytes, and a
// longer one (a damaged file) is refused as soon as it is read, before the
// interpretation copies it into every message and path that names it.
const maxAttr = 1 << 20

// parseXML reads a whole document into its root element.
func parseXML(data []byte, file string) (*xnode, error) {
	lines := lineStarts(data)
	lineOf := func(off int64) int {
		return sort.Search(len(lines), func(i int) bool { return lines[i] > off })
	}
	if tag, attr, n, ok := longAttribute(data); ok {
		// Found before the decoder copies the value (twice).
		return nil, &configs.InputError{File: file, Line: lineOf(int64(tag)), Where: clip(elementName(data[tag:])),
			What: fmt.Sprintf("attribute %s is %d bytes long, more than the %d KiB hetmap reads in one value: the file is damaged, or not an Amalthea model", clip(attr), n, maxAttr>>10)}
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	var root *xnode
	var stack []*xnode
	for {
		before := dec.InputOffset()
		tok, err := dec.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &configs.InputError{File: file, Line: lineOf(dec.InputOffset()), What: "not a well-formed Amalthea XML file: " + cleanXMLError(err)}
		}
		switch t := tok.(type) {
		case xml.StartElement:
			n := &xnode{name: t.Name.Local, space: t.Name.Space, attrs: t.Attr, file: file, line: lineOf(before), start: before}
			for _, a := range t.Attr {
				if len(a.Value) > maxAttr {
					return nil, &configs.InputError{File: file, Line: n.line, Where: clip(t.Name.Local),
						What: fmt.Sprintf("attribute %s is %d bytes long, more than the %d KiB hetmap reads in one value: the file is damaged, or not an Amalthea model", clip(a.Name.Local), len(a.Value), maxAttr>>10)}
				}
			}
			if len(stack) == 0 {
				if root != nil {
					return nil, &configs.InputError{File: file, Line: n.line, What: "not a well-formed Amalthea XML file: a second root element <" + t.Name.Local + ">"}
				}
				root = n
			} else {
				p := stack[len(stack)-1]
				p.kids = append(p.kids, n)
			}
			if len(stack) >= maxDepth {
				return nil, &configs.InputError{File: file, Line: n.line, What: "elements nested deeper than 200 levels"}
			}
			stack = append(stack, n)
		case xml.EndElement:
			if len(stack) == 0 {
				return nil, &configs.InputError{File: file, Line: lineOf(before), What: "not a well-formed Amalthea XML file: unexpected end tag </" + t.Name.Local + ">"}
			}
			top := stack[len(stack)-1]
			if top.name != t.Name.Local || top.space != t.Name.Space {
				return nil, &configs.InputError{File: file, Line: lineOf(before), What: "not a well-formed Amalthea XML file: </" + t.Name.Local + "> closes <" + top.name + ">"}
			}
			top.end = dec.InputOffset()
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) > 0 {
		top := stack[len(stack)-1]
		return nil, &configs.InputError{File: file, Line: top.line, What: "not a well-formed Amalthea XML file: <" + top.name + "> is not closed (the file is truncated?)"}
	}
	if root == nil {
		return nil, &configs.InputError{File: file, What: "not a well-formed Amalthea XML file: no <am:Amalthea> element"}
	}
	resolveNamespaces(root, nil)
	return root, nil
}

// longAttribute finds the first attribute value longer than maxAttr in a
// document without decoding it: the offset of its element's '<', the
// attribute's name and the value's length. Comments, CDATA sections and
// processing instructions are skipped.
func longAttribute(data []byte) (tag int, attr string, n int, found bool) {
	for i := 0; i < len(data); i++ {
		if data[i] != '<' {
			continue
		}
		rest := data[i:]
		skip := func(end string) {
			if j := bytes.Index(rest, []byte(end)); j >= 0 {
				i += j + len(end) - 1
			} else {
				i = len(data)
			}
		}
		switch {
		case bytes.HasPrefix(rest, []byte("<!--")):
			skip("-->")
			continue
		case bytes.HasPrefix(rest, []byte("<![CDATA[")):
			skip("]]>")
			continue
		case bytes.HasPrefix(rest, []byte("<?")):
			skip("?>")
			continue
		}
		start := i
		for i++; i < len(data) && data[i] != '>'; i++ {
			q := data[i]
			if q != '"' && q != '\'' {
				continue
			}
			open := i
			j := bytes.IndexByte(data[i+1:], q)
			if j < 0 {
				return 0, "", 0, false // unterminated: the decoder says so
			}
			i += j + 1
			if j > maxAttr {
				// The attribute's name: the word before the '=' before the quote.
				k := open - 1
				for k > start && (data[k] == ' ' || data[k] == '=' || data[k] == '\t' || data[k] == '\n' || data[k] == '\r') {
					k--
				}
				e := k + 1
				for k > start && data[k] != ' ' && data[k] != '\t' && data[k] != '\n' && data[k] != '\r' {
					k--
				}
				return start, string(data[k+1 : e]), j, true
			}
		}
	}
	return 0, "", 0, false
}

// elementName returns the name of the element whose start tag begins tag.
func elementName(tag []byte) string {
	end := 1
	for end < len(tag) && end < 200 && !strings.ContainsRune(" \t\r\n/>", rune(tag[end])) {
		end++
	}
	name := string(tag[1:end])
	if i := strings.IndexByte(name, ':'); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// resolveNamespaces replaces the prefixes of element and attribute names by
// their namespace URLs (RawToken leaves them as written, which keeps the
// byte offsets of the tokens exact).
func resolveNamespaces(n *xnode, scope map[string]string) {
	local := scope
	for _, a := range n.attrs {
		if a.Name.Space == "xmlns" || (a.Name.Space == "" && a.Name.Local == "xmlns") {
			if local == nil || sameMap(local, scope) {
				local = make(map[string]string, len(scope)+2)
				for k, v := range scope {
					local[k] = v
				}
			}
			if a.Name.Space == "xmlns" {
				local[a.Name.Local] = a.Value
			} else {
				local[""] = a.Value
			}
		}
	}
	if n.space != "" {
		if u, ok := local[n.space]; ok {
			n.space = u
		}
	} else if u, ok := local[""]; ok {
		n.space = u
	}
	for i := range n.attrs {
		a := &n.attrs[i]
		if a.Name.Space != "" && a.Name.Space != "xmlns" {
			if u, ok := local[a.Name.Space]; ok {
				a.Name.Space = u
			}
		}
	}
	for _, k := range n.kids {
		resolveNamespaces(k, local)
	}
}

func sameMap(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func lineStarts(data []byte) []int64 {
	out := []int64{0}
	for i, c := range data {
		if c == '\n' {
			out = append(out, int64(i+1))
		}
	}
	return out
}

func cleanXMLError(err error) string {
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		return se.Msg
	}
	return err.Error()
}

// attr returns the value of the attribute with the local name (any
// namespace but xsi, xmi and xmlns declarations), or "".
func (n *xnode) attr(local string) string {
	for _, a := range n.attrs {
		if a.Name.Local == local && a.Name.Space != xsiNS && a.Name.Space != "xmlns" {
			return a.Value
		}
	}
	return ""
}

// typ returns the xsi:type without its prefix ("am:Ticks" → "Ticks").
func (n *xnode) typ() string {
	for _, a := range n.attrs {
		if a.Name.Local == "type" && a.Name.Space == xsiNS {
			return xsiType(a.Value)
		}
	}
	return ""
}

// child returns the first child with the local name, or nil.
func (n *xnode) child(local string) *xnode {
	if n == nil {
		return nil
	}
	for _, k := range n.kids {
		if k.name == local {
			return k
		}
	}
	return nil
}

// children returns the children with the local name.
func (n *xnode) children(local string) []*xnode {
	if n == nil {
		return nil
	}
	var out []*xnode
	for _, k := range n.kids {
		if k.name == local {
			out = append(out, k)
		}
	}
	return out
}

// xsiType strips the namespace prefix of an xsi:type value ("am:Ticks" → "Ticks").
func xsiType(t string) string {
	if i := strings.IndexByte(t, ':'); i >= 0 {
		return t[i+1:]
	}
	return t
}

// refName extracts the name from an Amalthea reference "Name?type=Kind",
// undoing the escaping APP4MC applies to names: it writes a reference's
// name as java.net.URLEncoder does (a space as "+", other reserved
// characters as %XX: "ARM+Cortex-A53" names "ARM Cortex-A53", "A%2BB"
// names "A+B"), and older tools write a space as %20, which decodes the
// same. A reference into another file ("other.amxmi#Name?type=Kind",
// "amlt:/#Name?type=Kind") is resolved by name, as APP4MC resolves the
// references between the files of one model folder; in such an href EMF
// also escapes the "?" and "=" of the fragment ("#Name%3Ftype%3DKind"),
// while the escapes of the name stay as they were, so the name is decoded
// once.
func refName(ref string) string {
	ref = strings.TrimSpace(ref)
	if i := strings.LastIndexByte(ref, '#'); i >= 0 {
		ref = ref[i+1:]
		if !strings.Contains(ref, "?type=") {
			if j := strings.LastIndex(strings.ToUpper(ref), "%3FTYPE%3D"); j >= 0 {
				ref = ref[:j] + "?type=" + ref[j+len("%3Ftype%3D"):]
			}
		}
	}
	if i := strings.Index(ref, "?type="); i >= 0 {
		ref = ref[:i]
	}
	if n, err := url.QueryUnescape(ref); err == nil {
		return n
	}
	return ref
}

func refNames(refs string) []string {
	var out []string
	for _, f := range strings.Fields(refs) {
		out = append(out, refName(f))
	}
	return out
}

// refs returns the names a reference feature names, written either as an
// attribute (the usual form) or as child elements with an href (the form
// EMF writes for references into another resource).
func (n *xnode) refs(feature string) []string {
	out := refNames(n.attr(feature))
	for _, k := range n.children(feature) {
		if h := k.attr("href"); h != "" {
			out = append(out, refName(h))
		}
	}
	return out
}

// ref returns the single name a reference feature names, or "".
func (n *xnode) ref(feature string) string {
	if r := n.refs(feature); len(r) > 0 {
		return r[0]
	}
	return ""
}

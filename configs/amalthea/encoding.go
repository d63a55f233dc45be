package amalthea

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/hetmap/hetmap/configs"
)

// Model files are XML in UTF-8 as APP4MC writes them, but an editor or a
// generator may write a model in UTF-16 (with or without a byte-order
// mark) or declare ISO-8859-1 (Latin-1). toUTF8 converts those to UTF-8
// before parsing and says encoding="UTF-8" in the XML declaration, so that
// the lines stay where they were and an export writes a consistent UTF-8
// file; any other declared encoding is refused with a sentence that says
// which encodings hetmap reads.

// readEncodings names the encodings toUTF8 reads, for messages.
const readEncodings = "UTF-8, UTF-16 and ISO-8859-1 (Latin-1)"

var encodingDecl = regexp.MustCompile(`^(<\?xml[^>]*?\sencoding\s*=\s*)("[^"]*"|'[^']*')`)

func toUTF8(data []byte, file string) ([]byte, error) {
	utf16Order := func() binary.ByteOrder {
		switch {
		case bytes.HasPrefix(data, []byte{0xFE, 0xFF}), len(data) >= 2 && data[0] == 0 && data[1] == '<':
			return binary.BigEndian
		case bytes.HasPrefix(data, []byte{0xFF, 0xFE}), len(data) >= 2 && data[0] == '<' && data[1] == 0:
			return binary.LittleEndian
		}
		return nil
	}()
	if utf16Order != nil {
		body := data
		if bytes.HasPrefix(body, []byte{0xFE, 0xFF}) || bytes.HasPrefix(body, []byte{0xFF, 0xFE}) {
			body = body[2:]
		}
		if len(body)%2 != 0 {
			return nil, &configs.InputError{File: file, What: "the file starts as UTF-16 but has an odd number of bytes: it is truncated or not UTF-16"}
		}
		units := make([]uint16, len(body)/2)
		for i := range units {
			units[i] = utf16Order.Uint16(body[2*i:])
		}
		var b bytes.Buffer
		b.Grow(len(body) / 2)
		for _, r := range utf16.Decode(units) {
			b.WriteRune(r)
		}
		return declareUTF8(b.Bytes()), nil
	}
	m := encodingDecl.FindSubmatch(bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF}))
	if m == nil {
		return data, nil
	}
	enc := strings.ToLower(strings.Trim(string(m[2]), `"'`))
	switch enc {
	case "utf-8", "utf8":
		return data, nil
	case "us-ascii", "ascii":
		if i := bytes.IndexFunc(data, func(r rune) bool { return r >= 0x80 }); i >= 0 {
			return nil, &configs.InputError{File: file, Line: bytes.Count(data[:i], []byte("\n")) + 1, What: "the file declares US-ASCII but holds a byte above 127: give its real encoding in the XML declaration (hetmap reads " + readEncodings + ")"}
		}
		return declareUTF8(data), nil
	case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1":
		var b bytes.Buffer
		b.Grow(len(data) + len(data)/8)
		for _, c := range data {
			if c < utf8.RuneSelf {
				b.WriteByte(c)
			} else {
				b.WriteRune(rune(c))
			}
		}
		return declareUTF8(b.Bytes()), nil
	case "utf-16", "utf16", "utf-16le", "utf-16be":
		return nil, &configs.InputError{File: file, Line: 1, What: fmt.Sprintf("the file declares %s but is not written in it (it starts with single-byte characters): save it as UTF-8, or as UTF-16 with its byte-order mark", m[2])}
	}
	return nil, &configs.InputError{File: file, Line: 1, What: fmt.Sprintf("the file is encoded in %s: hetmap reads %s; convert it to UTF-8 (for instance iconv -f %s -t UTF-8)", strings.Trim(string(m[2]), `"'`), readEncodings, strings.Trim(string(m[2]), `"'`))}
}

// declareUTF8 sets the encoding of the XML declaration to UTF-8.
func declareUTF8(data []byte) []byte {
	m := encodingDecl.FindSubmatchIndex(data)
	if m == nil {
		return data
	}
	return append(append(append([]byte(nil), data[:m[4]]...), `"UTF-8"`...), data[m[5]:]...)
}

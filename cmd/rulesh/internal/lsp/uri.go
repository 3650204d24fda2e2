package lsp

import (
	"path/filepath"
	"strings"
)

// This file reads and writes the file URIs of the protocol without net/url: that package
// links net/netip, whose initialisation makes values with unique.Make (which starts the
// runtime's cleanup goroutines), and every command paid it at start-up, `rulesh roll`
// included, for the language server's two conversions. The rules are net/url's (RFC 3986
// as Go reads it, Go 1.26): uriPath gives what url.Parse's Path would, and returns the URI
// as it is where url.Parse fails; pathURI gives what URL.String would. TestURIsAsNetURL
// and FuzzURIsAsNetURL hold them to net/url.

// uriPath turns a file URI into a path; any other URI stays as it is (a buffer never saved
// is a ruleset of its own).
func uriPath(uri string) string {
	p, ok := fileURIPath(uri)
	if !ok {
		return uri
	}
	return filepath.Clean(filepath.FromSlash(p))
}

// pathURI is the file URI of a path.
func pathURI(path string) string {
	if !filepath.IsAbs(path) {
		return path
	}
	p := filepath.ToSlash(path)
	var b strings.Builder
	b.Grow(len("file://") + len(p))
	b.WriteString("file:")
	if p != "" {
		b.WriteString("//")
	}
	for i := 0; i < len(p); i++ {
		if c := p[i]; shouldEscape(c, uriPathPart) {
			b.WriteByte('%')
			b.WriteByte(upperHex[c>>4])
			b.WriteByte(upperHex[c&15])
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// fileURIPath is the unescaped path of uri when uri parses (as url.Parse parses) with the
// scheme file, in any case; ok is false for another scheme or a URI that does not parse.
func fileURIPath(uri string) (path string, ok bool) {
	u, frag, hasFrag := strings.Cut(uri, "#")
	for i := 0; i < len(u); i++ {
		if u[i] < ' ' || u[i] == 0x7f {
			return "", false
		}
	}
	if len(u) < 5 || u[4] != ':' || !strings.EqualFold(u[:4], "file") {
		return "", false
	}
	rest, _, _ := strings.Cut(u[5:], "?")
	if hasFrag && frag != "" {
		if _, ok := unescapeURI(frag, uriFragment); !ok {
			return "", false
		}
	}
	if !strings.HasPrefix(rest, "/") {
		return "", true // opaque ("file:name"): url.Parse gives no path
	}
	if strings.HasPrefix(rest, "//") {
		authority := rest[2:]
		rest = ""
		if i := strings.IndexByte(authority, '/'); i >= 0 {
			authority, rest = authority[:i], authority[i:]
		}
		if !validAuthority(authority) {
			return "", false
		}
	}
	return unescapeURI(rest, uriPathPart)
}

// uriPart is the part of a URI a text is from: what it may hold differs.
type uriPart int

const (
	uriPathPart uriPart = iota
	uriHost
	uriZone
	uriUserinfo
	uriFragment
)

const upperHex = "0123456789ABCDEF"

// shouldEscape reports whether c is written escaped (%XX) in part: RFC 3986's unreserved
// characters never are, the reserved ones by part.
func shouldEscape(c byte, part uriPart) bool {
	if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
		return false
	}
	if part == uriHost || part == uriZone {
		switch c {
		case '!', '$', '&', '\'', '(', ')', '*', '+', ',', ';', '=', ':', '[', ']', '<', '>', '"':
			return false
		}
	}
	switch c {
	case '-', '_', '.', '~':
		return false
	case '$', '&', '+', ',', '/', ':', ';', '=', '?', '@':
		switch part {
		case uriPathPart:
			return c == '?'
		case uriUserinfo:
			return c == '@' || c == '/' || c == '?' || c == ':'
		case uriFragment:
			return false
		}
	}
	if part == uriFragment {
		switch c {
		case '!', '(', ')', '*':
			return false
		}
	}
	return true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// unescapeURI decodes the %XX escapes of s, a text of part; ok is false for a malformed
// escape, and in a host or zone for a character that must not be there (escaped or not).
func unescapeURI(s string, part uriPart) (string, bool) {
	n := 0
	for i := 0; i < len(s); {
		if s[i] != '%' {
			if (part == uriHost || part == uriZone) && s[i] < 0x80 && shouldEscape(s[i], part) {
				return "", false
			}
			i++
			continue
		}
		n++
		if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
			return "", false
		}
		// In a host an escape is for a byte beyond ASCII, or %25 (a zone's percent sign).
		if part == uriHost && unhex(s[i+1]) < 8 && s[i:i+3] != "%25" {
			return "", false
		}
		if part == uriZone {
			if v := unhex(s[i+1])<<4 | unhex(s[i+2]); s[i:i+3] != "%25" && v != ' ' && shouldEscape(v, uriHost) {
				return "", false
			}
		}
		i += 3
	}
	if n == 0 {
		return s, true
	}
	var b strings.Builder
	b.Grow(len(s) - 2*n)
	for i := 0; i < len(s); i++ {
		if s[i] == '%' {
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
		} else {
			b.WriteByte(s[i])
		}
	}
	return b.String(), true
}

// validAuthority reports whether authority ([userinfo@]host[:port]) parses.
func validAuthority(authority string) bool {
	i := strings.LastIndexByte(authority, '@')
	if !validHost(authority[i+1:]) {
		return false
	}
	if i < 0 {
		return true
	}
	info := authority[:i]
	for _, r := range info {
		if 'A' <= r && r <= 'Z' || 'a' <= r && r <= 'z' || '0' <= r && r <= '9' {
			continue
		}
		switch r {
		case '-', '.', '_', ':', '~', '!', '$', '&', '\'', '(', ')', '*', '+', ',', ';', '=', '%', '@':
			continue
		}
		return false
	}
	user, password, _ := strings.Cut(info, ":")
	_, okUser := unescapeURI(user, uriUserinfo)
	_, okPassword := unescapeURI(password, uriUserinfo)
	return okUser && okPassword
}

// validHost reports whether host (host[:port], or [IPv6 literal][:port]) parses.
func validHost(host string) bool {
	open := strings.LastIndexByte(host, '[')
	if open > 0 {
		return false
	}
	if open == 0 {
		end := strings.LastIndexByte(host, ']')
		if end < 0 || !validPort(host[end+1:]) {
			return false
		}
		name := host[1:end]
		var literal string
		if zone := strings.Index(name, "%25"); zone >= 0 {
			h, okHost := unescapeURI(name[:zone], uriHost)
			z, okZone := unescapeURI(name[zone:], uriZone)
			if !okHost || !okZone {
				return false
			}
			literal = h + z
		} else {
			var ok bool
			if literal, ok = unescapeURI(name, uriHost); !ok {
				return false
			}
		}
		return validIPv6Literal(literal)
	}
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !validPort(host[i:]) {
		return false
	}
	_, ok := unescapeURI(host, uriHost)
	return ok
}

// validPort reports whether s is empty or a colon and digits.
func validPort(s string) bool {
	if s == "" {
		return true
	}
	if s[0] != ':' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// validIPv6Literal reports whether s may stand between a host's brackets: an IPv6 address
// (an IPv4 one embedded at its end allowed), with an optional non-empty zone after '%', as
// net/netip parses it; not an IPv4 address.
func validIPv6Literal(s string) bool {
	// netip.ParseAddr reads IPv6 only when a ':' comes before any '.' or '%'.
	if i := strings.IndexAny(s, ".:%"); i < 0 || s[i] != ':' {
		return false
	}
	if i := strings.IndexByte(s, '%'); i >= 0 {
		if i == len(s)-1 {
			return false
		}
		s = s[:i]
	}
	ellipsis := -1
	if len(s) >= 2 && s[0] == ':' && s[1] == ':' {
		ellipsis = 0
		s = s[2:]
		if s == "" {
			return true
		}
	}
	i := 0 // bytes of the address read
	for i < 16 {
		off, acc := 0, 0
		for ; off < len(s) && isHex(s[off]); off++ {
			acc = acc<<4 + int(unhex(s[off]))
			if off > 3 || acc > 0xffff {
				return false
			}
		}
		if off == 0 {
			return false
		}
		if off < len(s) && s[off] == '.' {
			if ellipsis < 0 && i != 12 || i+4 > 16 || !validIPv4(s) {
				return false
			}
			s = ""
			i += 4
			break
		}
		i += 2
		s = s[off:]
		if s == "" {
			break
		}
		if s[0] != ':' || len(s) == 1 {
			return false
		}
		s = s[1:]
		if s[0] == ':' {
			if ellipsis >= 0 {
				return false
			}
			ellipsis = i
			s = s[1:]
			if s == "" {
				break
			}
		}
	}
	if s != "" {
		return false
	}
	if i < 16 {
		return ellipsis >= 0
	}
	return ellipsis < 0
}

// validIPv4 reports whether s is four decimal octets joined by dots, with no leading zero.
func validIPv4(s string) bool {
	val, fields, digits := 0, 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case '0' <= c && c <= '9':
			if digits == 1 && val == 0 {
				return false
			}
			val = val*10 + int(c-'0')
			digits++
			if val > 255 {
				return false
			}
		case c == '.':
			if i == 0 || i == len(s)-1 || s[i-1] == '.' || fields == 3 {
				return false
			}
			fields++
			val, digits = 0, 0
		default:
			return false
		}
	}
	return fields == 3
}

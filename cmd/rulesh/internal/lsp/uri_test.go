package lsp

import (
	"net/url"
	"path/filepath"
	"testing"
)

// netURLPath is uriPath as it was written with net/url: the reference.
func netURLPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return uri
	}
	return filepath.Clean(filepath.FromSlash(u.Path))
}

// netURLOf is pathURI as it was written with net/url.
func netURLOf(path string) string {
	if !filepath.IsAbs(path) {
		return path
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// uriCases are URIs that reach every rule of the parse: escapes, schemes in any case,
// queries and fragments, hosts with ports, users and IPv6 literals (with zones and an
// embedded IPv4 address), and the malformed forms of each.
var uriCases = []string{
	"", "file", "file:", "file:/", "file://", "file:///", "file:///a/b.rules", "FILE:///a", "File:///a",
	"file:///a%20b/c%C3%A9.rules", "file:///a%2Fb", "file:///a%zz", "file:///a%2", "file:///a%", "file:///a+b",
	"file:///a?x=1", "file:///a?", "file:///a??", "file:///a#frag", "file:///a#%zz", "file:///a#", "file:///a#b#c",
	"file:rel/a.rules", "file:a", "file:./a", "file:?x", "file:#x", "file:///\x01", "file:///a\x7f", "file:///a#\x01",
	"file://localhost/a", "file://host/a/../b", "file://host", "file://host:80/a", "file://host:/a", "file://host:x/a",
	"file://h:1:2/a", "file://a b/c", "file://a%20b/c", "file://a%C3%A9/c", "file://a%25/c", "file://a^b/c",
	"file://user@host/a", "file://u:p@host/a", "file://u%zz@host/a", "file://u p@host/a", "file://a@b@host/a",
	"file://é@host/a", "file://[::1]/a", "file://[::1]:8080/a", "file://[::1]x/a", "file://[::1/a", "file://x[::1]/a",
	"file://[1.2.3.4]/a", "file://[::ffff:1.2.3.4]/a", "file://[::ffff:1.2.3.04]/a", "file://[::ffff:1.2.3]/a",
	"file://[1:2:3:4:5:6:7:8]/a", "file://[1:2:3:4:5:6:7:8:9]/a", "file://[1:2:3:4:5:6:7]/a", "file://[1::2::3]/a",
	"file://[1:2:3:4:5:6:1.2.3.4]/a", "file://[1:2:3:4:5:1.2.3.4]/a", "file://[12345::]/a", "file://[::]/a",
	"file://[fe80::1%25en0]/a", "file://[fe80::1%25]/a", "file://[fe80::1%25%41]/a", "file://[fe80::1%25%0a]/a",
	"file://[fe80::1%25%20x]/a", "file://[fe80::1%en0]/a", "file://[%3A%3A1]/a", "file://[::1%]/a", "file://[:]/a",
	"file://[1:]/a", "file://[1::]/a", "file://[:1]/a", "file://[::1.2.3.4]/a", "file://[g::]/a",
	"http://h/a", "https:///a", "untitled:Untitled-1", "c:/a", "/a/b", "*", "1file:///a", "fi:le:///a",
	"file:///C:/Users/x.rules", "file:///c%3A/x.rules", "file:////srv/share/a",
}

// TestURIsAsNetURL: uriPath and pathURI give what net/url gave, on uriCases and on the
// paths of every byte.
func TestURIsAsNetURL(t *testing.T) {
	for _, c := range uriCases {
		if got, want := uriPath(c), netURLPath(c); got != want {
			t.Errorf("uriPath(%q) = %q, want %q (net/url)", c, got, want)
		}
	}
	for c := 0; c < 256; c++ {
		p := "/a" + string(rune(c)) + "b/" + string([]byte{byte(c)})
		if got, want := pathURI(p), netURLOf(p); got != want {
			t.Errorf("pathURI(%q) = %q, want %q (net/url)", p, got, want)
		}
		if got, want := uriPath(pathURI(p)), netURLPath(netURLOf(p)); got != want {
			t.Errorf("uriPath(pathURI(%q)) = %q, want %q (net/url)", p, got, want)
		}
		for _, u := range []string{"file:///x" + string([]byte{byte(c)}), "file://h" + string([]byte{byte(c)}) + "/x", "file://[::1%25e" + string([]byte{byte(c)}) + "]/x"} {
			if got, want := uriPath(u), netURLPath(u); got != want {
				t.Errorf("uriPath(%q) = %q, want %q (net/url)", u, got, want)
			}
		}
	}
	if got := pathURI("/home/gm/règles/a b.rules"); got != "file:///home/gm/r%C3%A8gles/a%20b.rules" {
		t.Errorf("pathURI = %q", got)
	}
	if got := uriPath("file:///home/gm/r%C3%A8gles/a%20b.rules"); got != "/home/gm/règles/a b.rules" {
		t.Errorf("uriPath = %q", got)
	}
}

// FuzzURIsAsNetURL: any URI reads as net/url reads it, and any absolute path is written as
// net/url writes it.
func FuzzURIsAsNetURL(f *testing.F) {
	for _, c := range uriCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := uriPath(s), netURLPath(s); got != want {
			t.Fatalf("uriPath(%q) = %q, want %q (net/url)", s, got, want)
		}
		// The prefixes lead the fuzzer into the authority and the IPv6 literals.
		for _, u := range []string{"file:" + s, "file://[" + s} {
			if got, want := uriPath(u), netURLPath(u); got != want {
				t.Fatalf("uriPath(%q) = %q, want %q (net/url)", u, got, want)
			}
		}
		p := "/" + s
		if got, want := pathURI(p), netURLOf(p); got != want {
			t.Fatalf("pathURI(%q) = %q, want %q (net/url)", p, got, want)
		}
	})
}

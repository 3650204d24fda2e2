package lsp

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// bigDocument is n lines `const aI = 1`.
func bigDocument(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "const a%d = 1\n", i)
	}
	return b.String()
}

// BenchmarkBigDocument: one op opens a document of 8,000 (then 32,000) constants in a fresh
// server and asks for its symbols, through the protocol as an editor does. The time should
// grow with the size, not with its square (see docs/PERFORMANCE.md).
func BenchmarkBigDocument(b *testing.B) {
	for _, n := range []int{8000, 32000} {
		text := bigDocument(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				c := newClient(b)
				c.wait = 5 * time.Minute
				c.call("initialize", map[string]any{"capabilities": map[string]any{}})
				uri := "file:///nowhere/big.rules"
				c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "rules", "version": 1, "text": text}})
				got := c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}})
				if strings.Count(got, `"detail":"const"`) != n {
					b.Fatalf("%d symbols expected, got %.200s", n, got)
				}
				c.call("shutdown", nil)
				c.notify("exit", nil)
				<-c.done
			}
		})
	}
}

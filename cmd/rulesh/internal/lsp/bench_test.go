package lsp

import (
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"syscall"
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

// BenchmarkDiagnosticsAfterDebounce: what an editor waits for after the typing stops. The
// server has rulesets/naval/brigantin.rules open (it includes naval.rules, read from disk);
// one op sends the whole text again with one line changed (didChange, full sync) and waits
// for the file's publishDiagnostics. Reported: ms-after-debounce, from the debounce's timer
// firing (the check starting) to the notification read by the client, and cpu-ms, the
// process's CPU time over the same span (nothing else runs meanwhile). The debounce itself
// is cut to 1 ms so the op is mostly the check; ns/op includes it. The collector is set as
// `rulesh lsp` sets it (tuneGC); heap-sys-MiB is the heap the process holds at the end.
func BenchmarkDiagnosticsAfterDebounce(b *testing.B) {
	defer tuneGC()()
	path, err := filepath.Abs("../../../../rulesets/naval/brigantin.rules")
	if err != nil {
		b.Fatal(err)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	s := newServer(log.New(io.Discard, "", 0))
	s.debounce = time.Millisecond
	fired := make(chan [2]float64, 1) // wall seconds, CPU seconds
	s.beforeCheck = func() { fired <- [2]float64{wallNow(), processCPU()} }
	c := newClientOn(b, s, 100)
	c.call("initialize", map[string]any{"capabilities": map[string]any{}})
	uri := pathURI(path)
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "rules", "version": 1, "text": string(src)}})
	first := c.diagnostics(uri)
	<-fired
	if strings.Contains(first, `"severity":1`) {
		b.Fatalf("brigantin.rules has errors: %.300s", first)
	}
	var wall, cpu float64
	version := 1
	for b.Loop() {
		version++
		text := string(src) + fmt.Sprintf("// edit %d\n", version)
		c.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": version},
			"contentChanges": []map[string]any{{"text": text}},
		})
		if got := c.diagnostics(uri); got != first {
			b.Fatalf("diagnostics changed with a comment: %.300s", got)
		}
		t := <-fired
		wall += wallNow() - t[0]
		cpu += processCPU() - t[1]
	}
	b.ReportMetric(wall*1e3/float64(b.N), "ms-after-debounce")
	b.ReportMetric(cpu*1e3/float64(b.N), "cpu-ms")
	var ms goruntime.MemStats
	goruntime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapSys)/(1<<20), "heap-sys-MiB")
	c.call("shutdown", nil)
	c.notify("exit", nil)
	<-c.done
}

var benchStart = time.Now()

// wallNow is the monotonic clock in seconds.
func wallNow() float64 { return time.Since(benchStart).Seconds() }

// processCPU is the CPU time (user and system) the process has used, in seconds.
func processCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

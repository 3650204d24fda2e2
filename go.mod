module rulesh

go 1.26.0

require (
	github.com/alecthomas/participle/v2 v2.1.4
	github.com/creack/pty v1.1.24
	github.com/expr-lang/expr v1.17.8
	github.com/peterh/liner v1.2.3
	github.com/rogpeppe/go-internal v1.16.0
	github.com/sourcegraph/jsonrpc2 v0.2.0
	github.com/tliron/glsp v0.2.2
	github.com/yuin/gopher-lua v1.1.2
	go.starlark.net v0.0.0-20260908191801-89a6a09411d5
	golang.org/x/exp v0.0.0-20231110203233-9a3e6036ecaa
	golang.org/x/image v0.24.0
	golang.org/x/term v0.41.0
)

require (
	github.com/clipperhouse/uax29/v2 v2.7.0 // indirect
	github.com/mattn/go-runewidth v0.0.31 // indirect
	golang.org/x/sys v0.48.0 // indirect
	golang.org/x/text v0.22.0 // indirect
	golang.org/x/tools v0.26.0 // indirect
)

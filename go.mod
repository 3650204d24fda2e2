module rulesh

go 1.26.0

require (
	github.com/alecthomas/participle/v2 v2.1.4
	github.com/expr-lang/expr v1.17.8
)

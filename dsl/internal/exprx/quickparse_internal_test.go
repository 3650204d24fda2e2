package exprx

import (
	"strings"
	"testing"

	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/types"
)

// quickParseSeeds are texts at the edges of quickParse's syntax, on both sides.
var quickParseSeeds = []string{
	"a", "p.nom", "a.b.c", "a[0]", "a[i].b", "-a.b[0]", "f()", "f(a, b,)", "f(,)", "len(x)",
	"max(a, b)", "upper(s)", "hidden(1)", "filter(l, # > 1)", "1..3", "1.5", "1.", "1.e3",
	"0x10", "1_000", "99999999999999999999", "x < y < z", "a == b != c", "a < b >= c",
	"a ? b : c ? d : e", "a ?: b", "(a ? b : c).d", "{a: 1, 'b': 2, 3: x, (k): v,}", "{a: 1,,}",
	"{}", "[]", "[1, 2,]", "[,]", "!x && y || z", "!!x", "- -1", "+a", "2 ** 3", "2 ^ 3",
	"10 % 3", "a / b * c - d + e", "a.not", "a.true", "b'x'", "B\"x\"", `"a\nb"`, "'x\"y'",
	"\"é\" + 'ü'", "é.ü", "a\u00a0b", "a\u00a0+\u00a0b", "\u0301a", "a\u0301", "٣", "$env",
	"a$b", "a?.b", "a ?? b", "a | f()", "a[1:2]", "a[:2]", "x.y()", "let x = 1; x", "not a",
	"a not in b", "a in b", "1 +", "(", ")", "", " ", "a;b", "a // c", "a /* c */", "€", "#",
	"a = b", "a & b", "a &= b", "a <* b", "::f()", "if a { b } else { c }", "a\n.b",
	"f(g(h(i)))", "((((a))))", "[[[1]]]", "true", "nil.x", "nil", "false ? 1 : 2", "1 2",
	"\xff", "'unterminated", "a.5", "a..b", "1...3", ".5", "a . b", "a [ 0 ]", "x.y.z(1)",
	"\"\r\"", "`raw`", "a\tb", "f(a)(b)", "a[0][1]", "{a: {b: [1, {c: d}]}}",
	"filter(l, .x > 1)", "map(l, #)", "map(l, # + 1)", "any(l, same(#, p))", "count(l)",
	"count(l, #)", "count(l, #,)", "sum(l, .n)", "sortBy(l, .a.b, \"desc\")", "sortBy(l, .a)",
	"reduce(l, #acc + #, 0)", "reduce(l, # + #index)", "filter(l, {# > 1})", "filter(l, {let x = #; x})",
	"filter(l, # > 1; 2)", "filter(l)", "filter()", "map(l, map(#, # * 2))", "filter(l, # in [1, 2])",
	"a in b", "a in [1, 2] && b", "x in 1..3", "a.in", "{in: 1}", "# > 1", ".a", "#x", "##",
	"# x", "filter(l, # x)", "all(l, .ok) ? 1 : 2", "groupBy(l, .k)", "first(filter(l, .a))",
	"filter(l, .a)[0]", "filter(l, #.a.b == 1)", "map(l, .)", "map(l, #[0])",
	// Review seeds: precedence and associativity, unary chains, the operators quickParse
	// leaves to expr, numbers written otherwise, unicode names and spaces, node limits.
	"a - b - c", "a / b / c % d", "a || b && c", "a && b || c", "!a == b", "-a * b", "+-a",
	"- - - a", "a == -1", "1 + -2", "2 ** 3 ** 2", "a ^ b ^ c", "-2 ** 2", "!a in b",
	"a in b in c", "a .. b .. c", "-1..3", "a < b == c > d", "a ? b ? c : d : e",
	"a ? b : c || d", "(a || b) ? c : d", "x ?? y ?? z", "a ?? b + c", "a + b ?? c",
	"1 not in [1]", "not (a in b)", "a?.b[0]", "a?.[0]", "a.b?.c", "a?.b.c",
	"1e3", "1E-3", "0b101", "0o17", "0X1f", "1_0.5", "1.5e", "1.5_", "007", "0.0",
	"9223372036854775807", "9223372036854775808", "1" + strings.Repeat("0", 400) + ".0",
	`'\u{1F600}'`, `"\x41"`, `"a\"b"`, `'a\'b'`, "\"tab\there\"", `""`, "''",
	"[1, 2][0].x", "f(a)[0].b", "{a: 1}.a", "{(1 + 2): 3}", "{1.5: 2}", "{'a' : 1}",
	`{"a": 1, "a": 2}`, "{a: 1 b: 2}", "{a}", "{a: }", "[1 2]", "f(a b)", "f(a,, b)",
	"é + ü", "ü.é[ä]", "a\u2028b", "a\u0085+b", "x\u200bb", "ǅ", "a·b", "ℕ", "Ⅳ",
	"a\u3000+\u3000b", "_", "_a1", "a_", "$", "a$", "a.$b",
	strings.Repeat("(", 30) + "a" + strings.Repeat(")", 30),
	strings.Repeat("[", 12) + "1" + strings.Repeat("]", 12),
	"a.b.c.d.e.f.g.h.i.j.k", "a.b.c.d.e.f.g.h.i.j.k.l", "1 < 2 < 3 < 4 < 5 < 6 < 7 < 8 < 9",
	strings.Repeat("-", 23) + "a", strings.Repeat("-", 24) + "a", strings.Repeat("!", 40) + "a",
	"f(" + strings.Repeat("a, ", 11) + "a)", "filter(l, filter(#, filter(#, # > 1)))",
	"map(l, {#})", "map(l, {})", "map(l, {a: #})", "map(l, # ? 1 : 2)", "count(l, # ?? 1)",
	"sum(l, .n, 1)", "sortBy(l, .a, 'asc', 1)", "reduce(l, #acc)", "all(l, #index > 0)",
	"map(l, .a.b[0].c)", "map(l, .[0])", "map(l, #?.a)", "map(l, .a?.b)", "find(l, #.a)",
	"filter(l, # > 1) | len()", "a[b[c[d]]]", "a[0][0][0]", "a[-1]", "a[ -1 ]",
	"\t a \n", "a // x\n + b", "/* */ a", "a\r\n+b", "1\u00a0+\u00a02",
}

// quickParseConfig is a configuration like the ones quickParse is used with: builtins
// disabled and overridden, names in the environment, and a small limit of nodes.
func quickParseConfig() *conf.Config {
	cfg := conf.CreateNew()
	cfg.MaxNodes = 24
	cfg.Disabled["hidden"] = true
	cfg.Disabled["max"] = true
	delete(cfg.Builtins, "max")
	cfg.Functions["upper"] = &builtin.Function{Name: "upper"}
	cfg.Env = types.Map{"len": types.Int, "a": types.Int}.Nature()
	return cfg
}

// FuzzQuickParse: a text quickParse takes gets the tree expr's parser builds (node kinds,
// values, locations), and one expr refuses is never taken.
func FuzzQuickParse(f *testing.F) {
	for _, s := range quickParseSeeds {
		f.Add(s)
	}
	cfg := quickParseConfig()
	f.Fuzz(func(t *testing.T, src string) {
		if _, diff := QuickParseDiff(src, cfg); diff != "" {
			t.Errorf("%q: %s", src, diff)
		}
	})
}

// TestQuickParseSeeds: the seeds compare (FuzzQuickParse without fuzzing), and quickParse
// takes the plain ones.
func TestQuickParseSeeds(t *testing.T) {
	cfg := quickParseConfig()
	for _, src := range quickParseSeeds {
		if _, diff := QuickParseDiff(src, cfg); diff != "" {
			t.Errorf("%q: %s", src, diff)
		}
	}
	for _, src := range []string{"a", "p.nom", "a[i].b", "f(a, b,)", "len(x)", "upper(s)", "1..3", "x < y < z", "{a: 1, 'b': 2, 3: x, (k): v,}", "a ? b : c ? d : e", "filter(l, .x > 1)", "sortBy(l, .a.b, \"desc\")", "count(l)", "map(l, # + 1)", "a in b"} {
		if took, _ := QuickParseDiff(src, cfg); !took {
			t.Errorf("quickParse did not take %q", src)
		}
	}
}

package syntax

import (
	"fmt"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
)

// kindNames names token types in the dumps below.
var kindNames = map[lexer.TokenType]string{
	TokString: "String", TokDice: "Dice", TokNumber: "Number", TokCard: "Card", TokIdent: "Ident",
	TokOp: "Op", TokComma: "Comma", TokPunct: "Punct", TokNewline: "Newline", TokBad: "Bad",
}

// scanDump writes what Scan yields as `Kind:value@line:col`, one token after another.
func scanDump(src string) string {
	var out []string
	Scan(src, func(t lexer.Token) bool {
		out = append(out, fmt.Sprintf("%s:%s@%d:%d", kindNames[t.Type], t.Value, t.Pos.Line, t.Pos.Column))
		return true
	})
	return strings.Join(out, " ")
}

// TestScanTokens pins every token kind, the dice and card literals, the tolerant scan of
// what the language does not use, and positions (columns count runes).
func TestScanTokens(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"idents", "a _x é_1 ténacité Écaille x2",
			"Ident:a@1:1 Ident:_x@1:3 Ident:é_1@1:6 Ident:ténacité@1:10 Ident:Écaille@1:19 Ident:x2@1:27"},
		{"combining mark", "e\u0301t", "Ident:e\u0301t@1:1"},
		{"numbers", "1 1.5 1. 10..12", "Number:1@1:1 Number:1.5@1:3 Number:1@1:7 Op:.@1:8 Number:10@1:10 Op:..@1:12 Number:12@1:14"},
		{"strings", `"s" 'q' "a\"b" 'it\'s' "// no comment"`,
			`String:"s"@1:1 String:'q'@1:5 String:"a\"b"@1:9 String:'it\'s'@1:16 String:"// no comment"@1:24`},
		{"comment and newline", "a // c (\nb", "Ident:a@1:1 Newline:\n@1:9 Ident:b@2:1"},
		{"blanks", "\uFEFFa\r\n\tb", "Ident:a@1:2 Newline:\n@1:4 Ident:b@2:2"},
		{"brackets and comma", "([{,}])", "Punct:(@1:1 Punct:[@1:2 Punct:{@1:3 Comma:,@1:4 Punct:}@1:5 Punct:]@1:6 Punct:)@1:7"},
		{"operators longest first", "== != <= >= += -= *= && || ?? ?. .. **",
			"Op:==@1:1 Op:!=@1:4 Op:<=@1:7 Op:>=@1:10 Op:+=@1:13 Op:-=@1:16 Op:*=@1:19 Op:&&@1:22 Op:||@1:25 Op:??@1:28 Op:?.@1:31 Op:..@1:34 Op:**@1:37"},
		{"one-character operators", "- + * / % < > = ! ? : . ; ^ # | & ~ @ $",
			"Op:-@1:1 Op:+@1:3 Op:*@1:5 Op:/@1:7 Op:%@1:9 Op:<@1:11 Op:>@1:13 Op:=@1:15 Op:!@1:17 Op:?@1:19 Op::@1:21 Op:.@1:23 Op:;@1:25 Op:^@1:27 Op:#@1:29 Op:|@1:31 Op:&@1:33 Op:~@1:35 Op:@@1:37 Op:$@1:39"},
		{"glued operators", "a>=b", "Ident:a@1:1 Op:>=@1:2 Ident:b@1:4"},
		{"dice", "3d6+2 d6 D6 d% 4dF 4d6kh3 10d10! 6d10>=8",
			"Dice:3d6@1:1 Op:+@1:4 Number:2@1:5 Dice:d6@1:7 Dice:D6@1:10 Dice:d%@1:13 Dice:4dF@1:16 Dice:4d6kh3@1:20 Dice:10d10!@1:27 Dice:6d10>=8@1:34"},
		{"bare D after a count", "4D+2 4D", "Dice:4D@1:1 Op:+@1:3 Number:2@1:4 Dice:4D@1:6"},
		// A name after a count is a declared die's (the checker says whether one is).
		{"a die's name after a count", "2dcombat=fusil 4Dx 2dmy_die+1 dcombat", "Dice:2dcombat=fusil@1:1 Dice:4Dx@1:16 Dice:2dmy_die@1:20 Op:+@1:28 Number:1@1:29 Ident:dcombat@1:31"},
		{"whitespace ends a literal", "3d6 >= 12", "Dice:3d6@1:1 Op:>=@1:5 Number:12@1:8"},
		{"custom die faces", "d[a, b] 2d[x]", "Dice:d[a, b]@1:1 Dice:2d[x]@1:9"},
		{"index of a variable d", `d["a]"] d[`, `Ident:d@1:1 Punct:[@1:2 String:"a]"@1:3 Punct:]@1:7 Ident:d@1:9 Punct:[@1:10`},
		{"underscore ends a literal", "2d6_x", "Dice:2d6@1:1 Ident:_x@1:4"},
		{"field named like a die", "x.d6 x?.d8 x.d6.d4", "Ident:x@1:1 Op:.@1:2 Ident:d6@1:3 Ident:x@1:6 Op:?.@1:7 Ident:d8@1:9 Ident:x@1:12 Op:.@1:13 Ident:d6@1:14 Op:.@1:16 Ident:d4@1:17"},
		{"cards", "Q♣ 10♥ 7♠ A♦ R♣ V♠ D♥ J♦ K♣", "Card:Q♣@1:1 Card:10♥@1:4 Card:7♠@1:8 Card:A♦@1:11 Card:R♣@1:14 Card:V♠@1:17 Card:D♥@1:20 Card:J♦@1:23 Card:K♣@1:26"},
		{"not cards", "1♣ Q ♣ 11♥", "Number:1@1:1 Bad:♣@1:2 Ident:Q@1:4 Bad:♣@1:6 Number:11@1:8 Bad:♥@1:10"},
		{"bad characters", "a `b` € \x01", "Ident:a@1:1 Bad:`@1:3 Ident:b@1:4 Bad:`@1:5 Bad:€@1:7 Bad:\x01@1:9"},
		{"invalid byte", "x\xffy", "Ident:x@1:1 Bad:\xff@1:2 Ident:y@1:3"},
		{"open string ends with its line", "a \"open\n€ 'b", "Ident:a@1:1 Bad:\"open@1:3 Newline:\n@1:8 Bad:€@2:1 Bad:'b@2:3"},
		{"escaped newline does not continue a string", "\"a\\\nb\"", "Bad:\"a\\@1:1 Newline:\n@1:4 Ident:b@2:1 Bad:\"@2:2"},
		{"empty", "", ""},
		{"only a comment", "// x", ""},
	}
	for _, c := range cases {
		if got := scanDump(c.src); got != c.want {
			t.Errorf("%s: Scan(%q)\ngot  %s\nwant %s", c.name, c.src, got, c.want)
		}
	}
}

// TestScanStops: Scan stops at the first token fn refuses.
func TestScanStops(t *testing.T) {
	var seen []string
	Scan("a b c", func(t lexer.Token) bool {
		seen = append(seen, t.Value)
		return t.Value != "b"
	})
	if got := strings.Join(seen, ","); got != "a,b" {
		t.Errorf("Scan went on after false: %s", got)
	}
}

// TestScanOffsets: each token's offset is where its text is in the source.
func TestScanOffsets(t *testing.T) {
	src := "é \"ü\" Q♣\n  3d6 // x\n\t'ab"
	Scan(src, func(tok lexer.Token) bool {
		if got := src[tok.Pos.Offset : tok.Pos.Offset+len(tok.Value)]; got != tok.Value {
			t.Errorf("token %q at offset %d reads %q", tok.Value, tok.Pos.Offset, got)
		}
		return true
	})
}

// TestLexerErrors: the strict lexer, which the grammar uses, stops where the tolerant scan
// yields TokBad, with the position and words a user reads.
func TestLexerErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"a `", "f.rules:1:3: unexpected character \"`\""},
		{"x\n  €", "f.rules:2:3: unexpected character \"€\""},
		{"1♣", "f.rules:1:2: unexpected character \"♣\""},
		{"ok \"ab\ncd", "f.rules:1:4: unterminated string"},
		{"'ab", "f.rules:1:1: unterminated string"},
	}
	for _, c := range cases {
		for _, how := range []string{"Lex", "LexBytes", "LexString"} {
			var l lexer.Lexer
			var err error
			switch how {
			case "Lex":
				l, err = Lexer.Lex("f.rules", strings.NewReader(c.src))
			case "LexBytes":
				l, err = Lexer.LexBytes("f.rules", []byte(c.src))
			default:
				l, err = Lexer.LexString("f.rules", c.src)
			}
			if err != nil {
				t.Fatalf("%s(%q): %v", how, c.src, err)
			}
			var got string
			for {
				tok, err := l.Next()
				if err != nil {
					got = err.Error()
					break
				}
				if tok.EOF() {
					got = "EOF"
					break
				}
			}
			if got != c.want {
				t.Errorf("%s(%q): got %s, want %s", how, c.src, got, c.want)
			}
		}
	}
	// The end of input is an EOF token at the end position.
	l, _ := Lexer.LexString("f.rules", "é\n")
	var last lexer.Token
	for {
		tok, err := l.Next()
		if err != nil {
			t.Fatal(err)
		}
		last = tok
		if tok.EOF() {
			break
		}
	}
	if last.Pos.Line != 2 || last.Pos.Column != 1 || last.Pos.Offset != 3 || last.Pos.Filename != "f.rules" {
		t.Errorf("EOF at %+v", last.Pos)
	}
}

// TestSymbolsNameEveryKind: the grammar's names for token kinds cover every kind the
// strict lexer yields.
func TestSymbolsNameEveryKind(t *testing.T) {
	syms := Lexer.Symbols()
	if len(syms) != 10 || syms["EOF"] != lexer.EOF {
		t.Errorf("Symbols() = %v", syms)
	}
	for k, name := range kindNames {
		if k == TokBad {
			if _, ok := syms[name]; ok {
				t.Error("TokBad is named to the grammar")
			}
			continue
		}
		if syms[name] != k {
			t.Errorf("Symbols()[%q] = %d, want %d", name, syms[name], k)
		}
	}
}

func TestBracketDelta(t *testing.T) {
	cases := []struct {
		tok  lexer.Token
		want int
	}{
		{lexer.Token{Type: TokPunct, Value: "("}, 1},
		{lexer.Token{Type: TokPunct, Value: "["}, 1},
		{lexer.Token{Type: TokPunct, Value: "{"}, 1},
		{lexer.Token{Type: TokPunct, Value: ")"}, -1},
		{lexer.Token{Type: TokPunct, Value: "]"}, -1},
		{lexer.Token{Type: TokPunct, Value: "}"}, -1},
		{lexer.Token{Type: TokPunct, Value: "<"}, 0},
		{lexer.Token{Type: TokString, Value: `"("`}, 0},
		{lexer.Token{Type: TokOp, Value: "("}, 0},
	}
	for _, c := range cases {
		if got := BracketDelta(c.tok); got != c.want {
			t.Errorf("BracketDelta(%v %q) = %d, want %d", c.tok.Type, c.tok.Value, got, c.want)
		}
	}
}

func TestContinuesLine(t *testing.T) {
	for _, op := range []string{"+", "-", "*", "/", "%", "**", "&&", "||", "??", "==", "!=", "<", "<=", ">", ">=", "?", ":", "..", "|"} {
		if !ContinuesLine(lexer.Token{}, lexer.Token{Type: TokOp, Value: op}) {
			t.Errorf("a line ending with %s does not go on", op)
		}
	}
	for _, w := range []string{"and", "or", "in", "not"} {
		if !ContinuesLine(lexer.Token{}, lexer.Token{Type: TokIdent, Value: w}) {
			t.Errorf("a line ending with %s does not go on", w)
		}
	}
	for _, tok := range []lexer.Token{
		{Type: TokOp, Value: "="}, {Type: TokOp, Value: "!"}, {Type: TokOp, Value: "."}, {Type: TokOp, Value: "+="},
		{Type: TokIdent, Value: "x"}, {Type: TokString, Value: `"+"`}, {Type: TokComma, Value: ","},
		{Type: TokPunct, Value: "("}, {Type: TokNewline, Value: "\n"}, {},
	} {
		if ContinuesLine(lexer.Token{}, tok) {
			t.Errorf("a line ending with %v %q goes on", tok.Type, tok.Value)
		}
	}
	// A % after a number is a percentage and ends the line; after a name, a remainder.
	if ContinuesLine(lexer.Token{Type: TokNumber, Value: "40"}, lexer.Token{Type: TokOp, Value: "%"}) {
		t.Error("a line ending with 40% goes on")
	}
	if !ContinuesLine(lexer.Token{Type: TokIdent, Value: "x"}, lexer.Token{Type: TokOp, Value: "%"}) {
		t.Error("a line ending with x % does not go on")
	}
}

func TestUnquote(t *testing.T) {
	cases := []struct {
		tok, want string
		ok        bool
	}{
		{`"a"`, "a", true},
		{`'a'`, "a", true},
		{`""`, "", true},
		{`''`, "", true},
		{`"é ♣"`, "é ♣", true},
		{`"a\nb\t\\"`, "a\nb\t\\", true},
		{`'it\'s "x"'`, `it's "x"`, true},
		{`"say \"hi\""`, `say "hi"`, true},
		{`'\u00e9'`, "é", true},
		// Both quotes may be escaped in both kinds of string, as in expressions.
		{`'\"'`, `"`, true},
		{`"it\'s"`, "it's", true},
		{`'a\\'`, `a\`, true},
		{`'a"`, "", false},
		{`"a'`, "", false},
		{`"`, "", false},
		{``, "", false},
		{`"a`, "", false},
		{`"\q"`, "", false},
		{`'\x'`, "", false},
		{`a`, "", false},
	}
	for _, c := range cases {
		got, ok := Unquote(c.tok)
		if got != c.want || ok != c.ok {
			t.Errorf("Unquote(%s) = %q, %v; want %q, %v", c.tok, got, ok, c.want, c.ok)
		}
	}
}

func TestDieName(t *testing.T) {
	for tok, want := range map[string]string{
		"d6": "d6", "d6>=3": "d6", "D6": "D6", "d[k]": "d", "d%": "d", "dF": "dF",
		"3d6": "", "2d[a]": "", "4D": "", "": "", "[x]": "",
	} {
		if got := DieName(tok); got != want {
			t.Errorf("DieName(%q) = %q, want %q", tok, got, want)
		}
	}
}

// FuzzScan: the tolerant scan never panics, never fails, covers every byte that is not a
// blank or a comment, and its positions only increase.
func FuzzScan(f *testing.F) {
	for _, s := range []string{"3d6+2 Q♣ 10♥ d[a, b]", "\"open\n'x", "a `b` € \xff", "x.d6 // (\n", "\uFEFF\r\n\t1.5..2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		prev := lexer.Position{Line: 1, Column: 0, Offset: -1}
		end := 0
		Scan(src, func(tok lexer.Token) bool {
			p := tok.Pos
			if p.Offset <= prev.Offset || p.Line < prev.Line || p.Line == prev.Line && p.Column <= prev.Column {
				t.Fatalf("token %q at %+v after %+v", tok.Value, p, prev)
			}
			if p.Offset < end || tok.Value == "" || src[p.Offset:p.Offset+len(tok.Value)] != tok.Value {
				t.Fatalf("token %q at %+v does not read the source (previous ended at %d)", tok.Value, p, end)
			}
			// Between tokens only blanks, comments and a BOM: the gap scans to nothing.
			if got := scanDump(src[end:p.Offset]); got != "" {
				t.Fatalf("skipped %q between tokens, which scans as %s", src[end:p.Offset], got)
			}
			prev, end = p, p.Offset+len(tok.Value)
			return true
		})
	})
}

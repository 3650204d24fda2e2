package syntax

import (
	"fmt"
	"io"
	"math/bits"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// The rule-file lexer is hand-written: a regexp lexer spent most of a load matching Unicode
// classes. Comments and blanks are dropped here, so the grammar never sees them.

// Token types, as the grammar names them.
const (
	TokString lexer.TokenType = iota + 1
	TokDice
	TokNumber
	TokCard
	TokIdent
	TokOp
	TokComma
	TokPunct
	TokNewline
	// TokBad is what a tolerant scan (Scan) yields where the grammar would fail: a
	// character the language does not use, or a string left open at the end of its line.
	TokBad
)

// ruleLexerDef is the participle lexer definition of rule files.
type ruleLexerDef struct{}

// Lexer is the rule-file lexer, for participle parsers of the language's productions.
var Lexer = ruleLexerDef{}

// Symbols names the token types. It builds the map on each call because the parser is built
// during package initialisation, before package-level maps are guaranteed to exist.
func (ruleLexerDef) Symbols() map[string]lexer.TokenType {
	return map[string]lexer.TokenType{
		"EOF": lexer.EOF, "String": TokString, "Dice": TokDice, "Number": TokNumber, "Card": TokCard,
		"Ident": TokIdent, "Op": TokOp, "Comma": TokComma, "Punct": TokPunct, "Newline": TokNewline,
	}
}

func (d ruleLexerDef) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return d.LexString(filename, string(b))
}

func (d ruleLexerDef) LexBytes(filename string, b []byte) (lexer.Lexer, error) {
	return d.LexString(filename, string(b))
}

func (ruleLexerDef) LexString(filename string, s string) (lexer.Lexer, error) {
	return &scanner{src: s, pos: lexer.Position{Filename: filename, Line: 1, Column: 1}}, nil
}

type scanner struct {
	src string
	pos lexer.Position
	// tolerant: yield TokBad and go on instead of failing (Scan).
	tolerant bool
	// afterDot: the previous token was `.`, so what follows is a field name (x.d6, x.d[k]),
	// never a dice literal.
	afterDot bool
}

// ops lists operators longest first so that `==` wins over `=`.
var ops = []string{"==", "!=", "<=", ">=", "+=", "-=", "*=", "&&", "||", "??", "?.", "..", "**",
	"-", "+", "*", "/", "%", "<", ">", "=", "!", "?", ":", ".", ";", "^", "#", "|", "&", "~", "@", "$"}

func (s *scanner) Next() (lexer.Token, error) {
	var t lexer.Token
	err := s.scan(&t)
	return t, err
}

// scan is Next writing the token in place (the file's scan writes it in its window: a
// token is 64 bytes).
func (s *scanner) scan(t *lexer.Token) error {
	for {
		rest := s.src[s.pos.Offset:]
		if rest == "" {
			*t = lexer.EOFToken(s.pos)
			return nil
		}
		c := rest[0]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			// A run of blanks at once (indentation): ASCII on one line.
			n := 1
			for n < len(rest) && (rest[n] == ' ' || rest[n] == '\t' || rest[n] == '\r') {
				n++
			}
			s.pos.Offset += n
			s.pos.Column += n
			continue
		case strings.HasPrefix(rest, "\uFEFF"):
			s.advance(3)
			continue
		case strings.HasPrefix(rest, "//"):
			n := strings.IndexByte(rest, '\n')
			if n < 0 {
				n = len(rest)
			}
			s.advance(n)
			continue
		case c == '\n':
			s.emit(t, TokNewline, 1)
			return nil
		case c == '"' || c == '\'':
			// A string ends on its own line: a backslash escapes the next character but
			// never the newline, so every scan of a line sees the same strings.
			i := 1
			for ; i < len(rest) && rest[i] != '\n'; i++ {
				if rest[i] == '\\' && i+1 < len(rest) && rest[i+1] != '\n' {
					i++
				} else if rest[i] == c {
					s.emit(t, TokString, i+1)
					return nil
				}
			}
			if s.tolerant {
				s.emit(t, TokBad, i)
				return nil
			}
			*t = lexer.Token{}
			return &lexer.Error{Msg: "unterminated string", Pos: s.pos}
		case c == ',':
			s.emitASCII(t, TokComma, 1)
			return nil
		case c == '(' || c == ')' || c == '{' || c == '}' || c == '[' || c == ']':
			// Compared in place: IndexByte on a short string is a call for every token.
			s.emitASCII(t, TokPunct, 1)
			return nil
		}
		// A card starts with a rank (10 with a 1), dice with a count or a d: most names are
		// neither, and skip both calls.
		if isRankByte(c) || c == '1' {
			if n := cardLen(rest); n > 0 {
				s.emit(t, TokCard, n)
				return nil
			}
		}
		if IsDigit(c) || c == 'd' || c == 'D' {
			if n := diceLen(rest); n > 0 && !s.afterDot {
				s.emit(t, TokDice, n)
				return nil
			}
		}
		if IsDigit(c) {
			n := digits(rest, 0)
			if n+1 < len(rest) && rest[n] == '.' && IsDigit(rest[n+1]) {
				n = digits(rest, n+1)
			}
			s.emitASCII(t, TokNumber, n)
			return nil
		}
		r, size := utf8.DecodeRuneInString(rest)
		if r == '_' || unicode.IsLetter(r) {
			n := size
			for n < len(rest) && isASCIIWord(rest[n]) {
				n++ // ASCII letters, digits and _, without decoding
			}
			if size == 1 && (n == len(rest) || rest[n] < utf8.RuneSelf) {
				s.emitASCII(t, TokIdent, n)
				return nil // an ASCII name
			}
			for n < len(rest) {
				r, size := utf8.DecodeRuneInString(rest[n:])
				if r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r) {
					break
				}
				n += size
			}
			s.emit(t, TokIdent, n)
			return nil
		}
		if n := opLen(rest); n > 0 {
			s.emitASCII(t, TokOp, n)
			return nil
		}
		if s.tolerant {
			s.emit(t, TokBad, max(size, 1))
			return nil
		}
		// Quoted as a string, as CheckNesting words the same character in an input.
		*t = lexer.Token{}
		return &lexer.Error{Msg: unexpectedChar(rest[:max(size, 1)]), Pos: s.pos}
	}
}

// unexpectedChar words a character the language does not use; a bidirectional control is
// named, since it is invisible in most editors (the "Trojan Source" attack).
func unexpectedChar(c string) string {
	if r, _ := utf8.DecodeRuneInString(c); IsBidiControl(r) {
		return "unexpected bidirectional control " + RuneName(r) + ": it can make a line display in another order than it reads"
	}
	return fmt.Sprintf("unexpected character %q", c)
}

// emit writes the token of type typ and n bytes at the scanner's position to t.
func (s *scanner) emit(t *lexer.Token, typ lexer.TokenType, n int) {
	t.Type, t.Value, t.Pos = typ, s.src[s.pos.Offset:s.pos.Offset+n], s.pos
	s.advance(n)
	s.afterDot = typ == TokOp && (t.Value == "." || t.Value == "?.")
}

// emitASCII is emit for a token of n ASCII bytes, none a newline: its end is n columns on.
func (s *scanner) emitASCII(t *lexer.Token, typ lexer.TokenType, n int) {
	t.Type, t.Value, t.Pos = typ, s.src[s.pos.Offset:s.pos.Offset+n], s.pos
	s.pos.Offset += n
	s.pos.Column += n
	s.afterDot = typ == TokOp && (t.Value == "." || t.Value == "?.")
}

func (s *scanner) advance(n int) {
	advancePos(&s.pos, s.src[s.pos.Offset:s.pos.Offset+n])
}

// isASCIIWord reports whether c is an ASCII letter, digit or _.
func isASCIIWord(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// opLen is the length of the operator of ops that starts s (the longest), or 0: a switch
// on its bytes instead of a prefix test for each operator (TestOpLenIsOps compares).
func opLen(s string) int {
	var two string // the second bytes that make a two-byte operator
	switch s[0] {
	case '=', '!', '<', '>', '+', '-':
		two = "="
	case '*':
		two = "=*"
	case '&':
		two = "&"
	case '|':
		two = "|"
	case '?':
		two = "?."
	case '.':
		two = "."
	case '%', '/', ':', ';', '^', '#', '~', '@', '$':
		return 1
	default:
		return 0
	}
	if len(s) > 1 && strings.IndexByte(two, s[1]) >= 0 {
		return 2
	}
	return 1
}

// advancePos is lexer.Position.Advance, without its count of newlines and runes for a span
// of ASCII on one line (most tokens) or a newline alone: a few percent of checking a ruleset.
func advancePos(p *lexer.Position, span string) {
	if span == "\n" {
		p.Offset++
		p.Line++
		p.Column = 1
		return
	}
	for i := 0; i < len(span); i++ {
		if c := span[i]; c == '\n' || c >= utf8.RuneSelf {
			// Advance's count from there (the ASCII before is on the same line), its runes
			// counted by runeCount: the strings of French text were most of the cost.
			rest := span[i:]
			p.Offset += len(span)
			if strings.IndexByte(rest, '\n') < 0 { // IndexByte is vectorised, LastIndexByte not
				p.Column += i + runeCount(rest)
			} else {
				p.Line += strings.Count(rest, "\n")
				p.Column = runeCount(rest[strings.LastIndexByte(rest, '\n'):])
			}
			return
		}
	}
	p.Offset += len(span)
	p.Column += len(span)
}

// runeCount is utf8.RuneCountInString (an invalid byte counting as one rune), over 8 bytes
// at once where they are ASCII and skipping the ASCII bytes before a rune beyond ASCII.
func runeCount(s string) int {
	const hi = 0x8080808080808080
	n := 0
	for len(s) >= 8 {
		w := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		if w&hi == 0 {
			n, s = n+8, s[8:]
			continue
		}
		k := bits.TrailingZeros64(w&hi) / 8 // the ASCII bytes before the first other one
		_, size := utf8.DecodeRuneInString(s[k:])
		n, s = n+k+1, s[k+size:]
	}
	return n + utf8.RuneCountInString(s)
}

// IsDigit reports whether c is an ASCII digit.
func IsDigit(c byte) bool { return c >= '0' && c <= '9' }

func digits(s string, i int) int {
	for i < len(s) && IsDigit(s[i]) {
		i++
	}
	return i
}

// diceLen measures a dice literal at the start of s: `3d6`, `d%`, `4dF`, `4D`, with glued
// modifiers (`4d6kh3`, `10d10!`, `6d10>=8`). Whitespace ends a literal: `3d6 >= 12` compares.
func diceLen(s string) int {
	i := digits(s, 0)
	if i == len(s) || (s[i] != 'd' && s[i] != 'D') {
		return 0
	}
	j := i + 1
	switch {
	case j < len(s) && IsDigit(s[j]):
		j = digits(s, j)
	case j < len(s) && (s[j] == '%' || s[j] == 'F'):
		j++
		if s[j-1] == 'F' && j+1 < len(s) && s[j] == '.' && (s[j+1] == '1' || s[j+1] == '2') && (j+2 == len(s) || !IsDigit(s[j+2])) {
			j += 2 // dF.1, dF.2: the variants of the Fudge die
		}
	case j < len(s) && s[j] == '[':
		// Faces are names and numbers: a quote means an index into a variable (d["a]"]).
		k := strings.IndexAny(s[j:], "]\n\"'")
		if k < 0 || s[j+k] != ']' {
			return 0
		}
		j += k + 1
	case i > 0 && s[i] == 'D' && (j == len(s) || !isWordByte(s[j])):
		return j // a bare D after a count: the D6 system's 4D
	case i > 0 && j < len(s) && isWordByte(s[j]) && !IsDigit(s[j]) && s[j] != '_':
		// A declared die's name after a count, 2dcombat: the name runs to the end of the
		// word (the checker says which die it names, or that none is declared).
		for j < len(s) && isWordByte(s[j]) {
			j++
		}
	default:
		return 0
	}
	for j < len(s) && (isWordByte(s[j]) && s[j] != '_' || strings.IndexByte("!<>=", s[j]) >= 0) {
		j++
	}
	return j
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

var suits = []string{"♣", "♠", "♥", "♦"}

// cardLen measures a card literal such as `Q♣` or `10♥`.
func cardLen(s string) int {
	n := 0
	switch {
	case strings.HasPrefix(s, "10"):
		n = 2
	case len(s) > 0 && isRankByte(s[0]):
		n = 1
	default:
		return 0
	}
	if n >= len(s) || s[n] != suits[0][0] {
		return 0 // every suit starts with the same byte (0xE2)
	}
	for _, suit := range suits {
		if strings.HasPrefix(s[n:], suit) {
			return n + len(suit)
		}
	}
	return 0
}

// isRankByte reports whether c is a card rank of one byte: 2-9, A, J, Q, K, R, V, D (a
// switch, where strings.IndexByte was a call for every name and number scanned).
func isRankByte(c byte) bool {
	switch c {
	case '2', '3', '4', '5', '6', '7', '8', '9', 'A', 'J', 'Q', 'K', 'R', 'V', 'D':
		return true
	}
	return false
}

// Scan is the one scanner behind every question about the structure of source text:
// bracket depth, where strings and comments are, whether a line goes on. It runs the rule
// lexer tolerantly (a character the language does not use, or an unclosed string, becomes a
// TokBad token) and calls fn for each token, newlines included, comments and blanks not,
// until fn returns false. The grammar, the formatter, the REPL's continuation detector and
// the checks on inputs all go through it or through the same lexer, so they agree.
func Scan(src string, fn func(t lexer.Token) bool) {
	s := &scanner{src: src, pos: lexer.Position{Line: 1, Column: 1}, tolerant: true}
	for {
		t, err := s.Next()
		if err != nil || t.EOF() || !fn(t) {
			return
		}
	}
}

// BracketDelta is +1 for an opening bracket token, -1 for a closing one, 0 otherwise.
func BracketDelta(t lexer.Token) int {
	if t.Type != TokPunct {
		return 0
	}
	switch t.Value {
	case "(", "[", "{":
		return 1
	case ")", "]", "}":
		return -1
	}
	return 0
}

// ContinuesLine reports whether a line ending with token t goes on to the next line: it ends
// with a binary operator (`a +` ⏎ `b`, `x and` ⏎ `y`).
//
// prev is the token before t (zero at the start): a % after a number is a percentage
// (`>= 40%`), which ends the line.
func ContinuesLine(prev, t lexer.Token) bool {
	if t.Type == TokOp && t.Value == "%" && prev.Type == TokNumber {
		return false
	}
	switch t.Type {
	case TokOp:
		switch t.Value {
		case "+", "-", "*", "/", "%", "**", "&&", "||", "??", "==", "!=", "<", "<=", ">", ">=", "?", ":", "..", "|":
			return true
		}
	case TokIdent:
		return t.Value == "and" || t.Value == "or" || t.Value == "in" || t.Value == "not"
	}
	return false
}

// OpenBrackets returns how many brackets src leaves open, outside strings and comments
// (negative when it closes more than it opens). The REPL reads a continuation line while it
// is positive.
//
// A line of more than MaxExprTokens tokens counts as 0 after that many: no input may hold so
// many, so the line is taken as it is and refused at once (CheckNesting), rather than
// scanned to its end and joined to the lines after it.
func OpenBrackets(src string) int {
	depth, n := 0, 0
	Scan(src, func(t lexer.Token) bool {
		if n++; n > MaxExprTokens {
			depth = 0
			return false
		}
		depth += BracketDelta(t)
		return true
	})
	return depth
}

// Unquote reads a string token written with double or single quotes. Either quote may be
// escaped in either kind of string (`'\"'`, `"it\'s"`), as expr-lang reads the strings of
// expressions; the other escapes are Go's.
func Unquote(tok string) (string, bool) {
	if len(tok) < 2 || tok[0] != tok[len(tok)-1] || tok[0] != '"' && tok[0] != '\'' {
		return "", false
	}
	// Rewrite the text between the quotes as a Go double-quoted literal: \' is a plain quote
	// there, and a bare " needs its backslash.
	var b strings.Builder
	b.WriteByte('"')
	body := tok[1 : len(tok)-1]
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c == '\\' && i+1 < len(body) && body[i+1] == '\'':
			b.WriteByte('\'')
			i++
		case c == '\\' && i+1 < len(body):
			b.WriteString(body[i : i+2])
			i++
		case c == '"':
			b.WriteString(`\"`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	s, err := strconv.Unquote(b.String())
	return s, err == nil
}

// DieName returns the name a dice token starts with (`d6` in `d6>=3`, `d` in `d[k]`), or ""
// when it starts with a count (`2d6` is never a name).
func DieName(tok string) string {
	i := 0
	for i < len(tok) && isWordByte(tok[i]) {
		i++
	}
	if i == 0 || IsDigit(tok[0]) {
		return ""
	}
	return tok[:i]
}

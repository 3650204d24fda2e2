package runtime

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unsafe"
)

// KindKey is the hidden map key that tells which kind a record is. Names starting with "__"
// are reserved, so no rule can read or write it.
const KindKey = "__kind"

// Str formats a value the way `emit` and `{…}` interpolation show it: strings bare.
func Str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case int:
		return strconv.Itoa(x) // as Repr writes it, without a builder
	case bool:
		return strconv.FormatBool(x)
	case *Roll:
		if sym := x.Symbol(); sym != "" {
			return sym
		}
		if x.result.IsBool {
			return strconv.FormatBool(x.Bool)
		}
		return strconv.Itoa(x.Total)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return strconv.FormatFloat(x, 'f', 0, 64)
		}
	case Stringer:
		// What Repr writes for it (no case before its Stringer one matches these), without
		// Repr's builder and copy: str(c) of a card, a card in a template.
		return x.String()
	}
	return Repr(v)
}

// Repr formats a value unambiguously, as the REPL and `eval` print results: strings quoted,
// records with their kind and fields in declaration order, maps with sorted keys. A record,
// map or list met again inside itself prints as <cycle: …>.
func Repr(v any) string {
	var b reprBuf
	w := reprWriter{b: &b}
	w.write(v, 0)
	return b.String()
}

// appendRepr appends what Repr writes for v to b, its size bound counted from len(b).
func appendRepr(b []byte, v any) []byte {
	buf := reprBuf{b: b}
	w := reprWriter{b: &buf, base: len(b)}
	w.write(v, 0)
	return buf.b
}

// reprBuf is what reprWriter writes into: bytes of its own (Repr) or a template's buffer
// (appendRepr), which then takes a value's printed form without a string in between.
type reprBuf struct{ b []byte }

func (r *reprBuf) WriteString(s string) { r.b = append(r.b, s...) }

// WriteByte has io.ByteWriter's signature (go vet's rule for the name); it never fails.
func (r *reprBuf) WriteByte(c byte) error {
	r.b = append(r.b, c)
	return nil
}

// Write lets fmt print into the buffer.
func (r *reprBuf) Write(p []byte) (int, error) {
	r.b = append(r.b, p...)
	return len(p), nil
}

func (r *reprBuf) Len() int { return len(r.b) }

// String is the bytes written as a string, without a copy, as strings.Builder gives it:
// Repr writes nothing more to its buffer once it has taken it.
func (r *reprBuf) String() string { return unsafe.String(unsafe.SliceData(r.b), len(r.b)) }

// ReprSummary formats a value as Repr does, except that a list with more than maxList
// elements, at any depth, prints as its count: `[46 × Soldat]` when its elements are all
// records of one kind, `[46 items]` otherwise. It keeps a whole state readable on a screen
// (the REPL's :state) when entities hold long lists. maxList <= 0 prints every element.
func ReprSummary(v any, maxList int) string {
	var b reprBuf
	w := reprWriter{b: &b, maxList: maxList}
	w.write(v, 0)
	return b.String()
}

// listSummary is the summary form of a long list: its count, with the kind of its elements
// when they are all records of one kind.
func listSummary(x []any) string {
	var kind *Kind
	for _, e := range x {
		rec, ok := e.(map[string]any)
		if !ok {
			kind = nil
			break
		}
		k, ok := rec[KindKey].(*Kind)
		if !ok || (kind != nil && k != kind) {
			kind = nil
			break
		}
		kind = k
	}
	if kind != nil {
		return "[" + strconv.Itoa(len(x)) + " × " + kind.Name + "]"
	}
	return "[" + strconv.Itoa(len(x)) + " items]"
}

// Stringer lets stdlib values (dice results, cards, hexes) choose their own printed form.
type Stringer interface{ String() string }

// Appender is a Stringer that also appends its printed form to a buffer, without making a
// string of it (a card, a pile in a template's hole): AppendTo(b) appends what String
// returns.
type Appender interface {
	Stringer
	AppendTo(b []byte) []byte
}

// maxReprDepth bounds how deep printing goes; deeper values print as "…".
const maxReprDepth = 20

// Path tracks the maps and lists being printed, to tell a cycle from a shared value.
type Path []uintptr

// Enter reports whether v (a map or list) is already being printed, else records it.
func (p *Path) Enter(v any) (string, bool) {
	rv := reflect.ValueOf(v)
	if (rv.Kind() != reflect.Map && rv.Kind() != reflect.Slice) || rv.Len() == 0 {
		return "", false
	}
	ptr := rv.Pointer()
	for _, q := range *p {
		if q == ptr {
			return cycleMark(v), true
		}
	}
	*p = append(*p, ptr)
	return "", false
}

// Leave forgets the value Enter recorded last, once it is printed.
func (p *Path) Leave() { *p = (*p)[:len(*p)-1] }

func cycleMark(v any) string {
	if rec, ok := v.(map[string]any); ok {
		if k, ok := rec[KindKey].(*Kind); ok {
			return "<cycle: " + k.Name + ">"
		}
		return "<cycle: map>"
	}
	return "<cycle: list>"
}

type reprWriter struct {
	b       *reprBuf
	base    int // where the value's printed form starts in b (the size bound counts from it)
	seen    Path
	cut     bool
	maxList int // lists longer than this print as their count (0: never)
}

// next writes the separator before element i of a list or map, and says false once the
// printed form is past its size bound: the rest is not printed.
func (w *reprWriter) next(i int) bool {
	if w.cut {
		return false
	}
	if i > 0 {
		w.b.WriteString(", ")
	}
	return true
}

func (w *reprWriter) write(v any, depth int) {
	b := w.b
	if depth > maxReprDepth {
		b.WriteString("…")
		return
	}
	if b.Len()-w.base > MaxReprBytes {
		// A list of many references to one large value would print without end.
		if !w.cut {
			b.WriteString("…")
			w.cut = true
		}
		return
	}
	switch v.(type) {
	case []any, map[string]any:
		if mark, cyc := w.seen.Enter(v); cyc {
			b.WriteString(mark)
			return
		} else if reflect.ValueOf(v).Len() > 0 {
			defer w.seen.Leave()
		}
	}
	switch x := v.(type) {
	case nil:
		b.WriteString("nil")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int:
		b.WriteString(strconv.Itoa(x))
	case float64:
		b.WriteString(FormatFloat(x))
	case string:
		b.WriteString(strconv.Quote(x))
	case []any:
		if w.maxList > 0 && len(x) > w.maxList {
			b.WriteString(listSummary(x))
			return
		}
		b.WriteByte('[')
		for i, e := range x {
			if !w.next(i) {
				break
			}
			w.write(e, depth+1)
		}
		b.WriteByte(']')
	case map[string]any:
		if k, ok := x[KindKey].(*Kind); ok {
			b.WriteString(k.Name)
			b.WriteByte('{')
			for i, f := range k.Fields {
				if !w.next(i) {
					break
				}
				b.WriteString(f.Name)
				b.WriteString(": ")
				w.write(x[f.Name], depth+1)
			}
			b.WriteByte('}')
			return
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if !w.next(i) {
				break
			}
			if IsIdent(k) {
				b.WriteString(k)
			} else {
				b.WriteString(strconv.Quote(k)) // {"a]": 2} reads as one key
			}
			b.WriteString(": ")
			w.write(x[k], depth+1)
		}
		b.WriteByte('}')
	case *Kind:
		b.WriteString("kind " + x.Name)
	case *Proc:
		b.WriteString(x.Verb + " " + x.Name)
	case Stringer:
		b.WriteString(x.String())
	default:
		rv := reflect.ValueOf(v)
		switch rv.Kind() {
		case reflect.Slice, reflect.Array:
			if w.maxList > 0 && rv.Len() > w.maxList {
				b.WriteString("[" + strconv.Itoa(rv.Len()) + " items]")
				return
			}
			b.WriteByte('[')
			for i := 0; i < rv.Len(); i++ {
				if !w.next(i) {
					break
				}
				w.write(rv.Index(i).Interface(), depth+1)
			}
			b.WriteByte(']')
			return
		case reflect.Map:
			// expr-lang's groupBy gives a map keyed by any value: print it as a map.
			keys := rv.MapKeys()
			names := make([]string, len(keys))
			for i, k := range keys {
				names[i] = Repr(k.Interface())
			}
			order := make([]int, len(keys))
			for i := range order {
				order[i] = i
			}
			sort.Slice(order, func(i, j int) bool { return names[order[i]] < names[order[j]] })
			b.WriteByte('{')
			for i, o := range order {
				if !w.next(i) {
					break
				}
				b.WriteString(names[o])
				b.WriteString(": ")
				w.write(rv.MapIndex(keys[o]).Interface(), depth+1)
			}
			b.WriteByte('}')
			return
		case reflect.Pointer, reflect.Struct:
			b.WriteString(ForeignWords(rv.Type().String()))
			return
		}
		fmt.Fprint(b, v)
	}
}

// FormatFloat prints a float as rules see it (Snap: 0.1 + 0.2 prints 0.3): a whole one
// keeps its ".0" (3.0, not 3) so it never reads as an int; others in their shortest form.
func FormatFloat(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	f = Snap(f)
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatFloat(f, 'f', 1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// ToJSON converts a value to something encoding/json prints faithfully: records become
// objects with their fields (and "$kind"), stdlib values their printed form, NaN and the
// infinities the strings "NaN", "+Inf" and "-Inf". A record, map or
// list met again inside itself becomes the string "<cycle: …>", so records that refer to
// each other convert.
func ToJSON(v any) any {
	j := jsonWriter{}
	return j.convert(v, 0)
}

// MaxJSONDepth bounds nesting in JSON output, MaxJSONValues the values converted and
// MaxJSONBytes the bytes of their strings (a list of many references to one large value);
// past them values become "…".
const (
	MaxJSONDepth  = 200
	MaxJSONValues = 1_000_000
	MaxJSONBytes  = 16 << 20 // of strings, which may repeat one long string many times
)

type jsonWriter struct {
	seen  Path
	count int
	bytes int
}

func (j *jsonWriter) convert(v any, depth int) any {
	j.count++
	if depth > MaxJSONDepth || j.count > MaxJSONValues {
		return "…"
	}
	seen := &j.seen
	switch x := v.(type) {
	case float64:
		// JSON has no NaN nor infinities: they are written as the language prints them.
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return FormatFloat(x)
		}
		return x
	case string:
		if j.bytes += len(x); j.bytes > MaxJSONBytes {
			return "…"
		}
		return x
	case nil, bool, int:
		return x
	case []any:
		if mark, cyc := seen.Enter(x); cyc {
			return mark
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = j.convert(e, depth+1)
		}
		if len(x) > 0 {
			seen.Leave()
		}
		return out
	case map[string]any:
		if k, ok := x[KindKey].(*Kind); ok && k.Tally {
			// A roll of record dice: its own fields (those of other dice read 0).
			out := make(map[string]any, len(k.Fields))
			for _, f := range k.Fields {
				out[f.Name] = x[f.Name]
			}
			return out
		}
		if mark, cyc := seen.Enter(x); cyc {
			return mark
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			if k == KindKey {
				if kd, ok := e.(*Kind); ok && !kd.Tally {
					out["$kind"] = kd.Name
				}
				continue
			}
			out[k] = j.convert(e, depth+1)
		}
		if len(x) > 0 {
			seen.Leave()
		}
		return out
	case interface{ JSON() any }:
		return x.JSON()
	}
	return Repr(v)
}

// ParseValue reads a value given on the command line or in the REPL (`--set malus=2`): a
// number, true/false, a quoted string, or else the bare text as a string.
func ParseValue(s string) any {
	s = strings.TrimSpace(s)
	if i, err := strconv.Atoi(s); err == nil {
		return i
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
		return f
	}
	switch s {
	case "true":
		return true
	case "false":
		return false
	}
	if u, err := strconv.Unquote(s); err == nil {
		return u
	}
	return s
}

// MaxReprBytes bounds the printed form of one value.
const MaxReprBytes = 1 << 20

package runtime

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
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
			if x == 0 && math.Signbit(x) {
				return "-0"
			}
			return strconv.Itoa(int(x)) // what FormatFloat(x, 'f', 0, 64) gives
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
	w := reprWriter{}
	w.write(v, 0)
	return w.String()
}

// appendRepr appends what Repr writes for v to b, its size bound counted from len(b).
func appendRepr(b []byte, v any) []byte {
	w := reprWriter{b: b, base: len(b)}
	w.write(v, 0)
	return w.b
}

// ReprSummary formats a value as Repr does, except that a list with more than maxList
// elements, at any depth, prints as its count: `[46 × Soldat]` when its elements are all
// records of one kind, `[46 items]` otherwise. It keeps a whole state readable on a screen
// (the REPL's :state) when entities hold long lists. maxList <= 0 prints every element.
func ReprSummary(v any, maxList int) string {
	w := reprWriter{maxList: maxList}
	w.write(v, 0)
	return w.String()
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

// Path tracks the maps and lists being printed, to tell a cycle from a shared value. The
// first pathInline of them are kept in the Path itself, so that printing a value nested
// less deep than that (the lists and maps of a template's hole) allocates no path.
type Path struct {
	first [pathInline]uintptr
	n     int       // how many of first are in use
	more  []uintptr // the values entered past the first pathInline
}

// pathInline is how many nested values a Path holds without allocating.
const pathInline = 8

// Enter reports whether v (a map or list) is already being printed, else records it. A
// list or record of the language is told by its pointer without reflection.
func (p *Path) Enter(v any) (string, bool) {
	var ptr uintptr
	switch x := v.(type) {
	case []any:
		if len(x) == 0 {
			return "", false
		}
		ptr = uintptr(unsafe.Pointer(unsafe.SliceData(x)))
	case map[string]any:
		if len(x) == 0 {
			return "", false
		}
		ptr = uintptr(*(*unsafe.Pointer)(unsafe.Pointer(&x))) // what reflect's Pointer gives
	default:
		rv := reflect.ValueOf(v)
		if (rv.Kind() != reflect.Map && rv.Kind() != reflect.Slice) || rv.Len() == 0 {
			return "", false
		}
		ptr = rv.Pointer()
	}
	if slices.Contains(p.first[:p.n], ptr) || slices.Contains(p.more, ptr) {
		return cycleMark(v), true
	}
	if p.n < pathInline {
		p.first[p.n] = ptr
		p.n++
	} else {
		p.more = append(p.more, ptr)
	}
	return "", false
}

// Leave forgets the value Enter recorded last, once it is printed.
func (p *Path) Leave() {
	if len(p.more) > 0 {
		p.more = p.more[:len(p.more)-1]
		return
	}
	p.n--
}

func cycleMark(v any) string {
	if rec, ok := v.(map[string]any); ok {
		if k, ok := rec[KindKey].(*Kind); ok {
			return "<cycle: " + k.Name + ">"
		}
		return "<cycle: map>"
	}
	return "<cycle: list>"
}

// reprWriter writes a value's printed form into b: bytes of its own (Repr) or a template's
// buffer (appendRepr), which then takes it without a string in between. The bytes are held
// here, not behind a pointer, so that the writer and what it writes into stay on the stack.
type reprWriter struct {
	b       []byte
	base    int // where the value's printed form starts in b (the size bound counts from it)
	seen    Path
	cut     bool
	maxList int // lists longer than this print as their count (0: never)
}

func (w *reprWriter) str(s string) { w.b = append(w.b, s...) }

func (w *reprWriter) byte(c byte) { w.b = append(w.b, c) }

// String is the bytes written as a string, without a copy, as strings.Builder gives it:
// Repr writes nothing more once it has taken it.
func (w *reprWriter) String() string { return unsafe.String(unsafe.SliceData(w.b), len(w.b)) }

// next writes the separator before element i of a list or map, and says false once the
// printed form is past its size bound: the rest is not printed.
func (w *reprWriter) next(i int) bool {
	if w.cut {
		return false
	}
	if i > 0 {
		w.str(", ")
	}
	return true
}

func (w *reprWriter) write(v any, depth int) {
	if depth > maxReprDepth {
		w.str("…")
		return
	}
	if len(w.b)-w.base > MaxReprBytes {
		// A list of many references to one large value would print without end.
		if !w.cut {
			w.str("…")
			w.cut = true
		}
		return
	}
	// Scalars are appended to the buffer where they are formatted, no string made of them.
	switch x := v.(type) {
	case nil:
		w.str("nil")
	case bool:
		w.b = strconv.AppendBool(w.b, x)
	case int:
		w.b = strconv.AppendInt(w.b, int64(x), 10)
	case float64:
		w.b = appendFloat(w.b, x)
	case string:
		w.b = strconv.AppendQuote(w.b, x)
	case []any:
		if w.enter(v, len(x)) {
			w.list(x, depth)
			w.leave(len(x))
		}
	case map[string]any:
		if w.enter(v, len(x)) {
			w.dict(x, depth)
			w.leave(len(x))
		}
	case *Kind:
		w.str("kind " + x.Name)
	case *Proc:
		w.str(x.Verb + " " + x.Name)
	case Appender:
		w.b = x.AppendTo(w.b) // what String returns, without the string
	case Stringer:
		w.str(x.String())
	default:
		w.foreign(v, depth)
	}
}

// foreign writes a value that is none of the language's own: a Go slice, array or map that
// a builtin of expr gives, or anything else (out of write, whose frame stays small).
func (w *reprWriter) foreign(v any, depth int) {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		if w.maxList > 0 && rv.Len() > w.maxList {
			w.str("[" + strconv.Itoa(rv.Len()) + " items]")
			return
		}
		w.byte('[')
		for i := 0; i < rv.Len(); i++ {
			if !w.next(i) {
				break
			}
			w.write(rv.Index(i).Interface(), depth+1)
		}
		w.byte(']')
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
		w.byte('{')
		for i, o := range order {
			if !w.next(i) {
				break
			}
			w.str(names[o])
			w.str(": ")
			w.write(rv.MapIndex(keys[o]).Interface(), depth+1)
		}
		w.byte('}')
		return
	case reflect.Pointer, reflect.Struct:
		w.str(ForeignWords(rv.Type().String()))
		return
	}
	w.str(fmt.Sprint(v)) // not Fprint into w: the writer would escape to the heap
}

// enter records v, a list or map of n elements, as being printed, and says whether to print
// it: false when it is met again inside itself, its cycle mark written instead. An empty
// one holds nothing that could lead back to it, and is not recorded.
func (w *reprWriter) enter(v any, n int) bool {
	if n == 0 {
		return true
	}
	if mark, cyc := w.seen.Enter(v); cyc {
		w.str(mark)
		return false
	}
	return true
}

// leave forgets what enter recorded for a value of n elements.
func (w *reprWriter) leave(n int) {
	if n > 0 {
		w.seen.Leave()
	}
}

// list writes a list's elements, or its count when it is longer than maxList.
func (w *reprWriter) list(x []any, depth int) {
	if w.maxList > 0 && len(x) > w.maxList {
		w.str(listSummary(x))
		return
	}
	w.byte('[')
	for i, e := range x {
		if !w.next(i) {
			break
		}
		w.write(e, depth+1)
	}
	w.byte(']')
}

// keyOrder is the keys of a map in the order the printer shows them (at most 16, the maps
// it sorts on its stack), and which of them it writes quoted: a key that is not a name, so
// that {"a]": 2} reads as one key.
type keyOrder struct {
	n      int
	quoted uint16 // bit i: keys[i] is written quoted
	keys   [16]string
}

// keyOrders are the sorted keys of maps the printer showed lately, by their number of keys
// (modulo len(keyOrders)): a map with as many keys, each of them among those, has the same
// keys, printed in that order. A status line prints the same maps over and over (a ship's
// attack and defence by post), and walking and sorting a map's keys cost more than printing
// its entries. A keyOrder is never changed once stored, so the machines of every worker
// share them. A slot's keys are replaced only at every keyOrderPatience-th map of as many
// keys that has others: maps of different keys printed in turn do not make a new keyOrder
// each.
var keyOrders [8]struct {
	order  atomic.Pointer[keyOrder]
	misses atomic.Uint32
}

const keyOrderPatience = 8

// mapEntry is a key of a map being printed and its value.
type mapEntry struct {
	k string
	v any
}

// dict writes a record's fields in their kind's order, or a map's entries by sorted key.
func (w *reprWriter) dict(x map[string]any, depth int) {
	if k, ok := x[KindKey].(*Kind); ok {
		w.str(k.Name)
		w.byte('{')
		for i, f := range k.Fields {
			if !w.next(i) {
				break
			}
			w.str(f.Name)
			w.str(": ")
			w.write(x[f.Name], depth+1)
		}
		w.byte('}')
		return
	}
	// The entries of a small map are sorted on the stack, not in a slice of the heap, with
	// their values (no look-up of each key again), unless its keys are those of a map
	// printed before (keyOrders): they are then read in that map's order, neither walked
	// nor sorted, and written as that map's were.
	var small [16]mapEntry
	entries := small[:0]
	slot := &keyOrders[len(x)%len(keyOrders)]
	order := slot.order.Load()
	if order != nil && order.n == len(x) {
		for _, k := range order.keys[:order.n] {
			v, ok := x[k]
			if !ok {
				break
			}
			entries = append(entries, mapEntry{k, v})
		}
	}
	if len(entries) != len(x) {
		entries = entries[:0]
		for k, v := range x {
			entries = append(entries, mapEntry{k, v})
		}
		slices.SortFunc(entries, func(a, b mapEntry) int { return strings.Compare(a.k, b.k) })
		stored := order
		order = nil
		if n := len(entries); n > 1 && n <= len(small) && (stored == nil || slot.misses.Add(1)%keyOrderPatience == 0) {
			order = &keyOrder{n: n}
			for i, e := range entries {
				order.keys[i] = e.k
				if !IsIdent(e.k) {
					order.quoted |= 1 << i
				}
			}
			slot.order.Store(order)
		}
	}
	w.byte('{')
	for i, e := range entries {
		if !w.next(i) {
			break
		}
		if order != nil && order.quoted>>i&1 == 0 || order == nil && IsIdent(e.k) {
			w.str(e.k)
		} else {
			w.b = strconv.AppendQuote(w.b, e.k) // {"a]": 2} reads as one key
		}
		w.str(": ")
		w.write(e.v, depth+1)
	}
	w.byte('}')
}

// FormatFloat prints a float as rules see it (Snap: 0.1 + 0.2 prints 0.3): a whole one
// keeps its ".0" (3.0, not 3) so it never reads as an int; others in their shortest form.
func FormatFloat(f float64) string {
	return string(appendFloat(make([]byte, 0, 32), f))
}

// appendFloat appends what FormatFloat gives for f to b.
func appendFloat(b []byte, f float64) []byte {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return strconv.AppendFloat(b, f, 'g', -1, 64)
	}
	f = Snap(f)
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.AppendFloat(b, f, 'f', 1, 64)
	}
	return strconv.AppendFloat(b, f, 'g', -1, 64)
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

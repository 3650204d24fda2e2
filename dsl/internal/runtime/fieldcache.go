package runtime

import "unsafe"

// The field cache: a record is a Go map, and a record of more than eight fields (most kinds
// of the shipped rules) hashes the field's name at every read, about 120 instructions and
// three or four cache lines (Go's swiss table: its header, directory, control word and
// slot). A machine remembers the fields it read lately in a small direct-mapped table,
// keyed by the record's identity and the field's name, and answers a read found there with
// one line. Every write of a record that may be in the table goes through the machine
// (setEntry, rollback undoing it, an entity's initialiser, which another's may have read
// before it), which writes the table through: an entry always holds what the record holds,
// so nothing is ever invalidated by a write, and the entries outlive the runs of a
// simulation. Records are only ever written so; the ones written otherwise are new (a
// record built, the state carried over by a reload into a new machine, whose table is
// reset), and no entry names them before their first read. Go code outside the language
// must not change the run's records either (see dsl.Machine.Global). An entry holds its
// record: a record freed while named here could not give its address to a new one.

// fieldCacheBits is the log2 of the number of entries of the table: 512 entries (20 KiB) took
// an Assaut's instructions and cache misses lower than 256 did, and 1024 no lower.
const fieldCacheBits = 9

// fieldCacheSize is the number of entries of the table.
const fieldCacheSize = 1 << fieldCacheBits

// fieldTable is the table of a machine's fields read lately.
type fieldTable struct{ t [fieldCacheSize]fieldEntry }

// noFields is the table of a machine that has read no field yet, shared and never written:
// a machine allocates its own at its first read (a machine that only rolls dice never does),
// and FieldKept need not ask whether it has one.
var noFields fieldTable

// fieldEntry is one field read: the record's identity, the field's name and its value (nil
// for a field the record does not hold, as reading the map gives).
type fieldEntry struct {
	rec unsafe.Pointer
	key string
	v   any
}

// FieldHash is the part of a field's slot in the table that its name gives: a hash of its
// text (not of its address: a write may name the field with a string made at run time). A
// read site computes it once, at load.
func FieldHash(key string) uint64 {
	if n := len(key); n > 0 {
		return uint64(n)<<40 ^ uint64(key[0])<<48 ^ uint64(key[n-1])<<56
	}
	return 0
}

// fieldSlot is where the field of hash kh (FieldHash) of the record rec goes in the table.
func fieldSlot(rec unsafe.Pointer, kh uint64) uint { return addrSlot(uintptr(rec), kh, fieldCacheBits) }

// addrSlot is the slot, among 1<<bits, of the object at addr in one of a machine's
// direct-mapped tables keyed by addresses (fields read, journaled fields and piles, maps'
// keys, values not frozen), mixed with what else keys it: a multiplicative hash of the
// address's bits above a small object's alignment (objects of one size are evenly spaced,
// so their low bits alone would collide).
func addrSlot(addr uintptr, mix uint64, bits uint) uint {
	return uint(((uint64(addr)>>4 ^ mix) * 0x9E3779B97F4A7C15) >> (64 - bits))
}

// FieldKept returns rec[key] when the table holds it (kh is FieldHash(key)). The name is
// compared by its bytes' address: the reads of a field named in the rules share one string
// (FieldKey), and a read with another string holding the same name only misses. A read site
// calls ReadField when it misses: the two are not one function, so that this one is
// inlined at the site.
func (m *Machine) FieldKept(rec map[string]any, key string, kh uint64) (any, bool) {
	ptr := recordPtr(rec)
	e := &m.fields.t[fieldSlot(ptr, kh)]
	return e.v, e.rec == ptr && unsafe.StringData(e.key) == unsafe.StringData(key) && len(e.key) == len(key)
}

// ReadField reads rec[key] from the record and keeps it in the table, in place of what its
// slot held (kh is FieldHash(key)).
//
//go:noinline
func (m *Machine) ReadField(rec map[string]any, key string, kh uint64) any {
	ptr := recordPtr(rec)
	v := rec[key]
	if m.fields == &noFields {
		m.fields = new(fieldTable)
	}
	m.fields.t[fieldSlot(ptr, kh)] = fieldEntry{rec: ptr, key: key, v: v}
	return v
}

// wroteField writes v, just written to the record's field key, into the table when it
// holds that field (a machine that read none has no table of its own, nor a zero Machine).
func (m *Machine) wroteField(rec unsafe.Pointer, key string, v any) {
	t := m.fields
	if t == nil || t == &noFields {
		return
	}
	if e := &t.t[fieldSlot(rec, FieldHash(key))]; e.rec == rec && e.key == key {
		e.v = v
	}
}

// EntryKept is FieldKept for a key computed at run time (m[k]): its hash taken here and the
// name compared by its text.
func (m *Machine) EntryKept(rec map[string]any, key string) (any, bool) {
	e := &m.fields.t[fieldSlot(recordPtr(rec), FieldHash(key))]
	return e.v, e.key == key && e.rec == recordPtr(rec)
}

// ForgetFields empties the table, and the maps' keys kept (keycache.go), after records were
// written behind it (a reload's carried state) or for a call from Go code that may have
// changed the run's records it was handed (dsl.Machine.Call, dsl.Session.Eval): the reads
// that follow read the records.
func (m *Machine) ForgetFields() {
	if m.fields != &noFields && m.fields != nil {
		clear(m.fields.t[:])
	}
	m.forgetKeys()
}

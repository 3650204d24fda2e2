package runtime

import "unsafe"

// The keys kept: keys(m) lists a map's keys in their order, which costs walking the map
// and sorting its keys, about a thousand instructions for a map of a few entries; the
// naval Assaut asks for the keys of the same few maps (a ship's points by post) forty times
// a run, and their keys never change. A machine keeps the sorted keys of the maps it listed
// lately, in a small direct-mapped table keyed by the map's identity. A list is never
// changed in place, so the list kept is given again as it is. A map's keys change only as
// an entry is added (setField, for a key the map did not hold) or taken away (rollback
// undoing that): both forget what the table kept of the map. A map changed behind the
// machine's back (by Go code, see ForgetFields) is forgotten with the fields, and a kept
// list whose map no longer has as many keys is not given. An entry holds its map, so that no
// other map takes its address while it is kept.

// keysCacheBits is the log2 of keysCacheSize.
const keysCacheBits = 5

// keysCacheSize is the number of maps whose keys a machine keeps.
const keysCacheSize = 1 << keysCacheBits

// keysEntry is the sorted keys of one map, as Keys lists them.
type keysEntry struct {
	rec  map[string]any
	keys []any
	n    int // len(rec) when the keys were listed
}

// keysSlot is where the map at ptr goes in the table.
func keysSlot(ptr unsafe.Pointer) uint { return addrSlot(uintptr(ptr), 0, keysCacheBits) }

// KeptKeys returns the sorted keys of mp that the machine kept (KeepKeys), if it kept them.
func (m *Machine) KeptKeys(mp map[string]any) ([]any, bool) {
	if m.keys == nil {
		return nil, false
	}
	e := &m.keys[keysSlot(recordPtr(mp))]
	if e.rec == nil || recordPtr(e.rec) != recordPtr(mp) || e.n != len(mp) {
		return nil, false
	}
	return e.keys, true
}

// KeepKeys keeps keys, the sorted keys of mp, for the next KeptKeys of mp.
func (m *Machine) KeepKeys(mp map[string]any, keys []any) {
	if m.keys == nil {
		m.keys = new([keysCacheSize]keysEntry)
	}
	m.keys[keysSlot(recordPtr(mp))] = keysEntry{rec: mp, keys: keys, n: len(mp)}
}

// keysChanged forgets the keys kept of the map at ptr, which just gained or lost a key.
func (m *Machine) keysChanged(ptr unsafe.Pointer) {
	if m.keys == nil {
		return
	}
	if e := &m.keys[keysSlot(ptr)]; e.rec != nil && recordPtr(e.rec) == ptr {
		*e = keysEntry{}
	}
}

// forgetKeys forgets every map's keys kept (ForgetFields).
func (m *Machine) forgetKeys() {
	if m.keys != nil {
		clear(m.keys[:])
	}
}

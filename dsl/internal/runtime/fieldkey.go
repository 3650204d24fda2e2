package runtime

import "sync"

// FieldKey returns the one copy of a field's name that the process keeps: the names of the
// kinds' fields (a record's keys), the fields assignments set and the fields expressions read
// are all given it when loaded. A map compares its keys' bytes only when their pointers
// differ, so a record's field is then found by a pointer comparison. The names are those of
// the loaded rules (their kinds' fields, the fields they read or set): few, and kept. A
// process that loads rules for long (the language server, every name a GM types) keeps at
// most fieldKeys.limit of them; a name past it is returned as given, a key as good as the
// other, only compared by its bytes.
func FieldKey(name string) string {
	fieldKeys.Lock()
	defer fieldKeys.Unlock()
	if k, ok := fieldKeys.m[name]; ok {
		return k
	}
	if fieldKeys.m == nil {
		fieldKeys.m = map[string]string{}
	}
	if len(fieldKeys.m) >= fieldKeys.limit {
		return name
	}
	fieldKeys.m[name] = name
	return name
}

var fieldKeys = struct {
	sync.Mutex
	m     map[string]string
	limit int
}{limit: 1 << 16}

package runtime

import (
	"fmt"
	"testing"
)

// Past journalScan entries the journal is indexed: a field written again adds no entry,
// and a write to a field already journaled allocates nothing (its key is not boxed).
func TestJournalIndexFields(t *testing.T) {
	m := &Machine{}
	rec := map[string]any{}
	const fields = 2 * journalScan
	for round := range 3 {
		for i := range fields {
			m.setField(rec, fmt.Sprint("f", i), round)
		}
	}
	if len(m.journal) != fields || len(m.journaledFields) != fields {
		t.Fatalf("journal %d entries, index %d fields; want %d", len(m.journal), len(m.journaledFields), fields)
	}
	if n := testing.AllocsPerRun(100, func() { m.setField(rec, "f1", 7) }); n != 0 {
		t.Errorf("a write to a journaled field allocates %v times", n)
	}
	m.rollback()
	if len(rec) != 0 || len(m.journal) != 0 || m.indexOn {
		t.Errorf("after the rollback: record %v, journal %d, index on %v", rec, len(m.journal), m.indexOn)
	}
}

package analysis

import (
	"fmt"
	"strings"
	"testing"
)

// TestReadShardRefuses: a hand-edited or damaged shard file is refused with words, never
// makes the merge panic (a huge "of"), nor gives a summary of no runs.
func TestReadShardRefuses(t *testing.T) {
	const good = `{"shard":{"index":1,"of":1,"first":0,"last":2},"expr":"d6","runs":2,"seed":1,"files":[],"set":[],"paired":false,"outcomes":[{"text":"3","kind":"number","value":3}],"pairs":[{"a":"3","count":2}],"emitted":{"a":{"hit":1}}}`
	if _, err := ReadShard([]byte(good + "\n")); err != nil {
		t.Fatalf("good shard: %v", err)
	}
	for _, c := range []struct{ name, doc, want string }{
		{"huge of", strings.Replace(good, `"of":1,`, `"of":9223372036854775807,`, 1), "want I/N"},
		{"index 0", strings.Replace(good, `"index":1,`, `"index":0,`, 1), "want I/N"},
		{"no runs", strings.Replace(good, `"runs":2,`, `"runs":0,`, 1), "0 runs"},
		{"negative runs", strings.Replace(good, `"runs":2,`, `"runs":-5,`, 1), "-5 runs"},
		{"paired alone", strings.Replace(good, `"paired":false`, `"paired":true`, 1), `"paired" is true`},
		{"emitted too often", strings.Replace(good, `"hit":1`, `"hit":99`, 1), "counted 99 times"},
		{"trailing", good + " x", "more after the document"},
		{"empty", "", "the file is empty"},
		{"truncated", good[:40], "stops short"},
		{"array", "[]", "a JSON array"},
		{"garbage", "garbage", "not JSON at byte 1"},
	} {
		_, err := ReadShard([]byte(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "Go value") {
			t.Errorf("%s: %v: Go's words", c.name, err)
		}
	}
}

// TestParseShard: I/N in decimal digits alone, 1 ≤ I ≤ N; anything else is refused.
func TestParseShard(t *testing.T) {
	for _, c := range []struct {
		in       string
		index, n int
	}{{"1/1", 1, 1}, {"2/8", 2, 8}, {"8/8", 8, 8}} {
		if i, n, err := ParseShard(c.in); err != nil || i != c.index || n != c.n {
			t.Errorf("%q: %d, %d, %v", c.in, i, n, err)
		}
	}
	for _, in := range []string{"", "1", "1/", "/2", "0/3", "4/3", "1/0", "0/0", "-1/2", "+1/2", " 1/2", "1/2 ", "1/2/3",
		"a/b", "1.0/2", "1/99999999999", "1/1000000001"} {
		if _, _, err := ParseShard(in); err == nil || !strings.Contains(err.Error(), "want I/N with 1 ≤ I ≤ N") {
			t.Errorf("%q: %v, want a refusal", in, err)
		}
	}
}

// TestCheckShard: more shards than runs is refused, naming both numbers.
func TestCheckShard(t *testing.T) {
	if err := CheckShard(3, 3); err != nil {
		t.Errorf("3 shards of 3 runs: %v", err)
	}
	if err := CheckShard(3, 5); err == nil || !strings.Contains(err.Error(), "5 shards of 3 runs") {
		t.Errorf("5 shards of 3 runs: %v", err)
	}
}

// shardDoc is a shard document of d6 over 4 runs in 2 shards, edited by the replacements
// given (old, new, old, new…).
func shardDoc(index int, edits ...string) string {
	doc := `{"shard":{"index":1,"of":2,"first":0,"last":2},"expr":"d6","runs":4,"seed":1,"files":["r.rules"],"set":[],` +
		`"sha256":{"r.rules":"` + strings.Repeat("ab", 32) + `"},"paired":false,` +
		`"outcomes":[{"text":"3","kind":"number","value":3},{"text":"5","kind":"number","value":5}],` +
		`"pairs":[{"a":"3","count":1},{"a":"5","count":1}],"emitted":{"a":{}}}`
	if index == 2 {
		doc = strings.Replace(doc, `"index":1,"of":2,"first":0,"last":2`, `"index":2,"of":2,"first":2,"last":4`, 1)
	}
	for i := 0; i+1 < len(edits); i += 2 {
		doc = strings.Replace(doc, edits[i], edits[i+1], 1)
	}
	return doc
}

// merge reads documents as shard files named s1, s2… and merges them.
func merge(docs ...string) (*Tally, error) {
	var names []string
	var shards []*Shard
	for i, d := range docs {
		name := fmt.Sprintf("s%d", i+1)
		sh, err := ReadShard([]byte(d))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		names, shards = append(names, name), append(shards, sh)
	}
	_, t, err := MergeShards(names, shards)
	return t, err
}

// TestMergeShardsHostile: documents that sim --shard cannot have written are refused, each
// with words naming the file: counts that overflow int64 back to the right sum, a number of
// shards that would have the merge allocate by it, outcomes that say one thing and hold
// another, rule files of other contents.
func TestMergeShardsHostile(t *testing.T) {
	if tl, err := merge(shardDoc(1), shardDoc(2)); err != nil || tl.Runs != 4 || tl.Pairs[Pair{A: "3"}] != 2 {
		t.Fatalf("good shards: %v, %+v", err, tl)
	}
	const max = "9223372036854775807"
	overflow := shardDoc(1, `{"a":"3","count":1},{"a":"5","count":1}`,
		`{"a":"3","count":`+max+`},{"a":"5","count":`+max+`},{"a":"7","count":4}`,
		`{"text":"5","kind":"number","value":5}`, `{"text":"5","kind":"number","value":5},{"text":"7","kind":"number","value":7}`)
	other := strings.Repeat("cd", 32)
	for _, c := range []struct {
		name string
		docs []string
		want string
	}{
		{"counts wrapping around int64", []string{overflow, shardDoc(2)}, "s1: its counts add up to more than the 2 runs of shard 1/2"},
		{"a negative count", []string{shardDoc(1, `"count":1},{"a":"5","count":1}`, `"count":1},{"a":"5","count":-1}`), shardDoc(2)}, "s1: a count of -1"},
		{"a zero count", []string{shardDoc(1, `"count":1},{"a":"5","count":1}`, `"count":2},{"a":"5","count":0}`), shardDoc(2)}, "s1: a count of 0"},
		{"a pair twice", []string{shardDoc(1, `{"a":"5","count":1}`, `{"a":"3","count":1}`, `{"text":"5","kind":"number","value":5}`, `{"text":"5","kind":"number","value":5}`), shardDoc(2)}, "counted twice"},
		{"a billion shards, one run each", []string{`{"shard":{"index":1,"of":1000000000,"first":0,"last":1},"expr":"d6","runs":1000000000,"seed":1,"files":[],"set":[],"paired":false,"outcomes":[{"text":"3","kind":"number","value":3}],"pairs":[{"a":"3","count":1}],"emitted":{"a":{}}}`},
			"shard 2/1000000000, 3/1000000000, 4/1000000000, 5/1000000000, 6/1000000000, 7/1000000000, 8/1000000000, 9/1000000000, 10/1000000000, 11/1000000000, … (999999999 in all) missing"},
		{"more shards than runs", []string{shardDoc(1, `"of":2,"first":0,"last":2`, `"of":5,"first":0,"last":0`)}, "s1: 5 shards of 4 runs"},
		{"a slice not its index's", []string{shardDoc(1, `"last":2`, `"last":3`)}, "s1: shard 1/2 of 4 runs should hold runs [0, 2), not [0, 3)"},
		{"a number that is another", []string{shardDoc(1, `"value":3`, `"value":4`), shardDoc(2)}, `s1: outcome "3" is not a number written as its value`},
		{"an infinite number", []string{shardDoc(1, `{"text":"3","kind":"number","value":3}`, `{"text":"1e999","kind":"number","value":1e999}`, `{"a":"3"`, `{"a":"1e999"`), shardDoc(2)}, "not a number written as its value"},
		{"a bool that is not", []string{shardDoc(1, `{"text":"3","kind":"number","value":3}`, `{"text":"3","kind":"bool","value":3}`), shardDoc(2)}, "not true or false"},
		{"a failure not written as one", []string{shardDoc(1, `{"text":"3","kind":"number","value":3}`, `{"text":"3","kind":"error","value":"x"}`), shardDoc(2)}, "not a failure"},
		{"a value without value", []string{shardDoc(1, `{"text":"3","kind":"number","value":3}`, `{"text":"3","kind":"value"}`), shardDoc(2)}, "has no value"},
		{"an outcome twice", []string{shardDoc(1, `{"text":"5","kind":"number","value":5}`, `{"text":"3","kind":"number","value":3}`), shardDoc(2)}, `outcome "3" is listed twice`},
		{"an outcome listed alone", []string{shardDoc(1, `"pairs":[{"a":"3","count":1},{"a":"5","count":1}]`, `"pairs":[{"a":"3","count":2}]`), shardDoc(2)}, `s1: outcome "5" is listed but never counted`},
		{"a B side without a study of one", []string{shardDoc(1, `{"a":"3","count":1}`, `{"a":"3","b":"5","count":1}`), shardDoc(2)}, "a B outcome"},
		{"a line twice", []string{shardDoc(1, `"emitted":{"a":{}}`, `"emitted":{"a":{"x":1,"x":1}}`), shardDoc(2)}, `s1: not a shard of rulesh sim --shard: the line "x" is counted twice`},
		{"a line counted by a fraction", []string{shardDoc(1, `"emitted":{"a":{}}`, `"emitted":{"a":{"x":0.5}}`), shardDoc(2)}, `s1: not a shard of rulesh sim --shard: the line "x" is not counted by a whole number`},
		{"lines that are not an object", []string{shardDoc(1, `"emitted":{"a":{}}`, `"emitted":{"a":[]}`), shardDoc(2)}, `s1: not a shard of rulesh sim --shard: the lines emitted are not an object of counts`},
		{"a long text", []string{shardDoc(1, `{"text":"3","kind":"number","value":3}`, `{"text":"`+strings.Repeat("é", 1000)+`","kind":"number","value":3}`), shardDoc(2)},
			`s1: outcome "` + strings.Repeat("é", 60) + `…" is not a number written as its value`},
		{"lines of a B side", []string{shardDoc(1, `"emitted":{"a":{}}`, `"emitted":{"a":{},"b":{"x":1}}`), shardDoc(2)}, "B side"},
		{"an outcome of another kind in another shard", []string{shardDoc(1), shardDoc(2, `{"text":"5","kind":"number","value":5}`, `{"text":"5","kind":"value","value":"5"}`)}, `s2: outcome "5" is a value written "5", an earlier shard has a number written 5`},
		{"a hash that is not one", []string{shardDoc(1, `"r.rules":"ab`, `"r.rules":"xy`)}, `s1: "sha256" of "r.rules"`},
		{"no hash of a file", []string{shardDoc(1, `"sha256":{"r.rules"`, `"sha256":{"q.rules"`)}, "s1: no \"sha256\" of the rule file r.rules"},
		{"no hash of the variant file", []string{shardDoc(1, `"paired":false`, `"paired":true`, `"set":[]`, `"set":[],"variant":"v.rules"`)}, "s1: no \"sha256\" of the rule file v.rules"},
		{"another file's contents", []string{shardDoc(1), shardDoc(2, strings.Repeat("ab", 32), other)}, "s2 is a shard of another study than s1: the rule file r.rules differs (sha256 cdcdcdcdcdcd…, not abababababab…)"},
		{"an include more", []string{shardDoc(1), shardDoc(2, `"r.rules":"`, `"inc.rules":"`+other+`","r.rules":"`)}, "s2 is a shard of another study than s1: it read the rule file inc.rules, which the other did not"},
	} {
		_, err := merge(c.docs...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
	}
}

// TestHashSources: SHA-256 in hex of every source, by its path with forward slashes.
func TestHashSources(t *testing.T) {
	h := HashSources(map[string][]byte{"a/b.rules": []byte("abc")})
	if len(h) != 1 || h["a/b.rules"] != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("%v", h)
	}
}

// FuzzMergeShards: whatever the bytes of two shard files, reading and merging them gives a
// tally or an error in words, never a panic nor Go's own words.
func FuzzMergeShards(f *testing.F) {
	f.Add(shardDoc(1), shardDoc(2))
	f.Add(shardDoc(1, `"paired":false`, `"paired":true`, `"set":[]`, `"set":[],"compare":"x=1"`), shardDoc(2))
	f.Fuzz(func(t *testing.T, a, b string) {
		_, err := merge(a, b)
		if err != nil && (strings.Contains(err.Error(), "Go value") || strings.Contains(err.Error(), "runtime error")) {
			t.Errorf("Go's words: %v", err)
		}
	})
}

// TestReadShardLineBound: a side holds at most MaxEmittedLines lines (past it sim counts
// none), refused while decoding rather than after a map of them is built.
func TestReadShardLineBound(t *testing.T) {
	defer func(n int) { maxEmittedLines = n }(maxEmittedLines)
	maxEmittedLines = 2
	if _, err := ReadShard([]byte(shardDoc(1, `"emitted":{"a":{}}`, `"emitted":{"a":{"x":1,"y":1}}`))); err != nil {
		t.Errorf("2 lines: %v", err)
	}
	_, err := ReadShard([]byte(shardDoc(1, `"emitted":{"a":{}}`, `"emitted":{"a":{"x":1,"y":1,"z":1}}`)))
	if err == nil || !strings.Contains(err.Error(), "more than 2 distinct lines emitted on a side") {
		t.Errorf("3 lines: %v", err)
	}
}

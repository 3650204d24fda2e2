package runtime_test

import "testing"

// TestConditionNotBool: a condition whose value, read from an any, is not a bool fails at
// the condition, in if (first or later condition), require and while alike.
func TestConditionNotBool(t *testing.T) {
	s := session(t, `kind K {
  v: any = 1
  w: any = false
}
entity k: K { }
action premier(): int {
  if k.v { return 1 }
  return 0
}
action later(): int {
  if k.w { return 1 } else if k.v { return 2 }
  return 0
}
action req(): int {
  require k.v else "no"
  return 1
}
action boucle(): int {
  while k.v { return 1 }
  return 0
}
`)
	for _, tc := range []struct{ call, want string }{
		{"premier()", "t.rules:7:6: condition is 1, not true or false"},
		{"later()", "t.rules:11:31: condition is 1, not true or false"},
		{"req()", "t.rules:15:11: condition is 1, not true or false"},
		{"boucle()", "t.rules:19:9: condition is 1, not true or false"},
	} {
		_, err := s.Eval("<e>", tc.call)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v, want %s", tc.call, err, tc.want)
		}
	}
}

// Package choice binds players' choices to the language: choose(prompt, options, policy)
// returns one of the options, taken from a hand-given answer, asked in the REPL, or decided
// by the ruleset's policy rule policy(prompt, options). It holds no state: the Machine keeps
// the hand-given answers and journals them. It imports runtime only.
package choice

import (
	"rulesh/dsl/internal/runtime"
)

// policyCallback is the policy's call: policy(prompt, options) returns one of the options.
var policyCallback = runtime.Callback{Arg: 2, Params: []string{"prompt", "options"}}

// Builtins are the choice functions rules call, by name: choose.
func Builtins() map[string]runtime.Builtin {
	return map[string]runtime.Builtin{
		"choose": {Fn: func(m *runtime.Machine, a []any) (any, error) {
			prompt, ok := a[0].(string)
			if !ok {
				return nil, runtime.Errorf("choose: the prompt must be a string, got %s", runtime.Repr(a[0]))
			}
			options, ok := a[1].([]any)
			if !ok {
				return nil, runtime.Errorf("choose: the options must be a list, got %s", runtime.Repr(a[1]))
			}
			policy, err := m.CallbackProc("choose", policyCallback, a[2])
			if err != nil {
				return nil, err
			}
			if policy == nil {
				return nil, runtime.Errorf("choose %q: a policy rule is needed (it chooses when no player answers)", prompt)
			}
			return m.Choose(prompt, options, policy)
		}, Types: []any{new(func(*runtime.Machine, string, []any, any) any)}, Callbacks: []runtime.Callback{policyCallback}},
	}
}

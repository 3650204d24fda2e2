package cli

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"rulesh/analysis"
	"rulesh/cmd/rulesh/internal/output"
	"rulesh/stdlib/dice"
)

// rollBlock is how many bytes of printed rolls are gathered before one write.
const rollBlock = 32 << 10

// MaxRollCount bounds -n.
const MaxRollCount = 100_000_000

// MaxRollDice bounds the dice one roll command rolls, all rolls together: -n 10000000 of
// 10000d6 would otherwise run for hours.
const MaxRollDice = 200_000_000

// countingSource counts the dice rolled from it.
type countingSource struct {
	src dice.Source
	n   int
}

// Roll implements dice.Source, counting.
func (s *countingSource) Roll(sides int) (int, error) {
	s.n++
	return s.src.Roll(sides)
}

func (c *cli) roll(args []string) int {
	fs := c.newFlags("roll", "roll [--seed N] [-n COUNT] [--stats] [--json] [-f FILE]... EXPR")
	var files listFlag
	fs.Var(&files, "f", "load a rule `FILE` for its named dice (repeatable)")
	seed := fs.Uint64("seed", 0, "seed the dice (default: a random seed)")
	n := fs.Int("n", 1, "roll `COUNT` times")
	stats := fs.Bool("stats", false, "print mean, standard deviation, min, max and a histogram")
	asJSON := fs.Bool("json", false, "print one JSON document: {expr, n, mean, stddev, min, max, counts}")
	pos, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(pos) == 0 {
		fmt.Fprintln(c.stderr, "rulesh roll: no dice expression given")
		fs.Usage()
		return ExitUsage
	}
	if *n < 1 || *n > MaxRollCount {
		fmt.Fprintf(c.stderr, "rulesh roll: -n must be between 1 and %d\n", MaxRollCount)
		return ExitUsage
	}
	src := strings.Join(pos, " ")
	named, code := c.namedDice(files)
	if code != 0 {
		return code
	}
	e, err := dice.Parse(src, named)
	if err != nil {
		output.DiceError(c.stderr, src, err)
		return ExitError
	}
	s := *seed
	if !flagSet(fs, "seed") {
		s = rand.Uint64()
	}
	// One trial roll, from a source of its own, tells how many dice a roll takes.
	trial := &countingSource{src: dice.NewPCG(s)}
	if e.IsRecord() && (*stats || *asJSON) {
		fmt.Fprintf(c.stderr, "rulesh roll: %s rolls records of counts, which have no total for --stats or --json: rulesh prob and rulesh sim count them\n", src)
		return ExitError
	}
	if e.IsRecord() {
		if _, _, err := e.RollRecord(trial); err != nil {
			output.DiceError(c.stderr, src, err)
			return ExitError
		}
	} else if _, err := dice.NewRoller(e, trial).Total(); err != nil {
		output.DiceError(c.stderr, src, err)
		return ExitError
	}
	if trial.n > 0 && *n > MaxRollDice/trial.n {
		fmt.Fprintf(c.stderr, "rulesh roll: %d rolls of %d dice each is more than the limit of %d dice in all; roll fewer\n", *n, trial.n, MaxRollDice)
		return ExitError
	}
	r := dice.NewRoller(e, dice.NewPCG(s))
	_, isBool := e.Root.(*dice.Cmp)
	if !*stats && !*asJSON {
		// A line per roll, millions of them: each roll is recorded into one reused Result and
		// its text appended to one buffer, written out in blocks, so printing a roll costs
		// about what counting it does, with no allocation and no write of its own.
		var res dice.Result
		buf := make([]byte, 0, rollBlock+256)
		for i := 0; i < *n; i++ {
			if err := r.RollInto(&res); err != nil {
				c.stdout.Write(buf)
				output.DiceError(c.stderr, src, err)
				return ExitError
			}
			buf, _ = res.AppendText(buf)
			buf = append(buf, '\n')
			if len(buf) >= rollBlock {
				if _, err := c.stdout.Write(buf); err != nil {
					fmt.Fprintf(c.stderr, "rulesh roll: writing the rolls: %v\n", err)
					return ExitError
				}
				buf = buf[:0]
			}
		}
		if _, err := c.stdout.Write(buf); err != nil {
			fmt.Fprintf(c.stderr, "rulesh roll: writing the rolls: %v\n", err)
			return ExitError
		}
		return ExitOK
	}
	var h analysis.Histogram
	for i := 0; i < *n; i++ {
		v, err := r.Total()
		if err != nil {
			output.DiceError(c.stderr, src, err)
			return ExitError
		}
		h.Add(v)
	}
	if *asJSON {
		counts := map[string]int{}
		h.Each(func(v, k int) { counts[output.Label(v, isBool, nil)] = k })
		return c.writeJSON(map[string]any{
			"expr": src, "n": *n, "mean": h.Mean(), "stddev": h.Stddev(),
			"min": output.Value(h.Min(), isBool, nil), "max": output.Value(h.Max(), isBool, nil), "counts": counts,
		})
	}
	fmt.Fprintf(c.stdout, "%s: %d rolls\nmean %s  stddev %s  min %s  max %s\n", src, *n,
		output.Float(h.Mean()), output.Float(h.Stddev()), output.Label(h.Min(), isBool, nil), output.Label(h.Max(), isBool, nil))
	var rows [][]string
	var weights []float64
	h.Each(func(v, k int) {
		p := float64(k) / float64(*n)
		rows = append(rows, []string{output.Label(v, isBool, nil), strconv.Itoa(k), output.Percent(p)})
		weights = append(weights, p)
	})
	output.Table(c.stdout, []string{"value", "count", "%"}, rows, weights)
	return ExitOK
}

// flagSet reports whether a flag was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	found := false
	fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}

// namedDice loads rule files and returns their declared dice (empty without files).
func (c *cli) namedDice(files []string) (map[string]*dice.Die, int) {
	prog, code := c.loadProgram(files, false)
	if prog == nil {
		return map[string]*dice.Die{}, code
	}
	return prog.Dice(), 0
}

package main

import (
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestFlagsGivenTwice: every flag of every command that takes one value
// refuses a second one, naming the flag and both values (pflag kept the
// last: --config a.yaml --config b.yaml read b.yaml); the flags that take
// a list (--model, --point) may be repeated.
func TestFlagsGivenTwice(t *testing.T) {
	value := map[string]string{"string": "x", "bool": "true", "int": "1", "int64": "1", "uint": "1", "float64": "1", "duration": "1s"}
	var visit func(cmd *cobra.Command)
	once, lists := 0, 0
	visit = func(cmd *cobra.Command) {
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			typ := f.Value.Type()
			if strings.HasSuffix(typ, "Slice") || strings.HasSuffix(typ, "Array") {
				lists++
				v := "1"
				if strings.HasPrefix(typ, "string") {
					v = "x"
				}
				if err := cmd.ParseFlags([]string{"--" + f.Name, v, "--" + f.Name, v}); err != nil {
					t.Errorf("%s --%s twice: %v; a list may be repeated", cmd.CommandPath(), f.Name, err)
				}
				return
			}
			v, ok := value[typ]
			// An option's flag takes one of its values (optionFlags, --algorithm).
			if c, isChoice := map[string]string{"contention": "refined", "gpu-model": "fifo", "priorities": "opa", "deadlines": "period", "algorithm": "nsga2"}[f.Name]; isChoice {
				v, ok = c, true
			}
			if !ok {
				t.Errorf("%s --%s: a flag of type %s, unknown to this test", cmd.CommandPath(), f.Name, typ)
				return
			}
			once++
			err := cmd.ParseFlags([]string{"--" + f.Name + "=" + v, "--" + f.Name + "=" + v})
			if err != nil {
				err = plainFlagError(cmd, err)
			}
			if want := "--" + f.Name + ` given twice ("` + v + `", then "` + v + `"): give it once`; err == nil || err.Error() != want {
				t.Errorf("%s --%s twice: %v; want %q", cmd.CommandPath(), f.Name, err, want)
			}
		})
		for _, c := range cmd.Commands() {
			visit(c)
		}
	}
	visit(newRootCmd(io.Discard, io.Discard))
	if once < 20 || lists < 3 {
		t.Errorf("%d flags of one value and %d of lists: the test misses the commands' flags", once, lists)
	}
}

// TestPlainFlagErrors: the flag parser's errors in plain words, an element
// of a list named alone.
func TestPlainFlagErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"report", "r", "--point", "abc"}, `--point "abc": not a whole number`},
		{[]string{"report", "r", "--point", "1,x"}, `--point "x": not a whole number`},
		{[]string{"report", "r", "--point", "99999999999999999999"}, `--point 99999999999999999999: too large; give a whole number`},
		{[]string{"optimize", "--seed", "abc"}, `--seed "abc": not a whole number`},
		{[]string{"optimize", "--wide=maybe"}, `--wide "maybe": not true or false`},
		{[]string{"optimize", "--config", "a.yaml", "--config", "b.yaml"}, `--config given twice ("a.yaml", then "b.yaml"): give it once`},
		{[]string{"import", "m.amxmi", "-o", "a.yaml", "--output", "b.yaml"}, `--output given twice ("a.yaml", then "b.yaml"): give it once`},
	} {
		_, errOut, code := hetmap(t, tt.args...)
		if code != exitInput || errOut != "hetmap: "+tt.want+"\n" {
			t.Errorf("hetmap %s: exit %d, stderr %q; want 2 and %q", strings.Join(tt.args, " "), code, errOut, tt.want)
		}
	}
}

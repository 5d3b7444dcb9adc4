package player

import (
	"fmt"
	"strconv"
	"strings"
)

// Spec is a parsed player spec: "ab:depth=2" has Kind "ab" and one option;
// "uci:/opt/fsf --x,Threads=2" has Kind "uci", Arg "/opt/fsf --x" and one
// option. See the package documentation for the syntax.
type Spec struct {
	// Text is the spec as given, which is also the player's name.
	Text string
	Kind string
	Arg  string
	// Options keeps the order of the text: UCI engines receive them in it.
	Options []Option
}

// Option is one NAME=VALUE pair of a spec.
type Option struct {
	Name, Value string
}

// ParseSpec reads a player spec.
func ParseSpec(text string) (Spec, error) {
	s := Spec{Text: text}
	kind, body, hasBody := strings.Cut(text, ":")
	s.Kind = strings.TrimSpace(kind)
	if s.Kind == "" {
		return Spec{}, fmt.Errorf("player spec %q: empty kind (want e.g. random, ab:depth=2, uci:/path/engine)", text)
	}
	if !isIdent(s.Kind) {
		return Spec{}, fmt.Errorf("player spec %q: kind %q must be letters, digits or '_'", text, s.Kind)
	}
	if !hasBody {
		return s, nil
	}
	elems, err := splitEscaped(body)
	if err != nil {
		return Spec{}, fmt.Errorf("player spec %q: %w", text, err)
	}
	for i, e := range elems {
		name, value, ok := strings.Cut(e, "=")
		name = strings.TrimSpace(name)
		if i == 0 && (!ok || !isIdent(name)) {
			s.Arg = strings.TrimSpace(e)
			continue
		}
		if !ok || name == "" {
			return Spec{}, fmt.Errorf("player spec %q: %q is not NAME=VALUE", text, e)
		}
		if _, dup := s.Lookup(name); dup {
			return Spec{}, fmt.Errorf("player spec %q: option %q given twice", text, name)
		}
		s.Options = append(s.Options, Option{Name: name, Value: strings.TrimSpace(value)})
	}
	return s, nil
}

// splitEscaped splits at commas not escaped by a backslash and removes the
// escapes.
func splitEscaped(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			if i+1 == len(s) {
				return nil, fmt.Errorf("trailing backslash")
			}
			i++
			cur.WriteByte(s[i])
		case ',':
			out = append(out, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	return append(out, cur.String()), nil
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// Lookup returns the value of the named option (case-insensitive).
func (s Spec) Lookup(name string) (string, bool) {
	for _, o := range s.Options {
		if strings.EqualFold(o.Name, name) {
			return o.Value, true
		}
	}
	return "", false
}

// Int returns the named option as an integer, or def when it is absent.
func (s Spec) Int(name string, def int) (int, error) {
	v, ok := s.Lookup(name)
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("player %q: option %s=%q: want a whole number", s.Text, name, v)
	}
	return n, nil
}

// IntAtLeast returns the named option as an integer of at least min, or
// def when it is absent.
func (s Spec) IntAtLeast(name string, def, min int) (int, error) {
	v, ok := s.Lookup(name)
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < min {
		return 0, fmt.Errorf("player %q: option %s=%q: want a whole number ≥ %d", s.Text, name, v, min)
	}
	return n, nil
}

// Uint64 returns the named option as an unsigned integer, or def.
func (s Spec) Uint64(name string, def uint64) (uint64, error) {
	v, ok := s.Lookup(name)
	if !ok {
		return def, nil
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("player %q: option %s=%q: want a whole number ≥ 0", s.Text, name, v)
	}
	return n, nil
}

// Float returns the named option as a number, or def.
func (s Spec) Float(name string, def float64) (float64, error) {
	v, ok := s.Lookup(name)
	if !ok {
		return def, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, fmt.Errorf("player %q: option %s=%q: want a number", s.Text, name, v)
	}
	return f, nil
}

// Bool returns the named option as a boolean (1/0, true/false, on/off), or
// def.
func (s Spec) Bool(name string, def bool) (bool, error) {
	v, ok := s.Lookup(name)
	if !ok {
		return def, nil
	}
	switch strings.ToLower(v) {
	case "1", "true", "on", "yes":
		return true, nil
	case "0", "false", "off", "no":
		return false, nil
	}
	return false, fmt.Errorf("player %q: option %s=%q: want on or off", s.Text, name, v)
}

// CheckOptions returns an error naming the first option not in known, so
// that a misspelt option fails before any game instead of being ignored.
func (s Spec) CheckOptions(known ...string) error {
	for _, o := range s.Options {
		found := false
		for _, k := range known {
			if strings.EqualFold(o.Name, k) {
				found = true
				break
			}
		}
		if !found {
			return fmt.Errorf("player %q: unknown option %q (known: %s)", s.Text, o.Name, strings.Join(known, ", "))
		}
	}
	return nil
}

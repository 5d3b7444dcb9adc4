package uci

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/mcts/engine"
)

// option describes one UCI option: its declaration and its setter.
type option struct {
	name string
	decl func(o engine.Options, s *session) string
	set  func(s *session, o *engine.Options, value string) error
}

func spinValue(value string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(value))
	if err != nil {
		return 0, fmt.Errorf("%s is not a whole number", echo(value))
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("%d is outside %d..%d", n, lo, hi)
	}
	return n, nil
}

func spin(def, lo, hi int) string {
	return fmt.Sprintf("type spin default %d min %d max %d", def, lo, hi)
}

func options() []option {
	var variants []string
	for _, v := range env.Variants() {
		variants = append(variants, "var "+v.Name)
	}
	return []option{
		{"UCI_Variant",
			func(o engine.Options, _ *session) string {
				return "type combo default " + o.Variant.Name + " " + strings.Join(variants, " ")
			},
			func(_ *session, o *engine.Options, v string) error {
				vr, err := env.VariantByName(strings.TrimSpace(v))
				o.Variant = vr
				return err
			}},
		{"Threads",
			func(o engine.Options, _ *session) string { return spin(o.Threads, 1, engine.MaxThreads) },
			func(_ *session, o *engine.Options, v string) (err error) {
				o.Threads, err = spinValue(v, 1, engine.MaxThreads)
				return err
			}},
		{"Hash",
			func(o engine.Options, _ *session) string { return spin(o.HashMB, 1, engine.MaxHashMB) },
			func(_ *session, o *engine.Options, v string) (err error) {
				o.HashMB, err = spinValue(v, 1, engine.MaxHashMB)
				return err
			}},
		{"Weights",
			func(o engine.Options, _ *session) string {
				if o.Weights == "" {
					return "type string default <empty>"
				}
				return "type string default " + o.Weights
			},
			func(_ *session, o *engine.Options, v string) error {
				v = strings.TrimSpace(v)
				if v == "<empty>" {
					v = ""
				}
				o.Weights, o.Network = v, nil
				return nil
			}},
		{"Search",
			func(o engine.Options, _ *session) string {
				return "type combo default " + o.Search + " var " + strings.Join(engine.Searches(), " var ")
			},
			func(_ *session, o *engine.Options, v string) error {
				v = strings.TrimSpace(v)
				if !slices.Contains(engine.Searches(), v) {
					return fmt.Errorf("%s is not one of %s", echo(v), strings.Join(engine.Searches(), ", "))
				}
				o.Search = v
				return nil
			}},
		{"Visits",
			func(o engine.Options, _ *session) string { return spin(o.Visits, 1, engine.MaxVisits) },
			func(_ *session, o *engine.Options, v string) (err error) {
				o.Visits, err = spinValue(v, 1, engine.MaxVisits)
				return err
			}},
		{"MultiPV",
			func(_ engine.Options, s *session) string { return spin(s.multiPV, 1, maxMultiPV) },
			func(s *session, o *engine.Options, v string) error {
				n, err := spinValue(v, 1, maxMultiPV)
				if err == nil {
					s.multiPV, o.MultiPV = n, n
				}
				return err
			}},
		{"UCI_ShowWDL",
			func(_ engine.Options, s *session) string { return fmt.Sprintf("type check default %t", s.showWDL) },
			func(s *session, _ *engine.Options, v string) error {
				b, err := strconv.ParseBool(strings.TrimSpace(v))
				if err != nil {
					return fmt.Errorf("%s is not true or false", echo(v))
				}
				s.showWDL = b
				return nil
			}},
		{"Move Overhead",
			func(o engine.Options, _ *session) string {
				return spin(int(o.MoveOverhead.Milliseconds()), 0, maxOverhead)
			},
			func(_ *session, o *engine.Options, v string) error {
				ms, err := spinValue(v, 0, maxOverhead)
				if err != nil {
					return err
				}
				// 0 would mean the default; 1 µs is as good as none.
				o.MoveOverhead = max(time.Duration(ms)*time.Millisecond, time.Microsecond)
				return nil
			}},
	}
}

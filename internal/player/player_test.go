package player

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
)

func TestParseSpec(t *testing.T) {
	tests := []struct {
		text    string
		kind    string
		arg     string
		options []Option
	}{
		{"random", "random", "", nil},
		{"random:seed=3", "random", "", []Option{{"seed", "3"}}},
		{"ab:depth=2,noise=5", "ab", "", []Option{{"depth", "2"}, {"noise", "5"}}},
		{"uci:/opt/fsf --flag,Threads=2,Hash=64", "uci", "/opt/fsf --flag", []Option{{"Threads", "2"}, {"Hash", "64"}}},
		{"uci:/opt/fsf --hash=64", "uci", "/opt/fsf --hash=64", nil},
		{"uci:env A=1 /bin/engine,Skill Level=3", "uci", "env A=1 /bin/engine", []Option{{"Skill Level", "3"}}},
		{`uci:/opt/a\,b`, "uci", "/opt/a,b", nil},
		{"ckpt:runs/x.ckpt,visits=800", "ckpt", "runs/x.ckpt", []Option{{"visits", "800"}}},
	}
	for _, tt := range tests {
		s, err := ParseSpec(tt.text)
		if err != nil {
			t.Errorf("%s: %v", tt.text, err)
			continue
		}
		if s.Text != tt.text || s.Kind != tt.kind || s.Arg != tt.arg || !reflect.DeepEqual(s.Options, tt.options) {
			t.Errorf("%s: got %+v", tt.text, s)
		}
	}
	for _, bad := range []string{"", ":x", "a b", "ab:depth=2,oops", "ab:depth=1,depth=2", `uci:x\`} {
		if _, err := ParseSpec(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestSpecValues(t *testing.T) {
	s, err := ParseSpec("ab:depth=3,q=off,noise=x,Temp=0.5")
	if err != nil {
		t.Fatal(err)
	}
	if d, err := s.Int("DEPTH", 1); err != nil || d != 3 {
		t.Errorf("depth %d, %v", d, err)
	}
	if d, _ := s.Int("missing", 7); d != 7 {
		t.Errorf("default %d", d)
	}
	if q, err := s.Bool("q", true); err != nil || q {
		t.Errorf("q %v, %v", q, err)
	}
	if _, err := s.Int("noise", 0); err == nil {
		t.Error("noise=x read as a number")
	}
	if f, err := s.Float("temp", 1); err != nil || f != 0.5 {
		t.Errorf("temp %v, %v", f, err)
	}
	if err := s.CheckOptions("depth", "q", "noise"); err == nil || !strings.Contains(err.Error(), "Temp") {
		t.Errorf("CheckOptions: %v", err)
	}
	for _, tc := range []struct {
		min, want int
		ok        bool
	}{{1, 3, true}, {3, 3, true}, {4, 0, false}} {
		if d, err := s.IntAtLeast("depth", 1, tc.min); d != tc.want || (err == nil) != tc.ok {
			t.Errorf("depth at least %d: %d, %v", tc.min, d, err)
		}
	}
	if d, err := s.IntAtLeast("missing", 0, 1); err != nil || d != 0 {
		t.Errorf("absent at least 1: %d, %v (want the default)", d, err)
	}
	if _, err := s.IntAtLeast("noise", 0, 1); err == nil {
		t.Error("noise=x read as a number")
	}
}

type stub struct{ name string }

func (s stub) Name() string                { return s.name }
func (stub) NewGame(context.Context) error { return nil }
func (stub) Close() error                  { return nil }
func (stub) Move(context.Context, *env.Position, clock.Limits) (env.Move, error) {
	return env.NoMove, nil
}

func TestRegistry(t *testing.T) {
	r := NewRegistry()
	f := func(_ context.Context, s Spec, _ Setup) (Player, error) { return stub{s.Text}, nil }
	if err := r.Register("ckpt", "ckpt:PATH[,visits=N]", f); err != nil {
		t.Fatal(err)
	}
	if err := r.Register("ckpt", "again", f); err == nil {
		t.Error("duplicate kind accepted")
	}
	s, err := r.Check("ckpt:a.ckpt,visits=10")
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.New(context.Background(), s, Setup{})
	if err != nil || p.Name() != "ckpt:a.ckpt,visits=10" {
		t.Errorf("New: %v, %v", p, err)
	}
	if _, err := r.Check("nope:x"); err == nil || !strings.Contains(err.Error(), "unknown kind") || !strings.Contains(err.Error(), "ckpt") {
		t.Errorf("unknown kind: %v", err)
	}
}

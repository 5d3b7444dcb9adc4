package player

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/alicezero/alicezero/env"
)

// Setup is what a Factory learns about the match besides the spec.
type Setup struct {
	// Variant is the rule set of the games.
	Variant env.Variant
	// Log receives diagnostics such as an engine's stderr; nil discards.
	Log io.Writer
	// StartTimeout bounds a player's start-up handshake (e.g. a UCI
	// engine's uciok); zero means the factory's default.
	StartTimeout time.Duration
	// Cores is how many cores one player may use for its own computation
	// (a network's evaluation), so that concurrent games share the
	// machine; zero means all of them.
	Cores int
}

// Factory makes a Player from a spec. It checks the spec (unknown options
// are errors) and does whatever start-up can fail, so that a bad player is
// reported before any game starts. ctx bounds the start-up.
type Factory func(ctx context.Context, spec Spec, setup Setup) (Player, error)

type kindEntry struct {
	usage   string
	factory Factory
}

// Registry maps spec kinds to factories. It is a plain value, not global
// state: each command builds the registry it needs (see arena.NewRegistry
// for the built-in kinds) and may register more.
type Registry struct {
	kinds map[string]kindEntry
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{kinds: map[string]kindEntry{}}
}

// Register adds a kind. usage is a one-line synopsis for help texts, e.g.
// "ab:depth=N[,noise=CP]". Registering a kind twice is an error.
func (r *Registry) Register(kind, usage string, f Factory) error {
	if !isIdent(kind) {
		return fmt.Errorf("player kind %q: must be letters, digits or '_'", kind)
	}
	if f == nil {
		return fmt.Errorf("player kind %q: nil factory", kind)
	}
	if _, dup := r.kinds[kind]; dup {
		return fmt.Errorf("player kind %q registered twice", kind)
	}
	r.kinds[kind] = kindEntry{usage: usage, factory: f}
	return nil
}

// Has reports whether kind is registered.
func (r *Registry) Has(kind string) bool {
	_, ok := r.kinds[kind]
	return ok
}

// Kinds returns the registered kinds, sorted.
func (r *Registry) Kinds() []string {
	ks := make([]string, 0, len(r.kinds))
	for k := range r.kinds {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// Usage returns one line per kind: its synopsis.
func (r *Registry) Usage() string {
	var b strings.Builder
	for _, k := range r.Kinds() {
		fmt.Fprintf(&b, "  %s\n", r.kinds[k].usage)
	}
	return b.String()
}

// Check parses text and verifies that its kind is registered.
func (r *Registry) Check(text string) (Spec, error) {
	s, err := ParseSpec(text)
	if err != nil {
		return Spec{}, err
	}
	if !r.Has(s.Kind) {
		return Spec{}, fmt.Errorf("player spec %q: unknown kind %q (known: %s)", text, s.Kind, strings.Join(r.Kinds(), ", "))
	}
	return s, nil
}

// New makes a player from a parsed spec.
func (r *Registry) New(ctx context.Context, spec Spec, setup Setup) (Player, error) {
	e, ok := r.kinds[spec.Kind]
	if !ok {
		return nil, fmt.Errorf("player spec %q: unknown kind %q (known: %s)", spec.Text, spec.Kind, strings.Join(r.Kinds(), ", "))
	}
	p, err := e.factory(ctx, spec, setup)
	if err != nil {
		return nil, err
	}
	return p, nil
}

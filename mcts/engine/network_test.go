package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/internal/player"
	"github.com/alicezero/alicezero/internal/runs"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/model"
)

// saveTiny writes an untrained tiny network for variant as the iteration
// 3 checkpoint of a run folder and returns the folder.
// tinyWeights returns an untrained tiny network of variant v's encoding.
func tinyWeights(t *testing.T, v env.Variant) *model.Weights {
	t.Helper()
	cfg, err := model.Preset("tiny")
	if err != nil {
		t.Fatal(err)
	}
	w, err := model.NewWeights(cfg.ForVariant(v), 1)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func saveTiny(t *testing.T, variant string) string {
	t.Helper()
	v, err := env.VariantByName(variant)
	if err != nil {
		t.Fatal(err)
	}
	w := tinyWeights(t, v)
	run := filepath.Join(t.TempDir(), "run")
	if err := os.MkdirAll(filepath.Join(run, runs.CheckpointDir), 0o755); err != nil {
		t.Fatal(err)
	}
	c := &model.Checkpoint{Weights: w, Preset: "tiny", Step: 7, Meta: map[string]string{"variant": variant}}
	if err := model.SaveCheckpoint(runs.CheckpointPath(run, 3), c); err != nil {
		t.Fatal(err)
	}
	return run
}

func TestLoadNetwork(t *testing.T) {
	run := saveTiny(t, "alice")
	mini := saveTiny(t, "alice-mini")
	garbage := filepath.Join(t.TempDir(), "garbage.azck")
	os.WriteFile(garbage, []byte("this is not a network at all"), 0o644)
	for _, tt := range []struct {
		weights string
		v       env.Variant
		want    string // in the description, or in the error when bad
		bad     bool
	}{
		{"", env.Alice, "built-in network", false},
		{"<empty>", env.Alice, "built-in network", false},
		{BuiltinWeights, env.Alice, "built-in network", false},
		{NoWeights, env.Alice, "plain search", false},
		{run, env.Alice, "iter-000003.azck (tiny, step 7)", false},
		{runs.CheckpointPath(run, 3), env.Alice, "iter-000003.azck", false},
		{run, env.AliceEP, "trained for alice, not alice-ep", true},
		// A network reads the planes of the variant it was trained for
		// (alice-mini's boards of 4 files in the 8×8 frame): another
		// variant's weights are refused both ways.
		{mini, env.AliceMini, "iter-000003.azck (tiny, step 7)", false},
		{mini, env.Alice, "trained for alice-mini, not alice", true},
		{run, env.AliceMini, "trained for alice, not alice-mini", true},
		{mini, env.AliceBlackB, "trained for alice-mini, not alice-black-b", true},
		{filepath.Join(run, "nosuch"), env.Alice, "does not exist", true},
		{garbage, env.Alice, "not an AliceZero checkpoint", true},
	} {
		n, err := LoadNetwork(tt.weights, tt.v)
		// Only a network of another variant is ErrOtherVariant.
		if other := strings.Contains(tt.want, "trained for"); errors.Is(err, ErrOtherVariant) != other {
			t.Errorf("LoadNetwork(%q, %s): error %v; ErrOtherVariant %v, want %v", tt.weights, tt.v.Name, err, !other, other)
		}
		switch {
		case tt.bad && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("LoadNetwork(%q, %s): error %v, want one saying %q", tt.weights, tt.v.Name, err, tt.want)
		case !tt.bad && (err != nil || !strings.Contains(n.Description, tt.want)):
			t.Errorf("LoadNetwork(%q, %s) = %+v, %v; want %q", tt.weights, tt.v.Name, n, err, tt.want)
		}
	}
}

// No weights named and "builtin" load each variant's built-in network,
// named after the variant.
func TestLoadBuiltinInEveryVariant(t *testing.T) {
	for _, v := range env.Variants() {
		for _, weights := range []string{"", BuiltinWeights} {
			n, err := LoadNetwork(weights, v)
			if err != nil || n.Weights == nil || n.Variant != v.Name || !strings.HasPrefix(n.Description, "the built-in network (") {
				t.Errorf("LoadNetwork(%q, %s) = %+v, %v; want its built-in network", weights, v.Name, n, err)
			} else if err := n.Weights.Config().Fits(v); err != nil {
				t.Errorf("LoadNetwork(%q, %s): %v", weights, v.Name, err)
			}
		}
	}
}

// A command that names a network it cannot load fails at start, with the
// reason; a GUI's later change of weights falls back to the plain search.
func TestNewFailsOnBadWeights(t *testing.T) {
	garbage := filepath.Join(t.TempDir(), "garbage.azck")
	os.WriteFile(garbage, []byte("AZNNCKPT\xff\xff\xff\xffgarbage"), 0o644)
	for _, w := range []string{filepath.Join(t.TempDir(), "missing"), garbage} {
		e, err := New(Options{Weights: w})
		if err == nil {
			e.Close()
			t.Errorf("New with weights %s succeeded", w)
		} else if !strings.Contains(err.Error(), w) {
			t.Errorf("New with weights %s: %v (does not name the file)", w, err)
		}
	}
}

// The arena's ckpt:PATH player is the engine: with the same network,
// visits and seed it plays the same moves as an engine made directly.
func TestCheckpointPlayerIsTheEngine(t *testing.T) {
	run := saveTiny(t, "alice")
	reg := player.NewRegistry()
	if err := Register(reg); err != nil {
		t.Fatal(err)
	}
	spec, err := reg.Check("ckpt:" + run + ",visits=40")
	if err != nil {
		t.Fatal(err)
	}
	p, err := reg.New(context.Background(), spec, player.Setup{Variant: env.Alice, Cores: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	e := newEngine(t, Options{Weights: run, Visits: 40, EvalWorkers: 1})

	pos := env.NewPosition(env.Alice)
	for ply := range 6 {
		p.(player.Seeder).Seed(uint64(ply))
		m, err := p.Move(context.Background(), pos.Clone(), clock.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		e.Reseed(uint64(ply))
		res, err := e.Go(context.Background(), env.GameOf(pos), clock.Limits{}, mcts.Progress{})
		if err != nil {
			t.Fatal(err)
		}
		if m != res.BestMove {
			t.Fatalf("ply %d: the ckpt player plays %v, the engine %v", ply, m, res.BestMove)
		}
		pos.MakeMove(m)
	}

	for _, bad := range []string{"ckpt:", "ckpt:" + run + ",visits=0", "ckpt:" + run + ",depth=3", "ckpt:" + filepath.Join(run, "nosuch")} {
		spec, err := reg.Check(bad)
		if err == nil {
			_, err = reg.New(context.Background(), spec, player.Setup{Variant: env.Alice})
		}
		if err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// The arena's net player is the default engine (the alpha-beta), and
// net:search=mcts the built-in network through the tree.
func TestBuiltinPlayerIsTheEngine(t *testing.T) {
	reg := player.NewRegistry()
	if err := Register(reg); err != nil {
		t.Fatal(err)
	}
	spec, err := reg.Check("net:visits=24")
	if err != nil {
		t.Fatal(err)
	}
	p, err := reg.New(context.Background(), spec, player.Setup{Variant: env.Alice, Cores: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	e := newEngine(t, Options{Visits: 24, EvalWorkers: 1})
	pos := env.NewPosition(env.Alice)
	p.(player.Seeder).Seed(7)
	m, err := p.Move(context.Background(), pos.Clone(), clock.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	e.Reseed(7)
	res, err := e.Go(context.Background(), env.GameOf(pos), clock.Limits{}, mcts.Progress{})
	if err != nil {
		t.Fatal(err)
	}
	if m != res.BestMove {
		t.Fatalf("the net player plays %v, the default engine %v", m, res.BestMove)
	}
	for spec, want := range map[string]string{"net": alphaBetaSearch, "net:search=mcts": "built-in network", "ckpt:builtin": "built-in network"} {
		s, err := reg.Check(spec)
		if err != nil {
			t.Fatal(err)
		}
		p, err := reg.New(context.Background(), s, player.Setup{Variant: env.Alice, Cores: 1})
		if err != nil {
			t.Fatal(err)
		}
		if e := p.(*Player).e; !strings.Contains(e.Network(), want) || e.runsAlphaBeta() != (want == alphaBetaSearch) {
			t.Errorf("%s plays %q (the alpha-beta: %v), want %q", spec, e.Network(), e.runsAlphaBeta(), want)
		}
		p.Close()
	}
	for _, bad := range []string{"net:somefile", "net:visits=0", "net:depth=2"} {
		spec, err := reg.Check(bad)
		if err == nil {
			_, err = reg.New(context.Background(), spec, player.Setup{Variant: env.Alice})
		}
		if err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// A panic in the search's report callback (a protocol's bug) comes back
// as an error with a legal move, never as a crash.
func TestGoTurnsPanicsIntoErrors(t *testing.T) {
	e := newEngine(t, Options{Visits: 30})
	pos := at(t, e, "")
	res, err := e.Go(context.Background(), env.GameOf(pos), clock.Limits{}, mcts.Progress{Report: func(mcts.Info) { panic("boom") }})
	if err == nil || !strings.Contains(err.Error(), "internal error: boom") {
		t.Fatalf("error %v", err)
	}
	checkLegal(t, pos, res.BestMove)
	// The engine stays usable.
	res, err = e.Go(context.Background(), env.GameOf(pos), clock.Limits{Nodes: 20}, mcts.Progress{})
	if err != nil {
		t.Fatal(err)
	}
	checkLegal(t, pos, res.BestMove)
}

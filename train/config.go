package train

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/alicezero/alicezero/configs"
	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/model/training"
	"go.yaml.in/yaml/v3"
)

// Config is a run configuration. Its YAML form is documented field by
// field in the files of configs/.
type Config struct {
	Name       string           `yaml:"name"`
	Variant    string           `yaml:"variant"`
	Seed       uint64           `yaml:"seed"`
	Iterations int              `yaml:"iterations"`
	Model      ModelConfig      `yaml:"model"`
	Search     SearchConfig     `yaml:"search"`
	SelfPlay   SelfPlayConfig   `yaml:"selfplay"`
	Train      TrainConfig      `yaml:"train"`
	Evaluate   EvaluateConfig   `yaml:"evaluate"`
	Checkpoint CheckpointConfig `yaml:"checkpoints"`
}

// ModelConfig chooses the network.
type ModelConfig struct {
	Preset string `yaml:"preset"`
}

// SearchConfig sets the tree search used in self-play.
type SearchConfig struct {
	Simulations      int     `yaml:"simulations"`
	Gumbel           bool    `yaml:"gumbel"`
	GumbelK          int     `yaml:"gumbel_k"`
	CPuct            float64 `yaml:"c_puct"`
	FPUReduction     float64 `yaml:"fpu_reduction"`
	DirichletAlpha   float64 `yaml:"dirichlet_alpha"`
	DirichletEpsilon float64 `yaml:"dirichlet_epsilon"`
	PolicyTemp       float64 `yaml:"policy_temperature"`
	DrawPenalty      float64 `yaml:"draw_penalty"`
	CacheSize        int     `yaml:"cache_size"`
	PlayoutCapProb   float64 `yaml:"playout_cap_probability"`
	PlayoutCapFactor int     `yaml:"playout_cap_factor"`
}

// SelfPlayConfig sets how games are generated.
type SelfPlayConfig struct {
	GamesPerIteration int     `yaml:"games_per_iteration"`
	ParallelGames     int     `yaml:"parallel_games"`
	BatchSize         int     `yaml:"batch_size"`
	Temperature       float64 `yaml:"temperature"`
	TemperaturePlies  int     `yaml:"temperature_plies"`
	PlyCap            int     `yaml:"ply_cap"`
	CapMaterialMargin int     `yaml:"cap_material_margin"`
	CapDrawValue      bool    `yaml:"cap_draw_value_target"`
	ResignFalseRate   float64 `yaml:"resign_false_rate"`
	NoResignFraction  float64 `yaml:"no_resign_fraction"`
	ResignFrom        int     `yaml:"resign_from_iteration"`
	PGNGames          int     `yaml:"pgn_games"`
}

// TrainConfig sets the optimiser and the replay window.
type TrainConfig struct {
	BatchSize      int     `yaml:"batch_size"`
	SampleReuse    float64 `yaml:"sample_reuse"`
	MaxUses        int     `yaml:"max_uses"`
	WindowMin      int     `yaml:"window_min"`
	WindowMax      int     `yaml:"window_max"`
	WindowFraction float64 `yaml:"window_fraction"`
	MinBuffer      int     `yaml:"min_buffer"`
	Optimizer      string  `yaml:"optimizer"`
	Momentum       float64 `yaml:"momentum"`
	L2             float64 `yaml:"l2"`
	ValueWeight    float64 `yaml:"value_weight"`
	ValueQWeight   float64 `yaml:"value_q_weight"`
	ClipNorm       float64 `yaml:"clip_norm"`
	LearningRate   float64 `yaml:"learning_rate"`
	LRSchedule     string  `yaml:"lr_schedule"`
	LRMilestones   []int64 `yaml:"lr_milestones"`
	LRGamma        float64 `yaml:"lr_gamma"`
	LRWarmupSteps  int64   `yaml:"lr_warmup_steps"`
}

// EvaluateConfig sets the strength tracking during the run.
type EvaluateConfig struct {
	Every          int `yaml:"every"`
	Games          int `yaml:"games"`
	Simulations    int `yaml:"simulations"`
	AlphaBetaDepth int `yaml:"alphabeta_depth"`
	PreviousGap    int `yaml:"previous_gap"`
	PlyCap         int `yaml:"ply_cap"`
}

// CheckpointConfig sets which checkpoints are kept.
type CheckpointConfig struct {
	KeepLast  int `yaml:"keep_last"`
	KeepEvery int `yaml:"keep_every"`
}

// ConfigError names the key of a configuration that is wrong.
type ConfigError struct {
	Source string // file name or "built-in NAME"
	Key    string // dotted path, e.g. "search.simulations"
	Reason string
}

func (e *ConfigError) Error() string {
	if e.Key == "" {
		return fmt.Sprintf("config %s: %s", e.Source, e.Reason)
	}
	return fmt.Sprintf("config %s: key %q: %s", e.Source, e.Key, e.Reason)
}

// ParseConfig reads a configuration from YAML. Unknown keys, values of the
// wrong type and values out of range are errors that name the key. A key
// the text lacks takes its value from the embedded default configuration
// (configs.Default), so that configurations written before a key existed
// stay valid; Defaulted lists them. source names the text in errors.
func ParseConfig(data []byte, source string) (*Config, error) {
	c, _, err := parseConfig(data, source)
	return c, err
}

// ParseConfigDefaulted is ParseConfig that also returns the dotted keys
// the text lacked and that took the default's value.
func ParseConfigDefaulted(data []byte, source string) (*Config, []string, error) {
	return parseConfig(data, source)
}

func parseConfig(data []byte, source string) (*Config, []string, error) {
	def, err := defaultConfig()
	if err != nil {
		return nil, nil, err
	}
	c := *def
	c.Train.LRMilestones = append([]int64(nil), def.Train.LRMilestones...)
	missing, err := decodeConfig(data, source, &c)
	if err != nil {
		return nil, nil, err
	}
	// The default's number of sampled games to save is a cap: inherited,
	// it shrinks to fit fewer games an iteration.
	if slices.Contains(missing, "selfplay.pgn_games") {
		c.SelfPlay.PGNGames = min(c.SelfPlay.PGNGames, c.SelfPlay.GamesPerIteration)
	}
	if err := c.Validate(); err != nil {
		var ce *ConfigError
		if errors.As(err, &ce) {
			ce.Source = source
			if slices.Contains(missing, ce.Key) {
				ce.Reason += fmt.Sprintf(" (the text does not set this key: its value is inherited from the default configuration %s; set it)", configs.Default)
			}
		}
		return nil, nil, err
	}
	return &c, missing, nil
}

// defaultConfig parses the embedded default configuration, which must
// name every key.
func defaultConfig() (*Config, error) {
	data, err := configs.Named(configs.Default)
	if err != nil {
		return nil, err
	}
	var c Config
	source := "built-in " + configs.Default
	missing, err := decodeConfig(data, source, &c)
	if err != nil {
		return nil, err
	}
	if len(missing) > 0 {
		return nil, &ConfigError{Source: source, Key: missing[0], Reason: "missing (the default configuration must name every key)"}
	}
	return &c, nil
}

// decodeConfig decodes YAML over c key by key, so that every error names
// its key, and returns the keys the text lacks.
func decodeConfig(data []byte, source string, c *Config) ([]string, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, &ConfigError{Source: source, Reason: err.Error()}
	}
	if len(root.Content) == 0 {
		return nil, &ConfigError{Source: source, Reason: "the file is empty: it holds no configuration"}
	}
	doc := root.Content[0]
	if doc.Kind != yaml.MappingNode {
		return nil, &ConfigError{Source: source, Reason: fmt.Sprintf("line %d: want a mapping of keys to values at the top level", doc.Line)}
	}
	var missing []string
	if err := decodeStruct(doc, reflect.ValueOf(c).Elem(), "", source, &missing); err != nil {
		return nil, err
	}
	return missing, nil
}

// decodeStruct decodes mapping n into struct v; prefix is v's dotted path.
func decodeStruct(n *yaml.Node, v reflect.Value, prefix, source string, missing *[]string) error {
	fields := map[string]int{}
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		if key, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ","); key != "" && key != "-" {
			fields[key] = i
		}
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		key := prefix + k.Value
		fi, ok := fields[k.Value]
		if !ok {
			reason := fmt.Sprintf("unknown key (line %d)", k.Line)
			if hint, retired := retiredKeys[key]; retired {
				reason += ": " + hint
			}
			return &ConfigError{Source: source, Key: key, Reason: reason}
		}
		if seen[k.Value] {
			return &ConfigError{Source: source, Key: key, Reason: fmt.Sprintf("given twice (line %d)", k.Line)}
		}
		seen[k.Value] = true
		f := v.Field(fi)
		if f.Kind() == reflect.Struct {
			if val.Kind != yaml.MappingNode {
				return &ConfigError{Source: source, Key: key, Reason: fmt.Sprintf("line %d: want a section of keys", val.Line)}
			}
			if err := decodeStruct(val, f, key+".", source, missing); err != nil {
				return err
			}
			continue
		}
		// The decoder truncates 2.5 into an int field: refuse it.
		switch f.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			if val.Kind == yaml.ScalarNode && val.ShortTag() == "!!float" {
				return &ConfigError{Source: source, Key: key, Reason: fmt.Sprintf("line %d: %s is not a whole number", val.Line, val.Value)}
			}
		}
		if err := val.Decode(f.Addr().Interface()); err != nil {
			return &ConfigError{Source: source, Key: key, Reason: typeErrorText(err)}
		}
	}
	for i := 0; i < t.NumField(); i++ {
		key, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		if key == "" || key == "-" || seen[key] {
			continue
		}
		if t.Field(i).Type.Kind() == reflect.Struct {
			// A missing section: every key in it is missing.
			if err := decodeStruct(&yaml.Node{Kind: yaml.MappingNode}, v.Field(i), prefix+key+".", source, missing); err != nil {
				return err
			}
			continue
		}
		*missing = append(*missing, prefix+key)
	}
	return nil
}

// typeErrorText shortens the decoder's message for one value.
func typeErrorText(err error) string {
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		return strings.Join(te.Errors, "; ")
	}
	return err.Error()
}

// retiredKeys are keys that earlier versions knew, with what replaced them.
var retiredKeys = map[string]string{
	"selfplay.resign_threshold": "resignation is now calibrated automatically; set selfplay.resign_false_rate instead (0 turns resignation off)",
}

// BuiltinConfig returns the named configuration from configs/.
func BuiltinConfig(name string) (*Config, error) {
	data, err := configs.Named(name)
	if err != nil {
		return nil, err
	}
	return ParseConfig(data, "built-in "+name)
}

// Validate checks every field's range and names the first bad key.
func (c *Config) Validate() error {
	bad := func(key, format string, args ...any) error {
		return &ConfigError{Key: key, Reason: fmt.Sprintf(format, args...)}
	}
	intIn := func(key string, v, lo, hi int) error {
		if v < lo || v > hi {
			return bad(key, "%d is out of range [%d, %d]", v, lo, hi)
		}
		return nil
	}
	floatIn := func(key string, v, lo, hi float64) error {
		if math.IsNaN(v) || v < lo || v > hi {
			return bad(key, "%v is out of range [%v, %v]", v, lo, hi)
		}
		return nil
	}
	if _, err := env.VariantByName(c.Variant); err != nil {
		return bad("variant", "%v", err)
	}
	if _, err := model.Preset(c.Model.Preset); err != nil {
		return bad("model.preset", "%v", err)
	}
	s, sp, t, e, k := &c.Search, &c.SelfPlay, &c.Train, &c.Evaluate, &c.Checkpoint
	checks := []error{
		intIn("iterations", c.Iterations, 1, 1_000_000),
		intIn("search.simulations", s.Simulations, 1, 1_000_000),
		intIn("search.gumbel_k", s.GumbelK, 1, env.MaxMoves),
		floatIn("search.c_puct", s.CPuct, 0.01, 100),
		floatIn("search.fpu_reduction", s.FPUReduction, 0, 2),
		floatIn("search.dirichlet_alpha", s.DirichletAlpha, 0.001, 10),
		floatIn("search.dirichlet_epsilon", s.DirichletEpsilon, 0, 1),
		floatIn("search.policy_temperature", s.PolicyTemp, 0.05, 10),
		floatIn("search.draw_penalty", s.DrawPenalty, 0, 0.99),
		intIn("search.cache_size", s.CacheSize, 0, 1<<26),
		floatIn("search.playout_cap_probability", s.PlayoutCapProb, 0, 1),
		intIn("search.playout_cap_factor", s.PlayoutCapFactor, 1, 1_000_000),
		intIn("selfplay.games_per_iteration", sp.GamesPerIteration, 1, 1_000_000),
		intIn("selfplay.parallel_games", sp.ParallelGames, 1, 4096),
		intIn("selfplay.batch_size", sp.BatchSize, 1, 4096),
		floatIn("selfplay.temperature", sp.Temperature, 0, 10),
		intIn("selfplay.temperature_plies", sp.TemperaturePlies, 0, 10_000),
		intIn("selfplay.ply_cap", sp.PlyCap, 10, 10_000),
		intIn("selfplay.cap_material_margin", sp.CapMaterialMargin, 0, 100),
		floatIn("selfplay.resign_false_rate", sp.ResignFalseRate, 0, 0.5),
		floatIn("selfplay.no_resign_fraction", sp.NoResignFraction, 0, 1),
		intIn("selfplay.resign_from_iteration", sp.ResignFrom, 1, 1_000_000),
		intIn("selfplay.pgn_games", sp.PGNGames, 0, sp.GamesPerIteration),
		intIn("train.batch_size", t.BatchSize, 1, 65536),
		floatIn("train.sample_reuse", t.SampleReuse, 0.01, 1000),
		intIn("train.max_uses", t.MaxUses, 0, 65535),
		intIn("train.window_min", t.WindowMin, 1, 1<<30),
		intIn("train.window_max", t.WindowMax, t.WindowMin, 1<<30),
		floatIn("train.window_fraction", t.WindowFraction, 0, 1),
		intIn("train.min_buffer", t.MinBuffer, t.BatchSize, 1<<30),
		floatIn("train.momentum", t.Momentum, 0, 0.9999),
		floatIn("train.l2", t.L2, 0, 1),
		floatIn("train.value_weight", t.ValueWeight, 0, 100),
		floatIn("train.value_q_weight", t.ValueQWeight, 0, 1),
		floatIn("train.clip_norm", t.ClipNorm, 0, 1e6),
		floatIn("train.learning_rate", t.LearningRate, 1e-8, 10),
		floatIn("train.lr_gamma", t.LRGamma, 0, 1),
		intIn("evaluate.every", e.Every, 0, 1_000_000),
		intIn("evaluate.games", e.Games, 0, 100_000),
		intIn("evaluate.simulations", e.Simulations, 1, 1_000_000),
		intIn("evaluate.alphabeta_depth", e.AlphaBetaDepth, 1, 8),
		intIn("evaluate.previous_gap", e.PreviousGap, 1, 1_000_000),
		intIn("evaluate.ply_cap", e.PlyCap, 10, 10_000),
		intIn("checkpoints.keep_last", k.KeepLast, 1, 1_000_000),
		intIn("checkpoints.keep_every", k.KeepEvery, 0, 1_000_000),
	}
	for _, err := range checks {
		if err != nil {
			return err
		}
	}
	if e.Games%2 != 0 {
		return bad("evaluate.games", "%d must be even (each opening is played with both colours)", e.Games)
	}
	switch t.Optimizer {
	case model.OptimizerSGD, model.OptimizerAdamW:
	default:
		return bad("train.optimizer", "%q: want %q or %q", t.Optimizer, model.OptimizerSGD, model.OptimizerAdamW)
	}
	if _, err := c.ModelTrainConfig(); err != nil {
		return bad("train.lr_schedule", "%v", err)
	}
	return nil
}

// ModelTrainConfig maps the train section onto the model's optimiser
// settings.
func (c *Config) ModelTrainConfig() (training.TrainConfig, error) {
	t := &c.Train
	tc := training.TrainConfig{
		BatchSize:   t.BatchSize,
		Optimizer:   t.Optimizer,
		Momentum:    t.Momentum,
		Nesterov:    t.Optimizer == model.OptimizerSGD,
		Beta1:       0.9,
		Beta2:       0.999,
		Epsilon:     1e-8,
		L2:          t.L2,
		ValueWeight: t.ValueWeight,
		ClipNorm:    t.ClipNorm,
		LR: training.LRSchedule{
			Kind:        t.LRSchedule,
			Base:        t.LearningRate,
			WarmupSteps: t.LRWarmupSteps,
			Milestones:  t.LRMilestones,
			Gamma:       t.LRGamma,
		},
	}
	return tc, tc.LR.Validate()
}

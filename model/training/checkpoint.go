package training

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/alicezero/alicezero/model"
)

// Checkpoint captures the trainer's full state (deep copies of weights and
// optimiser state) together with the caller's metadata and opaque extra
// state; its TrainConfig is the trainer's, as JSON.
func (t *Trainer) Checkpoint(meta map[string]string, extra []byte) *model.Checkpoint {
	t.mu.Lock()
	defer t.mu.Unlock()
	tc, _ := json.Marshal(t.tc) // cannot fail: a valid TrainConfig holds finite numbers only
	return &model.Checkpoint{
		Preset:      t.w.Config().PresetName(),
		Step:        t.opt.step,
		TrainConfig: tc,
		Meta:        maps.Clone(meta),
		Extra:       slices.Clone(extra),
		Weights:     t.w.Clone(),
		Optimizer:   t.opt.state(t.w),
	}
}

// Restore loads a checkpoint's weights and optimiser state into the
// trainer, so that training continues exactly where the checkpoint left
// off. The checkpoint must hold optimiser state for this trainer's
// optimiser and architecture.
func (t *Trainer) Restore(c *model.Checkpoint) error {
	if c == nil || c.Weights == nil {
		return errors.New("model: restore: checkpoint has no weights")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return fmt.Errorf("trainer: %w", model.ErrClosed)
	}
	if err := model.CheckArch(c.Weights.Config(), t.w.Config()); err != nil {
		return fmt.Errorf("model: restore: %w", err)
	}
	if c.Optimizer == nil {
		return errors.New("model: restore: checkpoint holds no optimizer state (weights only); use LoadWeights to start a new run from it")
	}
	// Validate the optimiser state into a scratch optimiser first, so a
	// bad state leaves the trainer untouched.
	o, err := newOptimizer(t.tc.Optimizer, t.w)
	if err != nil {
		return err
	}
	if err := o.restore(c.Optimizer, t.w); err != nil {
		return fmt.Errorf("model: restore: %w", err)
	}
	if err := t.w.CopyFrom(c.Weights); err != nil {
		return err
	}
	t.opt = o
	return nil
}

// CheckpointTrainConfig returns the training configuration that c records
// (as Trainer.Checkpoint writes it), or nil if it records none.
func CheckpointTrainConfig(c *model.Checkpoint) (*TrainConfig, error) {
	if c == nil || len(c.TrainConfig) == 0 {
		return nil, nil
	}
	var tc TrainConfig
	if err := json.Unmarshal(c.TrainConfig, &tc); err != nil {
		return nil, fmt.Errorf("training: checkpoint's train config: %w", err)
	}
	return &tc, nil
}

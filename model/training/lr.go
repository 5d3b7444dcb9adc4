package training

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// LRSchedule gives the learning rate as a function of the number of
// optimiser steps already taken.
//
//	constant: Base
//	step:     Base · Gamma^(number of Milestones ≤ step)
//	cosine:   from Base down to Min along half a cosine over TotalSteps
//
// All kinds optionally ramp up linearly from Base/WarmupSteps to Base over
// the first WarmupSteps steps.
type LRSchedule struct {
	Kind        string  `json:"kind"` // "constant" (default), "step" or "cosine"
	Base        float64 `json:"base"`
	WarmupSteps int64   `json:"warmup_steps"`
	// Milestones (kind "step") are the steps at which the rate is
	// multiplied by Gamma, in increasing order.
	Milestones []int64 `json:"milestones"`
	Gamma      float64 `json:"gamma"`
	// TotalSteps (kind "cosine") is where the rate reaches Min and stays.
	TotalSteps int64   `json:"total_steps"`
	Min        float64 `json:"min"`
}

// Validate reports whether the schedule is usable.
func (s LRSchedule) Validate() error {
	var errs []error
	if !(s.Base > 0) || math.IsInf(s.Base, 0) {
		errs = append(errs, fmt.Errorf("base rate %v must be positive and finite", s.Base))
	}
	if s.WarmupSteps < 0 {
		errs = append(errs, fmt.Errorf("warmup_steps %d < 0", s.WarmupSteps))
	}
	switch s.Kind {
	case "", "constant":
	case "step":
		if !(s.Gamma > 0) || math.IsInf(s.Gamma, 0) {
			errs = append(errs, fmt.Errorf("step schedule: gamma %v must be positive", s.Gamma))
		}
		if !slices.IsSorted(s.Milestones) {
			errs = append(errs, fmt.Errorf("step schedule: milestones %v not increasing", s.Milestones))
		}
	case "cosine":
		if s.TotalSteps <= s.WarmupSteps {
			errs = append(errs, fmt.Errorf("cosine schedule: total_steps %d must exceed warmup_steps %d", s.TotalSteps, s.WarmupSteps))
		}
		if s.Min < 0 || s.Min > s.Base {
			errs = append(errs, fmt.Errorf("cosine schedule: min %v must be in [0, base]", s.Min))
		}
	default:
		errs = append(errs, fmt.Errorf("unknown kind %q (want constant, step or cosine)", s.Kind))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("model: invalid learning-rate schedule: %w", err)
	}
	return nil
}

// At returns the learning rate for the step taken after `step` steps.
func (s LRSchedule) At(step int64) float64 {
	if step < 0 {
		step = 0
	}
	lr := s.Base
	switch s.Kind {
	case "step":
		for _, m := range s.Milestones {
			if step >= m {
				lr *= s.Gamma
			}
		}
	case "cosine":
		span := float64(s.TotalSteps - s.WarmupSteps)
		t := math.Min(math.Max(float64(step-s.WarmupSteps), 0)/span, 1)
		lr = s.Min + (s.Base-s.Min)*(1+math.Cos(math.Pi*t))/2
	}
	if step < s.WarmupSteps {
		lr *= float64(step+1) / float64(s.WarmupSteps)
	}
	return lr
}

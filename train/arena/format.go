package arena

import (
	"fmt"
	"strings"
)

// Format is a tournament's pairing scheme.
type Format int

const (
	// Gauntlet pairs the first player with each of the others.
	Gauntlet Format = iota
	// RoundRobin pairs every player with every other.
	RoundRobin
)

func (f Format) String() string {
	if f == RoundRobin {
		return "roundrobin"
	}
	return "gauntlet"
}

// ParseFormat reads "gauntlet" or "roundrobin" (also "round-robin", "rr").
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "gauntlet":
		return Gauntlet, nil
	case "roundrobin", "round-robin", "rr":
		return RoundRobin, nil
	}
	return 0, fmt.Errorf("format %q: want gauntlet or roundrobin", s)
}

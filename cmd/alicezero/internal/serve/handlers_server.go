package serve

import (
	"net/http"

	"github.com/alicezero/alicezero/env"
)

// serverResponse describes the server to the page: what it offers (the
// variants, the weights, the time controls) and its bounds.
type serverResponse struct {
	Variants      []string       `json:"variants"`
	Weights       []weightsEntry `json:"weights"`
	Runs          bool           `json:"runs"`
	DefaultVisits int            `json:"default_visits"`
	MaxVisits     int            `json:"max_visits"`
	MaxMovetimeMS int64          `json:"max_movetime_ms"`
	Searchers     int            `json:"searchers"`
	Queue         int            `json:"queue"`
	// TimeControls are the time controls the page offers by name.
	TimeControls []string `json:"time_controls"`
}

// handleServer answers GET /api/info.
func (s *Server) handleServer(w http.ResponseWriter, r *http.Request, se *session) error {
	var vs []string
	for _, v := range env.Variants() {
		vs = append(vs, v.Name)
	}
	writeJSON(w, http.StatusOK, serverResponse{
		Variants:      vs,
		Weights:       s.weightsEntries(),
		Runs:          s.opts.RunsDir != "",
		DefaultVisits: s.opts.DefaultVisits,
		MaxVisits:     s.opts.MaxVisits,
		MaxMovetimeMS: s.opts.MaxTime.Milliseconds(),
		Searchers:     s.opts.Searchers,
		Queue:         s.opts.Queue,
		TimeControls:  timeControlPresets(),
	})
	return nil
}

package serve

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"

	"github.com/alicezero/alicezero/internal/runs"
)

func (s *Server) handleRuns(w http.ResponseWriter, r *http.Request, se *session) error {
	runs, err := s.runs.list()
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"runs": runs})
	return nil
}

// maxConfigBytes bounds the configuration file the server sends.
const maxConfigBytes = 256 << 10

// runResponse is a run's summary with its configuration.
type runResponse struct {
	runSummary
	Config string `json:"config"`
}

func (s *Server) handleRun(w http.ResponseWriter, r *http.Request, se *session) error {
	name := r.PathValue("run")
	dir, err := s.runs.runDir(name)
	if err != nil {
		return err
	}
	sum, _ := s.runs.summary(name)
	res := runResponse{runSummary: sum}
	if f, err := os.Open(filepath.Join(dir, runConfigFile)); err == nil {
		b, _ := io.ReadAll(io.LimitReader(f, maxConfigBytes))
		f.Close()
		res.Config = string(b)
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}

// metricsResponse is a run's metrics: a row per iteration.
type metricsResponse struct {
	Run     string           `json:"run"`
	Rows    []map[string]any `json:"rows"`
	Skipped int              `json:"skipped"`
}

// handleMetrics answers with the run's metrics; an ETag made of the
// file's size and time lets the page poll cheaply while the run goes on.
func (s *Server) handleMetrics(w http.ResponseWriter, r *http.Request, se *session) error {
	name := r.PathValue("run")
	dir, err := s.runs.runDir(name)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, runMetricsFile)
	etag := `"none"`
	if st, err := os.Stat(path); err == nil {
		etag = fmt.Sprintf(`"%x-%x"`, st.Size(), st.ModTime().UnixNano())
	}
	if r.Header.Get("If-None-Match") == etag {
		w.Header().Set("ETag", etag)
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	rows, skipped, err := metricsRows(path)
	if err != nil {
		return err
	}
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", "no-cache") // the browser revalidates with the ETag
	writeJSON(w, http.StatusOK, metricsResponse{Run: name, Rows: rows, Skipped: skipped})
	return nil
}

// maxListed bounds the files a run's listing returns.
const maxListed = 200

func (s *Server) handleRunGames(w http.ResponseWriter, r *http.Request, se *session) error {
	files, err := s.runs.iterFiles(r.PathValue("run"), runGamesDir, runGamesExt)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"games": files[:min(len(files), maxListed)], "total": len(files)})
	return nil
}

// maxGamesFileBytes bounds a games file the server reads.
const maxGamesFileBytes = 16 << 20

func (s *Server) handleRunGame(w http.ResponseWriter, r *http.Request, se *session) error {
	path, err := s.runs.iterFile(r.PathValue("run"), runGamesDir, runGamesExt, r.PathValue("file"))
	if err != nil {
		return err
	}
	index := 0
	if v := r.URL.Query().Get("game"); v != "" {
		if index, err = strconv.Atoi(v); err != nil {
			return badRequest("game: %q is not a number", v)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	b, err := io.ReadAll(io.LimitReader(f, maxGamesFileBytes))
	f.Close()
	if err != nil {
		return err
	}
	res, err := parsePGNText(string(b), "", index)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"pgn": string(b), "games": res.Games, "game": res.Game})
	return nil
}

// checkpointJSON is a checkpoint with its evaluation results (the "eval"
// object of its iteration's metrics line) and the weights id to play it.
type checkpointJSON struct {
	runFile
	Weights string            `json:"weights"`
	Eval    *runs.EvalMetrics `json:"eval,omitempty"`
}

func (s *Server) handleCheckpoints(w http.ResponseWriter, r *http.Request, se *session) error {
	name := r.PathValue("run")
	files, err := s.runs.iterFiles(name, runCkptDir, runCkptExt)
	if err != nil {
		return err
	}
	dir, err := s.runs.runDir(name)
	if err != nil {
		return err
	}
	evals := evalByIteration(filepath.Join(dir, runMetricsFile))
	out := make([]checkpointJSON, 0, min(len(files), maxListed))
	for _, f := range files[:min(len(files), maxListed)] {
		out = append(out, checkpointJSON{runFile: f, Weights: "run:" + name + "/" + f.File, Eval: evals[f.Iteration]})
	}
	writeJSON(w, http.StatusOK, map[string]any{"checkpoints": out, "total": len(files)})
	return nil
}

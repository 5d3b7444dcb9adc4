package serve

import (
	"errors"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
)

// Visitors see runs and checkpoints by name, never the server's file
// paths: what the engine and the file system say (an engine's description,
// a load error, a file error) passes through publicPaths first.

// pathRE matches a word with a path separator in it, up to a space, a
// quote, a bracket, a comma or a colon.
var pathRE = regexp.MustCompile(`[^\s"'()\[\],:]*[/\\][^\s"'()\[\],:]*`)

// publicPaths returns text with each file path in it replaced by the name
// a visitor knows it by: "RUN/iter-000012.azck" for a file of a run in the
// runs folder, "RUN" for the run's folder, else the file's base name.
// Words that are no paths (a FEN's ranks, "W/D/L") stay as they are: a
// path here is absolute, starts with ./ or ../, or names a checkpoint.
func (s *Server) publicPaths(text string) string {
	return pathRE.ReplaceAllStringFunc(text, func(w string) string {
		slash := filepath.ToSlash(w)
		if !strings.HasPrefix(slash, "/") && !strings.HasPrefix(slash, "./") && !strings.HasPrefix(slash, "../") &&
			!filepath.IsAbs(w) && !strings.HasSuffix(slash, runCkptExt) && !s.underRuns(w) {
			return w
		}
		return s.pathName(w)
	})
}

// underRuns reports whether path lies in the runs folder.
func (s *Server) underRuns(path string) bool {
	_, ok := s.runsRel(path)
	return ok
}

// runsRel returns path relative to the runs folder, when it lies there.
func (s *Server) runsRel(path string) (string, bool) {
	if s.opts.RunsDir == "" {
		return "", false
	}
	root, err1 := filepath.Abs(s.opts.RunsDir)
	abs, err2 := filepath.Abs(path)
	if err1 != nil || err2 != nil {
		return "", false
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// pathName is the name a visitor knows path by.
func (s *Server) pathName(path string) string {
	base := filepath.Base(filepath.Clean(path))
	if rel, ok := s.runsRel(path); ok {
		run, _, _ := strings.Cut(rel, "/")
		if run == rel {
			return run
		}
		return run + "/" + base
	}
	return base
}

// publicError is err for a visitor: an API error as it is (its text is
// written for visitors), anything else (a file system's error, naming
// paths) with its paths replaced by names, after the whole of it went to
// the server's log.
func (s *Server) publicError(r *http.Request, err error) error {
	var ae *apiError
	var mbe *http.MaxBytesError
	if errors.As(err, &ae) || errors.As(err, &mbe) {
		return err
	}
	s.log.Error("serve: request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	return errors.New(s.publicPaths(err.Error()))
}

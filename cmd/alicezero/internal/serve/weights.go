package serve

import (
	"path/filepath"
	"strings"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/mcts/engine"
)

// weightsChoice is an engine a search may use: its id in the API, the
// weights the Loader gets, and a label for the page.
type weightsChoice struct {
	ID    string
	Path  string
	Label string
}

// weightsEntry is a choice as /api/info lists it.
type weightsEntry struct {
	ID    string `json:"id"`
	Label string `json:"label"`
}

// weightsEntries lists the fixed choices: the default, the plain search
// beside a default that is a network, the built-in network beside any
// other default; each run's checkpoints are listed by the runs API.
func (s *Server) weightsEntries() []weightsEntry {
	def, _ := s.resolveWeights("default")
	out := []weightsEntry{{ID: def.ID, Label: s.publicPaths(def.Label)}}
	// "" is the Loader's own default, which plays with no network.
	if def.Path != PlainWeights && def.Path != "" {
		none, _ := s.resolveWeights("none")
		out = append(out, weightsEntry{ID: none.ID, Label: none.Label})
	}
	if def.Path != engine.BuiltinWeights {
		b, _ := s.resolveWeights(engine.BuiltinWeights)
		out = append(out, weightsEntry{ID: b.ID, Label: b.Label})
	}
	return out
}

// engineName is the name of the engine that answers for choice wc in
// variant v, for the page's header: its description, but where a network
// was chosen and the engine plays the plain search instead (the network
// is another variant's: Loader), that in a few words, where the
// description names the network at every step of the reason.
func (s *Server) engineName(wc weightsChoice, eng engine.Interface, v env.Variant) string {
	if o := eng.Options(); wc.Path != PlainWeights && o.Network != nil && o.Network.Weights == nil {
		if wc.ID == "default" {
			return "plain search (no network for " + v.Name + ")"
		}
		return "plain search (" + s.publicPaths(wc.Label) + " does not play " + v.Name + ")"
	}
	return s.publicPaths(eng.Network())
}

// The page's labels of the fixed choices "none" and "builtin" (and of
// "default" on a server given no label of its own).
const (
	plainLabel   = "the classical alpha-beta (no network)"
	builtinLabel = "the built-in network (tree search)"
)

// resolveWeights turns a weights id from a request into what the loader
// gets. Only the server's own default and the checkpoints of its runs
// folder can be named: a visitor never names a file.
//
//	"" or "default"              the server's --weights
//	"none"                       the plain search (the alpha-beta), no network
//	"builtin"                    the built-in network, through the tree
//	"run:NAME"                   the newest checkpoint of run NAME
//	"run:NAME/iter-NNNNNN.azck"  that checkpoint of run NAME
func (s *Server) resolveWeights(id string) (weightsChoice, error) {
	switch {
	case id == "" || id == "default":
		if s.opts.DefaultLabel != "" {
			return weightsChoice{ID: "default", Path: s.opts.DefaultWeights, Label: s.opts.DefaultLabel}, nil
		}
		if s.opts.DefaultWeights == "" || s.opts.DefaultWeights == PlainWeights {
			return weightsChoice{ID: "default", Path: PlainWeights, Label: plainLabel}, nil
		}
		return weightsChoice{ID: "default", Path: s.opts.DefaultWeights, Label: "network " + filepath.Base(s.opts.DefaultWeights)}, nil
	case id == "none":
		return weightsChoice{ID: "none", Path: PlainWeights, Label: plainLabel}, nil
	case id == engine.BuiltinWeights:
		return weightsChoice{ID: id, Path: engine.BuiltinWeights, Label: builtinLabel}, nil
	case strings.HasPrefix(id, "run:"):
		name, file, _ := strings.Cut(strings.TrimPrefix(id, "run:"), "/")
		if file == "" {
			ckpts, err := s.runs.iterFiles(name, runCkptDir, runCkptExt)
			if err != nil {
				return weightsChoice{}, err
			}
			if len(ckpts) == 0 {
				return weightsChoice{}, notFound("run %s has no checkpoints yet", name)
			}
			file = ckpts[0].File
		}
		path, err := s.runs.iterFile(name, runCkptDir, runCkptExt, file)
		if err != nil {
			return weightsChoice{}, err
		}
		return weightsChoice{ID: "run:" + name + "/" + file, Path: path, Label: name + " " + strings.TrimSuffix(file, runCkptExt)}, nil
	}
	return weightsChoice{}, badRequest("weights: want default, none, builtin or run:NAME[/iter-NNNNNN.azck], got %q", id)
}

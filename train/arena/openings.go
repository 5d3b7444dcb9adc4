package arena

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts/reference"
)

// Opening is where a game pair starts: a set-up position and moves played
// from it.
type Opening struct {
	// Name locates the opening: "builtin 7", "book.epd:12", "book.pgn#3".
	Name string
	// FEN is the set-up position: the variant's start (Variant.StartFEN)
	// for the standard start.
	FEN   string
	Moves []env.Move
}

// Position returns the opening's position (the set-up position with the
// moves played, so the game's PGN and UCI history include them).
func (o Opening) Position(v env.Variant) (*env.Position, error) {
	pos, err := env.ParseFEN(o.FEN, v)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", o.Name, err)
	}
	var ml env.MoveList
	for i, m := range o.Moves {
		pos.LegalMoves(&ml)
		if !ml.Contains(m) {
			return nil, fmt.Errorf("opening %s: move %d (%s) is illegal", o.Name, i+1, m.UCI())
		}
		pos.MakeMove(m)
	}
	return pos, nil
}

// Built-in openings: random lines of 2 to 6 plies from the start position
// that a depth-2 alpha-beta search scores within one pawn, deduplicated.
const (
	builtinSeed     = 0xA11CE
	builtinMinPlies = 2
	builtinMaxPlies = 6
	builtinMaxEval  = 100 // centipawns
	builtinDepth    = 2
)

// BuiltinOpenings returns the first n openings of the built-in set. The set
// is a fixed sequence (fixed seed), so BuiltinOpenings(k) is a prefix of
// BuiltinOpenings(n) for k < n and every run gets the same openings.
func BuiltinOpenings(n int, v env.Variant) ([]Opening, error) {
	cfg := reference.DefaultAlphaBetaConfig()
	cfg.Depth = builtinDepth
	cfg.Shuffle = false
	ab, err := reference.NewAlphaBeta("opening filter", cfg)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(builtinSeed, 0))
	seen := map[uint64]bool{}
	var out []Opening
	var ml env.MoveList
	for attempts := 0; len(out) < n; attempts++ {
		if attempts > 1000*(n+10) {
			return out, fmt.Errorf("built-in openings: found only %d balanced lines of %d", len(out), n)
		}
		pos := env.NewPosition(v)
		plies := builtinMinPlies + rng.IntN(builtinMaxPlies-builtinMinPlies+1)
		moves := make([]env.Move, 0, plies)
		for len(moves) < plies {
			pos.LegalMoves(&ml)
			if ml.N == 0 {
				break
			}
			m := ml.Moves[rng.IntN(ml.N)]
			pos.MakeMove(m)
			moves = append(moves, m)
		}
		if len(moves) < plies || pos.Status().IsOver() || seen[pos.Hash()] {
			continue
		}
		r, err := ab.Search(context.Background(), pos, clock.Limits{})
		if err != nil {
			return nil, err
		}
		if r.Score < -builtinMaxEval || r.Score > builtinMaxEval {
			continue
		}
		seen[pos.Hash()] = true
		out = append(out, Opening{Name: "builtin " + strconv.Itoa(len(out)+1), FEN: v.StartFEN(), Moves: moves})
	}
	return out, nil
}

// LoadOpenings reads an opening file: PGN (each game's moves are an
// opening) or EPD/FEN lines (one position a line, '#' starts a comment).
func LoadOpenings(path string, v env.Variant) ([]Opening, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("openings: %w", err)
	}
	return ReadOpenings(bytes.NewReader(data), path, v)
}

// ReadOpenings reads openings from r; name labels them and their errors.
// The format is PGN when the first line that is not blank or a comment
// starts with '[' or a move number, EPD/FEN otherwise.
func ReadOpenings(r io.Reader, name string, v env.Variant) ([]Opening, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("openings %s: %w", name, err)
	}
	var openings []Opening
	if looksLikePGN(data) {
		games, err := env.ReadPGN(bytes.NewReader(data), v)
		if err != nil {
			return nil, fmt.Errorf("openings %s: %w", name, err)
		}
		for i, g := range games {
			if g.Variant.Name != v.Name {
				return nil, fmt.Errorf("openings %s: game %d is %s, the match plays %s", name, i+1, g.Variant.Name, v.Name)
			}
			openings = append(openings, Opening{Name: fmt.Sprintf("%s#%d", name, i+1), FEN: g.StartFEN, Moves: g.Moves})
		}
	} else {
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for line := 1; sc.Scan(); line++ {
			text := strings.TrimSpace(sc.Text())
			if i := strings.IndexByte(text, '#'); i >= 0 {
				text = strings.TrimSpace(text[:i])
			}
			if text == "" {
				continue
			}
			fen, err := fenFromEPD(text)
			if err != nil {
				return nil, fmt.Errorf("openings %s:%d: %w", name, line, err)
			}
			openings = append(openings, Opening{Name: fmt.Sprintf("%s:%d", name, line), FEN: fen})
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("openings %s: %w", name, err)
		}
	}
	if len(openings) == 0 {
		return nil, fmt.Errorf("openings %s: no positions found", name)
	}
	for _, o := range openings {
		pos, err := o.Position(v)
		if err != nil {
			return nil, err
		}
		if st := pos.Status(); st.IsOver() {
			return nil, fmt.Errorf("opening %s: the game is already over (%v)", o.Name, st)
		}
	}
	return openings, nil
}

// fenFromEPD reads a FEN line or an EPD line (four FEN fields and
// operations, which are ignored) and returns a full FEN.
func fenFromEPD(text string) (string, error) {
	f := strings.Fields(text)
	if len(f) < 4 {
		return "", fmt.Errorf("%q is not a FEN or EPD position", text)
	}
	if len(f) >= 6 && isInt(f[4]) && isInt(f[5]) {
		return strings.Join(f[:6], " "), nil
	}
	return strings.Join(f[:4], " ") + " 0 1", nil
}

func isInt(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

func looksLikePGN(data []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		t := strings.TrimSpace(sc.Text())
		if t == "" || t[0] == '#' || t[0] == '%' {
			continue
		}
		if t[0] == '[' || t[0] == '{' {
			return true
		}
		if i := strings.IndexByte(t, '.'); i > 0 && isInt(t[:i]) {
			return true
		}
		return false
	}
	return false
}

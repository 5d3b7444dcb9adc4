package train

import (
	"bytes"
	"fmt"
	"path/filepath"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/fileutil"
	"github.com/alicezero/alicezero/internal/runs"
)

// writeGames saves the first SelfPlay.PGNGames games of an iteration as
// PGN, a sample to look at how the network plays.
func (r *runner) writeGames(it int, games []*SelfPlayGame) error {
	n := min(r.cfg.SelfPlay.PGNGames, len(games))
	if n == 0 {
		return nil
	}
	var buf bytes.Buffer
	name := fmt.Sprintf("%s iteration %d", filepath.Base(r.dir), it)
	for i, g := range games[:n] {
		pg := env.NewGame(r.variant)
		pg.SetTag("Event", "AliceZero self-play")
		pg.SetTag("Site", "alicezero train")
		pg.SetTag("Date", time.Now().Format("2006.01.02"))
		pg.SetTag("Round", fmt.Sprintf("%d.%d", it, i+1))
		pg.SetTag("White", name)
		pg.SetTag("Black", name)
		pg.SetTag("Termination", g.Termination())
		pg.Moves = g.Moves
		pg.Result = g.Result
		if err := env.WritePGN(&buf, pg); err != nil {
			return fmt.Errorf("game %d as PGN: %w", i+1, err)
		}
		buf.WriteByte('\n')
	}
	return fileutil.WriteAtomic(runs.GamesPath(r.dir, it), buf.Bytes())
}

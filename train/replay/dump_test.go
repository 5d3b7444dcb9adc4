//go:build tune

package replay

// The dump of replay shards as EPD, the data the alpha-beta's evaluation
// is fitted to (mcts/alphabeta/tune_test.go). Each sample with a value
// target becomes one line: the position, its game's result for White as
// c9 (as Texel-tuning sets write it) and the search's value for the side
// to move as c8. It runs as a test under the tune build tag:
//
//	go test -tags tune -run TestDumpEPD ./train/replay \
//	    -dump.shards '/path/to/run/buffer/*.shard' -dump.out /tmp/positions.epd

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/alicezero/alicezero/env"
)

var (
	dumpShards = flag.String("dump.shards", "", "glob of the shard files to dump")
	dumpOut    = flag.String("dump.out", "", "the EPD file to write")
)

func TestDumpEPD(t *testing.T) {
	if *dumpShards == "" || *dumpOut == "" {
		t.Skip("no -dump.shards or -dump.out")
	}
	files, err := filepath.Glob(*dumpShards)
	if err != nil {
		t.Fatalf("-dump.shards: %v", err)
	}
	f, err := os.Create(*dumpOut)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	n := 0
	for _, path := range files {
		samples, err := ReadShard(path)
		if err != nil {
			t.Fatal(err)
		}
		for i := range samples {
			s := &samples[i]
			if s.NoValue {
				continue
			}
			white := s.Result
			if s.Position.SideToMove() == env.Black {
				white = -white
			}
			result := [3]string{"0-1", "1/2-1/2", "1-0"}[white+1]
			fmt.Fprintf(w, "%s c9 \"%s\"; c8 \"%.4f\";\n", s.Position.FEN(), result, s.RootValue)
			n++
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d positions of %d shards to %s", n, len(files), *dumpOut)
}

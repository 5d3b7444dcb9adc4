package folder

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/train/bus"
	"github.com/alicezero/alicezero/train/bus/bustest"
)

func TestTransport(t *testing.T) {
	bustest.Run(t, func(t *testing.T) bustest.Transport {
		dir := t.TempDir()
		injected := 0
		return bustest.Transport{
			Source: func(t *testing.T) bus.Source {
				s, err := NewSource(dir, nil)
				if err != nil {
					t.Fatal(err)
				}
				return s
			},
			Crash: func(*testing.T, bus.Source) {},
			Sink: func(t *testing.T, worker string) bus.Sink {
				s, err := NewSink(dir, worker)
				if err != nil {
					t.Fatal(err)
				}
				return s
			},
			Inject: func(t *testing.T, worker string, data []byte) {
				injected++
				if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("sp-%s-%06d.shard", worker, injected)), data, 0o644); err != nil {
					t.Fatal(err)
				}
			},
			Networks: func(t *testing.T) (bus.NetworkPublisher, bus.NetworkFetcher) {
				n := Networks{Dir: filepath.Join(dir, "nets")}
				if err := os.Mkdir(n.Dir, 0o755); err != nil {
					t.Fatal(err)
				}
				return n, n
			},
		}
	})
}

// TestSinkNumbersOnAfterRestart: a worker restarted under the same name
// continues its numbering, over files taken or not, and overwrites none.
func TestSinkNumbersOnAfterRestart(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"sp-w-000004.n1.g2.t30.shard.used", "sp-w-000007.shard.bad", "sp-other-000042.shard", "sp-w-000002.shard"} {
		os.WriteFile(filepath.Join(dir, name), nil, 0o644)
	}
	s, err := NewSink(dir, "w")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(t.Context(), bus.ShardInfo{Worker: "w", Network: 3, Games: 2, PlaySeconds: 1.25}, bustest.Samples(t, 1, 2)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "sp-w-000008.n3.g2.t1250.shard")); err != nil {
		t.Fatal(err)
	}
	if _, err := NewSink(dir, "../x"); err == nil || !strings.Contains(err.Error(), "worker name") {
		t.Fatalf("bad worker name: %v", err)
	}
}

func TestParseName(t *testing.T) {
	for name, want := range map[string]bus.ShardInfo{
		"sp-a.b-000012.n3.g4.t1500.shard": {Worker: "a.b", Network: 3, Games: 4, PlaySeconds: 1.5},
		"sp-1f-99-000001.shard":           {Worker: "1f-99", Network: -1},
		"sp-w-000001.n-1.g2.t0.shard":     {Worker: "w", Network: -1, Games: 2},
		"other.shard":                     {Network: -1},
	} {
		if got := parseName(name); got != want {
			t.Errorf("%s: %+v, want %+v", name, got, want)
		}
	}
}

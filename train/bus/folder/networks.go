package folder

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/alicezero/alicezero/internal/fileutil"
	"github.com/alicezero/alicezero/train/bus"
)

// networkPattern names a network file; a run's checkpoints folder uses
// the same names, so that it serves as a Networks folder as it is.
const networkPattern = "iter-%06d.azck"

// Networks is a folder of checkpoint files named by iteration.
type Networks struct {
	Dir string
}

// PublishNetwork implements bus.NetworkPublisher: it writes the file
// unless it is there already (a run's own checkpoint).
func (n Networks) PublishNetwork(_ context.Context, it int, data []byte) error {
	path := filepath.Join(n.Dir, fmt.Sprintf(networkPattern, it))
	if _, err := os.Stat(path); err == nil {
		return nil
	}
	return fileutil.WriteAtomic(path, data)
}

// NewestNetwork implements bus.NetworkFetcher.
func (n Networks) NewestNetwork(context.Context) (int, error) {
	entries, err := os.ReadDir(n.Dir)
	if errors.Is(err, os.ErrNotExist) {
		return 0, bus.ErrNoNetwork
	}
	if err != nil {
		return 0, err
	}
	newest := -1
	for _, e := range entries {
		var it int
		if k, _ := fmt.Sscanf(e.Name(), networkPattern, &it); k == 1 && e.Name() == fmt.Sprintf(networkPattern, it) {
			newest = max(newest, it)
		}
	}
	if newest < 0 {
		return 0, bus.ErrNoNetwork
	}
	return newest, nil
}

// FetchNetwork implements bus.NetworkFetcher. The checkpoint format
// carries its own checksum, which the reader of the bytes checks.
func (n Networks) FetchNetwork(_ context.Context, it int) ([]byte, error) {
	return os.ReadFile(filepath.Join(n.Dir, fmt.Sprintf(networkPattern, it)))
}

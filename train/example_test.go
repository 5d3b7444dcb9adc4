package train_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/alicezero/alicezero/internal/runs"
	"github.com/alicezero/alicezero/train"
)

// The package documentation's snippet, on the tiny configuration: a new
// run of one iteration, which leaves the untrained network (iteration 0)
// and the first trained one in the run's checkpoints.
func ExampleRun() {
	dir, err := os.MkdirTemp("", "train-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	cfg, err := train.BuiltinConfig("tiny") // "small" for a real run
	if err != nil {
		panic(err)
	}
	// Out: os.Stdout and Progress: os.Stderr show the run as it goes.
	err = train.Run(context.Background(), train.Options{Config: cfg, RunsDir: dir, Name: "example", Iterations: 1, Out: io.Discard})
	if err != nil {
		panic(err)
	}
	its, err := runs.Checkpoints(filepath.Join(dir, "example"))
	fmt.Println(its, err)
	// Output:
	// [1 0] <nil>
}

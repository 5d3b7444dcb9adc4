package runs_test

import (
	"fmt"
	"path/filepath"

	"github.com/alicezero/alicezero/internal/runs"
)

func ExampleDir() {
	dir, err := runs.Dir("checkpoints", "small-20250101-120000")
	fmt.Println(filepath.ToSlash(dir), err)
	fmt.Println(filepath.ToSlash(runs.CheckpointPath(dir, 12)))
	_, err = runs.Dir("checkpoints", "../elsewhere")
	fmt.Println(err)
	// Output:
	// checkpoints/small-20250101-120000 <nil>
	// checkpoints/small-20250101-120000/checkpoints/iter-000012.azck
	// run name "../elsewhere": want a folder name inside the runs folder, not a path
}

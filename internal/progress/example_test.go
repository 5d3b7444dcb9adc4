package progress_test

import (
	"os"

	"github.com/alicezero/alicezero/internal/progress"
)

// Writing to a file or a pipe (as os.Stdout is in a test), the bar is a
// plain line at the end, and one every progress.Interval before.
func ExampleNew() {
	bar := progress.New(os.Stdout, 3, "self-play", "games")
	for range 3 {
		bar.Add(1)
	}
	bar.Finish()
	// Output: self-play: 3/3 games in 0s
}

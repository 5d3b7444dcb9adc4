package lines_test

import (
	"fmt"
	"strings"

	"github.com/alicezero/alicezero/internal/lines"
)

func ExampleRead() {
	input := "uci\r\n" + strings.Repeat("x", 100) + "\nisready\n"
	in := lines.Read(strings.NewReader(input), 64)
	defer in.Close()
	for l := range in.C {
		switch {
		case l.Err != nil:
			fmt.Println("input failed:", l.Err)
		case l.TooLong:
			fmt.Printf("a line of %d bytes, skipped\n", l.Len)
		default:
			fmt.Println(l.Text)
		}
	}
	// Output:
	// uci
	// a line of 100 bytes, skipped
	// isready
}

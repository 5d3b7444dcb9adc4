package alphabeta

import (
	"testing"
	"time"
)

func TestTimeManager(t *testing.T) {
	const target = time.Second
	stable := timeManager{target: target, most: 4 * target}
	for d := 1; d <= 6; d++ {
		stable.iterationDone(d, false, 20, 20)
	}
	if !stable.enough(600*time.Millisecond) || stable.enough(500*time.Millisecond) {
		t.Errorf("a stable search stops at %v of its %v target, want 55%%", nextShare, target)
	}
	unstable := timeManager{target: target, most: 4 * target}
	falling := timeManager{target: target, most: 4 * target}
	for d := 1; d <= 6; d++ {
		unstable.iterationDone(d, true, 20, 20)
		falling.iterationDone(d, false, int32(20-60*d), int32(20-60*(d-1)))
	}
	for name, tm := range map[string]timeManager{"a changing best move": unstable, "a falling score": falling} {
		if tm.enough(700 * time.Millisecond) {
			t.Errorf("%s: stopped at 700 ms of a 1 s target", name)
		}
		if !tm.enough(4 * target) {
			t.Errorf("%s: not stopped at the window's end", name)
		}
	}
	fixed := timeManager{target: target, most: target}
	fixed.iterationDone(5, false, 0, 0)
	if fixed.enough(990 * time.Millisecond) {
		t.Error("a fixed move time stops before its end")
	}
}

package main

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sourcegraph/conc"

	"github.com/alicezero/alicezero/configs"
	"github.com/alicezero/alicezero/internal/syncbuf"
)

// proc is the alicezero command running as a separate process.
type proc struct {
	name string
	cmd  *exec.Cmd
	out  *syncbuf.Buffer
	wg   conc.WaitGroup
	once sync.Once
}

func startCLI(t *testing.T, name string, args ...string) *proc {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := &proc{name: name, cmd: exec.Command(exe, args...), out: &syncbuf.Buffer{}}
	p.cmd.Env = append(os.Environ(), asCLI+"=1")
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p.wg.Go(func() { _ = p.cmd.Wait() })
	t.Cleanup(p.kill)
	return p
}

// kill ends the process with SIGKILL, as a crash or kill -9 would.
func (p *proc) kill() {
	p.once.Do(func() {
		_ = p.cmd.Process.Signal(syscall.SIGKILL)
		p.wg.Wait()
	})
}

func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// waitUntil polls cond until it holds, failing after limit.
func waitUntil(t *testing.T, limit time.Duration, what string, cond func() bool, procs ...*proc) {
	t.Helper()
	for deadline := time.Now().Add(limit); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			var sb strings.Builder
			for _, p := range procs {
				fmt.Fprintf(&sb, "--- %s:\n%s\n", p.name, p.out.String())
			}
			t.Fatalf("timed out waiting for %s\n%s", what, sb.String())
		}
	}
}

// newestCheckpoint is the run's highest checkpoint iteration.
func newestCheckpoint(run string) int {
	newest := -1
	entries, _ := os.ReadDir(filepath.Join(run, "checkpoints"))
	for _, e := range entries {
		var it int
		if n, _ := fmt.Sscanf(e.Name(), "iter-%06d.azck", &it); n == 1 {
			newest = max(newest, it)
		}
	}
	return newest
}

var (
	sessionLine = regexp.MustCompile(`worker (\S+): connected .* session ([0-9a-f]{16})`)
	shardLine   = regexp.MustCompile(`(?m)^shard (\d+): `)
)

// sentShards lists the message ids of the shards a worker process saw
// stored by the stream (it prints a line for each after the server's
// acknowledgement).
func sentShards(t *testing.T, p *proc) []string {
	t.Helper()
	out := p.out.String()
	m := sessionLine.FindStringSubmatch(out)
	if m == nil {
		return nil
	}
	var ids []string
	for _, s := range shardLine.FindAllStringSubmatch(out, -1) {
		ids = append(ids, m[1]+"/"+m[2]+"/"+s[1])
	}
	return ids
}

// takenShards reads the sources of every run shard up to the newest
// checkpoint: how many times each worker shard entered the buffer.
func takenShards(t *testing.T, run string) map[string]int {
	t.Helper()
	taken := map[string]int{}
	for it := 1; it <= newestCheckpoint(run); it++ {
		f, err := os.Open(filepath.Join(run, "buffer", fmt.Sprintf("iter-%06d.sources", it)))
		if err != nil {
			t.Fatalf("round %d: %v", it, err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			id, _, _ := strings.Cut(sc.Text(), "\t")
			taken[id]++
		}
		f.Close()
	}
	return taken
}

// TestBusSurvivesKill9 is the distributed run's crash test: a learner with
// an embedded server and two worker processes on localhost; one worker and
// then the learner are killed with SIGKILL mid-run and restarted. Every
// shard a worker saw stored must enter the buffer exactly once, and the
// run must go on past the restart.
func TestBusSurvivesKill9(t *testing.T) {
	rounds := 3
	if testing.Short() {
		rounds = 2
	}
	dir := t.TempDir()
	// The tiny configuration with slower games, so that the workers send a
	// few shards a second rather than hundreds.
	tiny, err := configs.Named("tiny")
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "bus.yaml")
	slow := strings.Replace(string(tiny), "simulations: 8\n", "simulations: 48\n", 1)
	if err := os.WriteFile(cfg, []byte(slow), 0o644); err != nil {
		t.Fatal(err)
	}
	addr := freePort(t)
	run := filepath.Join(dir, "r")
	learnArgs := []string{"learn", "--runs-dir", dir, "--listen", addr, "--ack-wait", "2s", "--poll", "200ms", "--max-stale", "-1", "--quiet"}
	worker := func(name string) *proc {
		return startCLI(t, name, "selfplay", "--connect", "nats://"+addr, "--id", name, "--threads", "1", "--shard-games", "2", "--quiet")
	}
	// The first worker starts before the learner listens: it waits.
	a1 := worker("a")
	learner := startCLI(t, "learner", append(learnArgs, "--config", cfg, "--run", "r")...)
	waitUntil(t, time.Minute, "the learner", func() bool { return strings.Contains(learner.out.String(), "listening for workers") }, learner)
	b := worker("b")
	all := []*proc{learner, a1, b}
	waitUntil(t, 2*time.Minute, "the first rounds", func() bool { return newestCheckpoint(run) >= rounds }, all...)

	waitUntil(t, 2*time.Minute, "shards from worker a", func() bool { return len(sentShards(t, a1)) >= 2 }, all...)

	// kill -9 of a worker, then of the learner (and its server).
	a1.kill()
	at := newestCheckpoint(run)
	waitUntil(t, 2*time.Minute, "rounds without worker a", func() bool { return newestCheckpoint(run) >= at+1 }, all...)
	learner.kill()
	killedAt := newestCheckpoint(run)

	learner2 := startCLI(t, "learner (restarted)", append(learnArgs, "--resume", "r")...)
	a2 := worker("a")
	all = append(all, learner2, a2)
	waitUntil(t, 4*time.Minute, "rounds after the restart", func() bool { return newestCheckpoint(run) >= killedAt+rounds }, all...)
	if !strings.Contains(learner2.out.String(), "resuming run") {
		t.Fatalf("the learner did not resume:\n%s", learner2.out.String())
	}

	waitUntil(t, 2*time.Minute, "shards from the restarted worker a", func() bool { return len(sentShards(t, a2)) >= 1 }, all...)

	// Stop the workers; the learner takes what they sent.
	a2.kill()
	b.kill()
	var sent []string
	for _, w := range []*proc{a1, b, a2} {
		ids := sentShards(t, w)
		if len(ids) == 0 {
			t.Fatalf("worker %s sent nothing:\n%s", w.name, w.out.String())
		}
		sent = append(sent, ids...)
	}
	waitUntil(t, 2*time.Minute, "every stored shard in the buffer", func() bool {
		taken := takenShards(t, run)
		for _, id := range sent {
			if taken[id] == 0 {
				return false
			}
		}
		return true
	}, all...)
	learner2.kill()
	for id, n := range takenShards(t, run) {
		if n != 1 {
			t.Errorf("shard %s entered the buffer %d times", id, n)
		}
	}
	t.Logf("%d shards sent by 3 worker processes; learner killed at round %d, stopped at %d", len(sent), killedAt, newestCheckpoint(run))
}

// TestBusTokens: a learner listening beyond loopback needs a token, and a
// worker with a wrong one is told so and stops.
func TestBusTokens(t *testing.T) {
	dir := t.TempDir()
	_, errOut, code := runCLI(t, "", "learn", "--config", "tiny", "--runs-dir", dir, "--run", "open", "--listen", "0.0.0.0:0")
	if code != 1 || !strings.Contains(errOut, "needs a token") {
		t.Fatalf("no token on 0.0.0.0: exit %d, %s", code, errOut)
	}
	addr := freePort(t)
	learner := startCLI(t, "learner", "learn", "--config", "tiny", "--runs-dir", dir, "--run", "r", "--listen", addr, "--token", "s3cret", "--quiet")
	waitUntil(t, time.Minute, "the learner", func() bool { return strings.Contains(learner.out.String(), "listening for workers") }, learner)
	for _, token := range []string{"wrong", ""} {
		_, errOut, code = runCLI(t, "", "selfplay", "--connect", "nats://"+addr, "--token", token, "--games", "1")
		if code != 1 || !strings.Contains(errOut, "refused the connection: wrong or missing token") {
			t.Fatalf("token %q: exit %d, %s", token, code, errOut)
		}
	}
	out, errOut, code := runCLI(t, "", "selfplay", "--connect", "nats://"+addr, "--token", "s3cret", "--games", "2", "--id", "ok", "--quiet")
	if code != 0 || !strings.Contains(out, "shard 1: 2 games") {
		t.Fatalf("right token: exit %d\n%s\n%s", code, out, errOut)
	}
}

func TestLearnNamesTheModesGiven(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{nil, "needs one of --data FOLDER, --listen HOST:PORT and --bus URL"},
		{[]string{"--data", "shards", "--listen", "127.0.0.1:4222"}, "takes only one of --data, --listen and --bus, got --data and --listen"},
	}
	for _, tt := range tests {
		_, errOut, code := runCLI(t, "", append([]string{"learn"}, tt.args...)...)
		if code != 2 || !strings.Contains(errOut, tt.want) {
			t.Errorf("learn %v: exit %d, stderr %q, want %q", tt.args, code, errOut, tt.want)
		}
	}
}

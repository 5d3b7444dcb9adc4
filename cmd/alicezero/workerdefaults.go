package main

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"os"
	"strings"

	"github.com/alicezero/alicezero/train/bus"
)

// defaultWorkerName is selfplay's default --id: HOST-PID.
func defaultWorkerName() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "worker"
	}
	return workerName(host, os.Getpid())
}

// workerName makes a valid worker name (bus.ValidWorker) of a host name
// and a process id: each run of characters a name may not hold becomes
// one '-', the host's part is cut to 40 bytes and starts with a letter or
// digit.
func workerName(host string, pid int) string {
	var b strings.Builder
	unsafe := false
	for _, r := range host {
		if bus.NameChar(r) {
			b.WriteRune(r)
			unsafe = false
			continue
		}
		if !unsafe {
			b.WriteByte('-')
		}
		unsafe = true
	}
	name := b.String()
	if len(name) > 40 {
		name = name[:40]
	}
	if name == "" || name[0] == '-' || name[0] == '.' || name[0] == '_' {
		name = "w" + name
	}
	return fmt.Sprintf("%s-%d", name, pid)
}

// randomSeed is selfplay's default --seed, drawn so that workers started
// alike play different games.
func randomSeed() uint64 {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return 0
	}
	return binary.LittleEndian.Uint64(b[:]) >> 1 // fits --seed's int64
}

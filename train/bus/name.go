package bus

import "fmt"

// maxWorkerName is the longest worker name, in bytes (all its characters
// are ASCII).
const maxWorkerName = 64

// NameChar reports whether r may appear in a worker name: an ASCII letter
// or digit, '_', '.' or '-', so that the name is safe in file names,
// message headers and NATS subjects. Code that makes names of other text
// (a host's name, a run's NATS names) keeps these characters.
func NameChar(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_' || r == '.' || r == '-'
}

// ValidWorker checks a worker's name: 1 to 64 of the characters NameChar
// allows, starting with a letter or digit.
func ValidWorker(name string) error {
	if !validWorker(name) {
		return fmt.Errorf("bus: worker name %q: use 1 to 64 letters, digits, '_', '.' or '-', starting with a letter or digit", name)
	}
	return nil
}

// validWorker is ^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$ written out: a
// package-level regexp costs every process ~860 allocations at start-up.
func validWorker(name string) bool {
	if len(name) == 0 || len(name) > maxWorkerName {
		return false
	}
	for i, r := range name {
		if !NameChar(r) || i == 0 && (r == '_' || r == '.' || r == '-') {
			return false
		}
	}
	return true
}

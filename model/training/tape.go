package training

import (
	"errors"
	"reflect"
	"unsafe"

	G "gorgonia.org/gorgonia"
)

// runTape runs a tape machine's program on the calling goroutine: what
// vm.RunAll does, without its thread handoffs.
//
// Gorgonia's (*tapeMachine).RunAll locks the caller to its OS thread,
// starts the program's loop (runall) on a new goroutine and waits for it.
// The locked thread then sleeps, and the program runs on another one;
// when it ends, the scheduler must hand the processor back to the locked
// thread. With every core busy (a trainer's shards side by side, or a
// learner beside self-play) those handoffs cost some 15–20% of a step
// (docs/PERFORMANCE.md, "The tape on the caller's goroutine").
//
// For the machines this package builds (CPU only, no batched BLAS: see
// TestKernelBLASIsNotBatched; no dual values bound), the loop is all that
// RunAll does: the work it flushes before returning (ExternMetadata's
// batched calls, the dual-value closures) does not exist. A panic in an
// op stays on the caller's goroutine, where catch turns it into an error,
// instead of ending the process as it would on RunAll's goroutine. Any
// other VM runs through RunAll.
func runTape(vm G.VM) error {
	if reflect.TypeOf(vm).String() != "*gorgonia.tapeMachine" {
		return vm.RunAll()
	}
	errc, done := make(chan error, 1), make(chan struct{}, 1)
	m := (*[2]unsafe.Pointer)(unsafe.Pointer(&vm))[1] // the interface's *tapeMachine
	tapeRunAll(m, errc, done)
	select {
	case err := <-errc:
		return err
	case <-done:
		return nil
	default:
		return errors.New("model: gorgonia tape machine stopped without finishing or failing")
	}
}

// tapeRunAll is gorgonia v0.9.18's (*tapeMachine).runall(errChan,
// doneChan): it runs the program from the machine's counter on, then
// sends on doneChan, or sends the first error on errChan. go.mod pins
// that version; a new one must be checked against this signature.
//
//go:linkname tapeRunAll gorgonia.org/gorgonia.(*tapeMachine).runall
func tapeRunAll(m unsafe.Pointer, errChan chan error, doneChan chan struct{})

package model

// WithKernels returns o with the named kernel set (see kernel.Available),
// for the external tests of each fallback.
func WithKernels(o FastOptions, name string) FastOptions {
	o.kernels = name
	return o
}

// CheckFinite is checkFinite, for the external tests.
func (w *Weights) CheckFinite() error { return w.checkFinite() }

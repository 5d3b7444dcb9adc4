package serve

import (
	"embed"
	"fmt"
	"io/fs"
	"net/http"
)

// The page: plain HTML, CSS and JavaScript, no build step.
//
//go:embed assets
var assetFS embed.FS

// assets serves the page and its files.
func assets() (http.Handler, error) {
	sub, err := fs.Sub(assetFS, "assets")
	if err != nil {
		return nil, fmt.Errorf("serve: embedded assets: %w", err)
	}
	return page(http.FileServerFS(sub)), nil
}

// page serves h's pages to GET and HEAD (others get 405), to be checked
// for a change at every load (no-cache): a new binary's page is seen at
// once.
func page(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		h.ServeHTTP(w, r)
	})
}

package serve

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
)

// apiError is an error with the HTTP status it is answered with.
type apiError struct {
	status int
	msg    string
}

func (e *apiError) Error() string { return e.msg }

// badRequest is a 400 error naming what is wrong with the request.
func badRequest(format string, args ...any) error {
	return &apiError{status: http.StatusBadRequest, msg: fmt.Sprintf(format, args...)}
}

// notFound is a 404 error.
func notFound(format string, args ...any) error {
	return &apiError{status: http.StatusNotFound, msg: fmt.Sprintf(format, args...)}
}

// unavailable is a 503 error: the server is busy, try again later.
func unavailable(format string, args ...any) error {
	return &apiError{status: http.StatusServiceUnavailable, msg: fmt.Sprintf(format, args...)}
}

// errorBody is every error response's body.
type errorBody struct {
	Error string `json:"error"`
}

// writeJSON answers with v as JSON, not to be cached unless the handler
// set its own Cache-Control.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = json.Marshal(errorBody{Error: "encoding the answer: " + err.Error()})
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	if h.Get("Cache-Control") == "" {
		h.Set("Cache-Control", "no-store")
	}
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n')) // a client that went away needs no answer
}

// writeError answers with err as a JSON error: its own status for an
// apiError, 400 for a request body too large or malformed, else 500.
func writeError(w http.ResponseWriter, err error) {
	status := http.StatusInternalServerError
	var ae *apiError
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &ae):
		status = ae.status
	case errors.As(err, &mbe):
		status = http.StatusRequestEntityTooLarge
		err = fmt.Errorf("request body larger than %d bytes", mbe.Limit)
	}
	writeJSON(w, status, errorBody{Error: err.Error()})
}

// readJSON decodes the request body, which must be JSON (by its content
// type) holding one object with known fields only, into v. An empty body
// leaves v as it is.
func readJSON(r *http.Request, v any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || mt != "application/json" {
			return &apiError{status: http.StatusUnsupportedMediaType, msg: fmt.Sprintf("content type %q: want application/json", ct)}
		}
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var mbe *http.MaxBytesError
		switch {
		case errors.Is(err, io.EOF):
			return nil
		case errors.As(err, &mbe):
			return err
		}
		return badRequest("request body: %v", jsonProblem(err))
	}
	if dec.More() {
		return badRequest("request body: more than one JSON value")
	}
	return nil
}

// jsonProblem rewords the decoder's errors for the user.
func jsonProblem(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("malformed JSON at byte %d: %v", se.Offset, se)
	case errors.As(err, &te):
		if te.Field != "" {
			return fmt.Sprintf("field %q must be %s, not %s", te.Field, te.Type, te.Value)
		}
		return fmt.Sprintf("want a JSON object, not %s", te.Value)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "malformed JSON: it ends too early"
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

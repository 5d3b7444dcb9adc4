package pychess

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"
)

// DefaultServer is pychess.org's address.
const DefaultServer = "https://www.pychess.org"

// Defaults of ClientOptions.
const (
	// DefaultIdleTimeout: pychess writes a ping line every 6 s on an idle
	// stream (bot_api.py), so 30 s of silence means the connection is dead
	// even when TCP has not noticed.
	DefaultIdleTimeout = 30 * time.Second
	// DefaultRequestTimeout bounds each request other than the streams.
	DefaultRequestTimeout = 15 * time.Second
)

// capabilitiesHeader names the request header in which a bot lists the
// variants it plays; pychess refuses the event stream without it.
const capabilitiesHeader = "X-PyChess-Bot-Capabilities"

// ClientOptions configure a Client. The zero value is usable.
type ClientOptions struct {
	// HTTPClient makes the requests; nil means a client without an overall
	// timeout (the streams last for hours).
	HTTPClient *http.Client
	// Variants are the pychess variant names ("alice") advertised in the
	// capability header of the event stream: a bot is challenged only in
	// these, and pychess refuses the event stream (400) when none is one
	// it knows.
	Variants []string
	// MaxLine is the longest stream line accepted; 0 means DefaultMaxLine.
	MaxLine int
	// IdleTimeout drops a stream that sent nothing, not even a ping, for
	// this long; 0 means DefaultIdleTimeout.
	IdleTimeout time.Duration
	// RequestTimeout bounds each request other than the streams; 0 means
	// DefaultRequestTimeout.
	RequestTimeout time.Duration
	// Logger receives warnings about malformed stream lines; nil discards.
	Logger *slog.Logger
	// UserAgent is sent with every request; "" means "alicezero".
	UserAgent string
}

// Client speaks pychess.org's BOT API. Its methods are safe for concurrent
// use. The token is sent in the Authorization header only: it appears in
// no error and no log line.
type Client struct {
	base     *url.URL
	token    string
	http     *http.Client
	caps     string
	variants []string
	maxLine  int
	idle     time.Duration
	timeout  time.Duration
	log      *slog.Logger
	agent    string
}

// NewClient returns a client for the server at server (e.g.
// DefaultServer) authenticating with token.
func NewClient(server, token string, o ClientOptions) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(server, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("pychess: server %q is not an http(s) URL", server)
	}
	if token == "" {
		return nil, errors.New("pychess: no API token")
	}
	if strings.IndexFunc(token, func(r rune) bool { return r <= ' ' || r == 0x7f }) >= 0 {
		return nil, errors.New("pychess: the API token holds spaces or control characters")
	}
	caps, err := json.Marshal(struct {
		Version  int      `json:"version"`
		Variants []string `json:"variants"`
	}{1, o.Variants})
	if err != nil {
		return nil, fmt.Errorf("pychess: capabilities: %w", err)
	}
	c := &Client{
		base: u, token: token, http: o.HTTPClient, caps: string(caps), variants: o.Variants,
		maxLine: o.MaxLine, idle: o.IdleTimeout, timeout: o.RequestTimeout,
		log: o.Logger, agent: o.UserAgent,
	}
	if c.http == nil {
		c.http = &http.Client{}
	}
	if c.maxLine <= 0 {
		c.maxLine = DefaultMaxLine
	}
	if c.idle <= 0 {
		c.idle = DefaultIdleTimeout
	}
	if c.timeout <= 0 {
		c.timeout = DefaultRequestTimeout
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	if c.agent == "" {
		c.agent = "alicezero"
	}
	return c, nil
}

// GameURL returns the address of a game's page.
func (c *Client) GameURL(id string) string {
	return c.base.String() + "/" + url.PathEscape(id)
}

// HTTPError is a response with an unexpected status.
type HTTPError struct {
	Method, Path string
	Status       int
	// Message is the start of the response body.
	Message string
}

func (e *HTTPError) Error() string {
	msg := fmt.Sprintf("pychess: %s %s: %d %s", e.Method, e.Path, e.Status, http.StatusText(e.Status))
	if e.Message != "" {
		msg += ": " + e.Message
	}
	return msg
}

// Transient reports whether the same request may succeed later: a server
// error, rate limiting, or (for a game stream) an earlier connection that
// the server has not yet noticed is gone.
func (e *HTTPError) Transient() bool {
	return e.Status >= 500 || e.Status == http.StatusTooManyRequests ||
		e.Status == http.StatusConflict || e.Status == http.StatusRequestTimeout
}

// isTransient reports whether err is worth retrying: a network failure or a
// transient status.
func isTransient(err error) bool {
	if err == nil {
		return false
	}
	var he *HTTPError
	if errors.As(err, &he) {
		return he.Transient()
	}
	return !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
}

func (c *Client) newRequest(ctx context.Context, method, path string, body io.Reader) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base.String()+path, body)
	if err != nil {
		return nil, fmt.Errorf("pychess: %s %s: %w", method, path, err)
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("User-Agent", c.agent)
	return req, nil
}

// do sends a request other than a stream and decodes a JSON reply into
// out (if not nil).
func (c *Client) do(ctx context.Context, method, path string, form url.Values, out any) error {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := c.newRequest(ctx, method, path, body)
	if err != nil {
		return err
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("pychess: %s %s: %w", method, path, unwrapURLError(err))
	}
	defer resp.Body.Close()
	if err := checkStatus(resp, method, path); err != nil {
		return err
	}
	if out == nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16)) // lets the connection be reused
		return nil
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(out); err != nil {
		return fmt.Errorf("pychess: %s %s: reading the reply: %w", method, path, err)
	}
	return nil
}

// unwrapURLError drops *url.Error's repetition of the method and URL.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

func checkStatus(resp *http.Response, method, path string) error {
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return nil
	}
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
	msg := strings.Join(strings.Fields(string(b)), " ")
	return &HTTPError{Method: method, Path: path, Status: resp.StatusCode, Message: msg}
}

// Account is the authenticated account.
type Account struct {
	ID       string `json:"id"`
	Username string `json:"username"`
	// Title is "BOT" for an account that may use the BOT API.
	Title string `json:"title"`
}

// Account returns the account the token belongs to.
func (c *Client) Account(ctx context.Context) (Account, error) {
	var a Account
	if err := c.do(ctx, http.MethodGet, "/api/account", nil, &a); err != nil {
		return Account{}, err
	}
	if a.Username == "" {
		return Account{}, errors.New("pychess: GET /api/account: no username in the reply")
	}
	return a, nil
}

// UpgradeToBot turns the account into a BOT account. pychess allows this
// only for an account that has never played a game, and it cannot be
// undone.
func (c *Client) UpgradeToBot(ctx context.Context) error {
	return c.do(ctx, http.MethodPost, "/api/bot/account/upgrade", nil, nil)
}

// AcceptChallenge accepts a challenge; its game then starts with the
// same id.
func (c *Client) AcceptChallenge(ctx context.Context, id string) error {
	return c.do(ctx, http.MethodPost, "/api/challenge/"+url.PathEscape(id)+"/accept", nil, nil)
}

// Decline reasons pychess knows (seek.DECLINE_REASON_MESSAGES); it shows
// the challenger a sentence for each.
const (
	DeclineGeneric     = "generic"
	DeclineLater       = "later"
	DeclineTooFast     = "tooFast"
	DeclineTooSlow     = "tooSlow"
	DeclineTimeControl = "timeControl"
	DeclineVariant     = "variant"
	DeclineStandard    = "standard"
)

// DeclineChallenge declines a challenge with one of the Decline* reasons.
func (c *Client) DeclineChallenge(ctx context.Context, id, reason string) error {
	return c.do(ctx, http.MethodPost, "/api/challenge/"+url.PathEscape(id)+"/decline", url.Values{"reason": {reason}}, nil)
}

// Move plays a move (UCI) in a game. offerDraw adds lichess's
// offeringDraw=true, which pychess ignores (testdata/README.md). Move does
// not retry: a move sent again after the opponent has replied would be
// played in the new position, so only the caller, who sees the game's
// state, may resend it.
func (c *Client) Move(ctx context.Context, gameID, uci string, offerDraw bool) error {
	path := "/api/bot/game/" + url.PathEscape(gameID) + "/move/" + url.PathEscape(uci)
	if offerDraw {
		path += "?offeringDraw=true"
	}
	return c.do(ctx, http.MethodPost, path, nil, nil)
}

// Abort aborts a game.
func (c *Client) Abort(ctx context.Context, gameID string) error {
	return c.do(ctx, http.MethodPost, "/api/bot/game/"+url.PathEscape(gameID)+"/abort", nil, nil)
}

// Resign resigns a game. On pychess this only records the result
// (bot_api.bot_resign): the opponent is not told, so Abort is the better
// way out of a game that cannot be played.
func (c *Client) Resign(ctx context.Context, gameID string) error {
	return c.do(ctx, http.MethodPost, "/api/bot/game/"+url.PathEscape(gameID)+"/resign", nil, nil)
}

// StreamEvents reads the event stream, passing each event (pings too:
// they show the connection is alive) to handle, until handle returns false (then it returns nil), the stream
// ends or fails, or ctx ends. A malformed line is logged and skipped. The
// stream ending is an error too (wrapping io.EOF): pychess never ends it
// on purpose.
func (c *Client) StreamEvents(ctx context.Context, handle func(Event) bool) error {
	return c.stream(ctx, "/api/stream/event", true, func(line []byte) bool {
		ev, err := parseEvent(line)
		if err != nil {
			c.warnMalformed("event stream", line, err)
			return true
		}
		return handle(ev)
	})
}

// StreamGame reads a game's stream as StreamEvents does.
func (c *Client) StreamGame(ctx context.Context, gameID string, handle func(GameEvent) bool) error {
	return c.stream(ctx, "/api/bot/game/stream/"+url.PathEscape(gameID), false, func(line []byte) bool {
		ev, err := parseGameEvent(line)
		if err != nil {
			c.warnMalformed("game "+gameID, line, err)
			return true
		}
		return handle(ev)
	})
}

func (c *Client) warnMalformed(stream string, line []byte, err error) {
	const show = 200
	s := string(line)
	if len(s) > show {
		s = s[:show] + "…"
	}
	c.log.Warn("pychess: ignoring a malformed line", "stream", stream, "err", err, "line", s)
}

// ErrIdle reports a stream that went silent for longer than the idle
// timeout.
var ErrIdle = errors.New("stream silent for too long")

// stream GETs an NDJSON stream and passes its lines to onLine until it
// returns false.
func (c *Client) stream(ctx context.Context, path string, withCaps bool, onLine func([]byte) bool) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var idled atomic.Bool
	watchdog := time.AfterFunc(c.idle, func() {
		idled.Store(true)
		cancel()
	})
	defer watchdog.Stop()

	req, err := c.newRequest(ctx, http.MethodGet, path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/x-ndjson")
	if withCaps {
		req.Header.Set(capabilitiesHeader, c.caps)
	}
	fail := func(err error) error {
		if idled.Load() {
			return fmt.Errorf("pychess: GET %s: %w (%v)", path, ErrIdle, c.idle)
		}
		return fmt.Errorf("pychess: GET %s: %w", path, err)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fail(unwrapURLError(err))
	}
	defer resp.Body.Close()
	if err := checkStatus(resp, http.MethodGet, path); err != nil {
		return err
	}
	lr := newLineReader(resp.Body, c.maxLine)
	for {
		line, err := lr.next()
		if errors.Is(err, errLineTooLong) {
			c.log.Warn("pychess: skipping an over-long line", "path", path, "limit", c.maxLine, "start", string(line))
			watchdog.Reset(c.idle)
			continue
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = fmt.Errorf("stream ended: %w", err)
			}
			return fail(err)
		}
		watchdog.Reset(c.idle)
		if !onLine(line) {
			return nil
		}
		watchdog.Reset(c.idle) // the time onLine took is not the server's silence
	}
}

// Calls of the server's JSON API (docs/API.md).

export class APIError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

export async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers['Content-Type'] = 'application/json';
    opts.body = JSON.stringify(body);
  }
  const resp = await fetch(`/api${path}`, opts);
  let data = null;
  try {
    data = await resp.json();
  } catch (e) {
    data = null;
  }
  if (!resp.ok) {
    throw new APIError(data && data.error ? data.error : `${resp.status} ${resp.statusText}`, resp.status);
  }
  return data;
}

// Search runs a search and calls handlers.info/ply/engine/done with its
// events; stop() asks the server to stop it. A play search's done event
// carries the move played and the game after it.
export class Search {
  constructor(request, handlers) {
    this.handlers = handlers;
    this.closed = false;
    this.id = null;
    this.ready = api('POST', '/search', request).then((s) => {
      this.id = s.id;
      if (this.closed) {
        this.stop();
        return;
      }
      this.listen();
      if (this.stopAsked) this.stop();
    });
  }

  listen() {
    const es = new EventSource(`/api/search/${this.id}/events`);
    this.es = es;
    const on = (name, fn) => es.addEventListener(name, (ev) => {
      if (fn) fn(JSON.parse(ev.data));
    });
    on('queued', this.handlers.queued);
    on('engine', this.handlers.engine);
    on('info', this.handlers.info);
    on('ply', this.handlers.ply);
    es.addEventListener('done', (ev) => {
      es.close(); // else the browser would reconnect
      this.closed = true;
      if (this.handlers.done) this.handlers.done(JSON.parse(ev.data));
    });
    es.onerror = () => {
      if (es.readyState === EventSource.CLOSED && !this.closed && this.handlers.error) {
        this.handlers.error(new Error('lost the connection to the server'));
      }
    };
  }

  // stop asks the server to stop the search, once it is known by its id.
  stop() {
    if (this.id) api('POST', `/search/${this.id}/stop`).catch(() => {});
    else this.stopAsked = true;
  }

  // close stops listening (and the search).
  close() {
    this.closed = true;
    this.stop();
    if (this.es) this.es.close();
  }
}

/* global Deno */
// Meridian (vendor/postgres/README.md, part 7): a plaintext TCP or unix-socket transport on
// Deno's own Deno.connect instead of node:net. Adapted from upstream's Deno build
// (porsager/postgres deno/polyfills.js, createSocket), with what that one lacks for this use:
// reads of up to 64 KB (upstream reads 1 KB at a time), writes coalesced into one Deno write
// per turn of the event loop with Node's return-false-then-'drain' back-pressure (upstream
// returns false on every write and never emits 'drain'), Node-style error codes
// (ECONNREFUSED, ECONNRESET, ENOTFOUND…: lib/unavailable.ts classifies by them), and 'close'
// after destroy() even while still connecting (connect_timeout relies on it).
// Why: Deno's node:net socket costs ~0.1 ms of CPU per write and per read on a busy page
// (21% of the app's CPU on /survey/{id}; bench/messages_page.ts under --cpu-prof).
// TLS is not handled here: connection.js keeps node:net + node:tls for every `ssl` setting,
// whose options (rejectUnauthorized false for sslmode=require, ca, servername, ALPN) have no
// Deno.startTls equivalent.
import { Buffer } from 'node:buffer'
import { AsyncLocalStorage } from 'node:async_hooks'

// The connection's events (its 'connect', the rows it reads, the type query postgres.js runs on
// connecting) run in the context this module was loaded in, not in that of the request whose
// query happened to open the connection, as with node:net: otherwise that request's trace
// (lib/telemetry.ts) would also show the connection's own queries.
const runOutsideRequests = AsyncLocalStorage.snapshot()

const READ_SIZE = 64 * 1024
// Node's writable highWaterMark: past this many unwritten bytes write() answers false and
// 'drain' follows once they are written, as with net.Socket.
const HIGH_WATER_MARK = 16 * 1024

const names = ['data', 'error', 'drain', 'connect', 'close']

// Deno's errors carry the OS code (err.code, e.g. ECONNREFUSED); a failed DNS lookup has none
// where Node says ENOTFOUND.
function nodeError(err, syscall, where) {
  let code = err && err.code
  if (!code && /failed to lookup address|Name or service not known|No address associated/i.test(err && err.message))
    code = 'ENOTFOUND'
  if (!code && err instanceof Deno.errors.ConnectionReset)
    code = 'ECONNRESET'
  if (!code && err instanceof Deno.errors.BrokenPipe)
    code = 'EPIPE'
  if (!code && err instanceof Deno.errors.TimedOut)
    code = 'ETIMEDOUT'
  const e = new Error(syscall + ' ' + (code || 'ERROR') + ' ' + where, { cause: err })
  code && (e.code = code)
  e.syscall = syscall
  return e
}

export function createDenoSocket() {
  let conn = null
    , pending = []
    , pendingBytes = 0
    , flushing = false
    , needsDrain = false
    , ending = false
    , paused = null
    , resume = null
    , hadError = false
    , where = ''
    , isTcp = false

  const events = Object.fromEntries(names.map(x => [x, []]))

  const socket = {
    readyState: 'closed',
    connect(port, hostname) {
      socket.readyState = 'opening'
      isTcp = typeof port !== 'string'
      where = isTcp ? (hostname || 'localhost') + ':' + port : port
      const opening = isTcp
        ? Deno.connect({ transport: 'tcp', port, hostname: hostname || 'localhost' })
        : Deno.connect({ transport: 'unix', path: port })
      runOutsideRequests(() => opening.then(opened, err => {
        if (socket.readyState !== 'opening')
          return
        fail(nodeError(err, 'connect', where))
        closed()
      }))
      return socket
    },
    write(x, cb) {
      if ((socket.readyState !== 'open' && socket.readyState !== 'opening') || ending) {
        cb && queueMicrotask(() => cb(new Error('write after end')))
        return false
      }
      pending.push(x)
      pendingBytes += x.length
      cb && pending.push(cb)
      flushing || conn === null || (flushing = true, queueMicrotask(flush))
      return pendingBytes < HIGH_WATER_MARK || (needsDrain = true, false)
    },
    end(x) {
      x && socket.write(x)
      ending = true
      flushing || conn === null || (flushing = true, queueMicrotask(flush))
      return socket
    },
    destroy() {
      if (socket.readyState === 'closed')
        return socket
      if (conn === null) {
        // Still connecting: Node emits 'close' at once; the connection, if it comes, is dropped.
        socket.readyState = 'closed'
        queueMicrotask(() => emit('close', hadError))
        return socket
      }
      socket.readyState = 'closing'
      try {
        conn.close()
      } catch {
        // Already closed by the read loop.
      }
      return socket
    },
    pause() {
      paused || (paused = new Promise(r => resume = r))
    },
    resume() {
      resume && resume()
      paused = resume = null
    },
    isPaused: () => !!paused,
    setKeepAlive(enable) {
      // Deno has no keep-alive delay; the OS default idle time applies.
      conn && isTcp && conn.setKeepAlive && conn.setKeepAlive(!!enable)
      return socket
    },
    setNoDelay(x = true) {
      conn && isTcp && conn.setNoDelay && conn.setNoDelay(x)
      return socket
    },
    on(x, fn) {
      events[x].push(fn)
      return socket
    },
    once(x, fn) {
      const e = events[x]
      function once(...args) {
        const i = e.indexOf(once)
        i > -1 && e.splice(i, 1)
        fn(...args)
      }
      once.listener = fn
      e.push(once)
      return socket
    },
    removeListener(x, fn) {
      const e = events[x]
      const i = e.findIndex(f => f === fn || f.listener === fn)
      i > -1 && e.splice(i, 1)
      return socket
    },
    removeAllListeners(x) {
      (x ? [x] : names).forEach(n => events[n] = [])
      return socket
    }
  }

  return socket

  function emit(x, arg) {
    const e = events[x]
    if (e.length === 1)
      return e[0](arg)
    e.slice().forEach(fn => fn(arg))
  }

  function fail(err) {
    hadError = true
    emit('error', err)
  }

  function closed() {
    if (socket.readyState === 'closed' && conn === null)
      return
    socket.readyState = 'closed'
    conn = null
    pending = []
    pendingBytes = 0
    emit('close', hadError)
  }

  function opened(raw) {
    if (socket.readyState !== 'opening') {
      try { raw.close() } catch { /* gone */ }
      return
    }
    conn = raw
    // libpq sets TCP_NODELAY too: a pipelined batch goes out whole, not held behind an ACK.
    isTcp && conn.setNoDelay && conn.setNoDelay(true)
    socket.readyState = 'open'
    pending.length && !flushing && (flushing = true, queueMicrotask(flush))
    emit('connect')
    read(raw)
  }

  async function read(raw) {
    const buffer = new Uint8Array(READ_SIZE)
    try {
      for (;;) {
        const n = await raw.read(buffer)
        if (n === null)
          break
        // A copy: postgres.js keeps a partial message across reads.
        const x = Buffer.allocUnsafe(n)
        x.set(n === READ_SIZE ? buffer : buffer.subarray(0, n))
        emit('data', x)
        paused && await paused
        if (conn !== raw)
          break
      }
    } catch (err) {
      // BadResource/Interrupted: destroy() closed it; anything else (a reset) is an error.
      if (!(err instanceof Deno.errors.BadResource || err instanceof Deno.errors.Interrupted) && conn === raw)
        fail(nodeError(err, 'read', where))
    }
    try { raw.close() } catch { /* already closed */ }
    if (conn === raw)
      closed()
  }

  async function flush() {
    const raw = conn
    try {
      while (pending.length && conn === raw) {
        const items = pending
        const size = pendingBytes
        pending = []
        pendingBytes = 0
        let data = null
        const cbs = []
        if (items.length === 1 || (items.length === 2 && typeof items[1] === 'function')) {
          data = items[0]
          items[1] && cbs.push(items[1])
        } else {
          data = new Uint8Array(size)
          let offset = 0
          for (const x of items) {
            if (typeof x === 'function') {
              cbs.push(x)
            } else {
              data.set(x, offset)
              offset += x.length
            }
          }
        }
        let written = 0
        while (written < data.length)
          written += await raw.write(written ? data.subarray(written) : data)
        cbs.forEach(cb => cb(null))
        if (needsDrain && pendingBytes < HIGH_WATER_MARK) {
          needsDrain = false
          emit('drain')
        }
      }
      if (ending && conn === raw) {
        // Like Node's end(): shut our side once everything is written; the server closes its
        // side and the read loop ends with 'close'.
        try {
          raw.closeWrite()
        } catch {
          raw.close()
        }
      }
    } catch (err) {
      if (conn === raw) {
        fail(nodeError(err, 'write', where))
        try { raw.close() } catch { /* already closed */ }
      }
    } finally {
      flushing = false
    }
  }
}

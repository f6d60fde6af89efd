/**
 * The named prepared statements of each connection to the embedded database, so that those of a
 * connection that goes are deallocated (db/embedded.ts, CycleQueue).
 *
 * PGlite is one Postgres session, and every connection (this process's pool in process, a CLI
 * over pglite-socket) is multiplexed onto it: a statement a connection prepares outlives the
 * connection, since no session ends. postgres.js names its statements with a random prefix per
 * connection, so each new connection prepares every statement it runs again under new names.
 * Each `deno task seed` or `deno task user` left its statements behind, and the pool, which
 * postgres.js recycles every 30 to 60 minutes by default (`max_lifetime`), left a copy of all of
 * the server's: some 150 statements and 5 MB of PGlite's plan memory each time (read from
 * pg_prepared_statements and pg_backend_memory_contexts), in WebAssembly memory that never
 * shrinks.
 */

const PARSE = 0x50; // 'P'
const CLOSE = 0x43; // 'C'
const STATEMENT = 0x53; // 'S', a Close of a statement (not a portal)

/** The statements a connection has prepared by name, read from the messages it sends. */
export class PreparedStatements {
  #byConnection = new Map<number, Set<string>>();

  /**
   * Follows connection `id`'s frontend `message` (whole protocol messages, as the queue gets
   * them): a Parse with a name adds it, a Close of a statement removes it. Anything that does not
   * frame as typed messages (the startup message, an SSL request) is passed over.
   */
  see(id: number, message: Uint8Array): void {
    const view = new DataView(message.buffer, message.byteOffset, message.byteLength);
    let at = 0;
    while (at + 5 <= message.length) {
      const type = message[at];
      const length = view.getInt32(at + 1);
      const end = at + 1 + length;
      if (length < 4 || end > message.length) return;
      if (type === PARSE) {
        const name = cString(message, at + 5, end);
        if (name) {
          let names = this.#byConnection.get(id);
          if (!names) this.#byConnection.set(id, names = new Set());
          names.add(name);
        }
      } else if (type === CLOSE && message[at + 5] === STATEMENT) {
        const name = cString(message, at + 6, end);
        if (name) this.#byConnection.get(id)?.delete(name);
      }
      at = end;
    }
  }

  /** The statement names connection `id` left prepared, forgotten here. */
  takeAll(id: number): string[] {
    const names = this.#byConnection.get(id);
    this.#byConnection.delete(id);
    return names ? [...names] : [];
  }
}

/** `DEALLOCATE` statements for `names`, one per name (identifiers quoted). */
export function deallocateSql(names: readonly string[]): string[] {
  return names.map((name) => `deallocate "${name.replaceAll('"', '""')}"`);
}

const decoder = new TextDecoder();

/** The NUL-terminated string at `start`, or undefined when none ends before `end`. */
function cString(bytes: Uint8Array, start: number, end: number): string | undefined {
  const nul = bytes.indexOf(0, start);
  if (nul < 0 || nul >= end) return undefined;
  return decoder.decode(bytes.subarray(start, nul));
}

/**
 * A relation's size, as PGlite's files answer it, without node:fs `fstatSync`.
 *
 * Postgres asks a relation file's size with `lseek(fd, 0, SEEK_END)` (md.c `mdnblocks`) at every
 * scan and at every rescan of one (the inner side of a nested loop asks once per outer row): on
 * the demo's data 41 times per /leads view, 93 per /surveyor-dashboard, 3 per `GET /api/user`.
 * On a data directory on disk PGlite's files are Emscripten's NODEFS, whose `llseek` answers
 * SEEK_END with node:fs `fstatSync(fd).size`: 8.4 µs per call under Deno 2.9 (`Deno.statSync`
 * of the path 1.1 µs, `FsFile.seekSync` 0.2 µs). It was a quarter of the embedded server's busy
 * time on /leads (bench/signed_in_pages.ts --profile: `op_node_fs_fstat_sync` 24.6%, and the
 * Stats objects it builds 2.5%).
 *
 * Here a file's first SEEK_END opens the same file again, read-only, as a `Deno.FsFile`, and
 * keeps it beside NODEFS's descriptor if both are the very same file (the same device and
 * inode from both `fstat`s); from then on SEEK_END is that handle's `seekSync(0, End)`, exact
 * as `lseek` is: an open file is its inode whatever happens to its path, and a file's size is
 * its inode's. Its offset is its own (NODEFS reads and writes at explicit positions). It is
 * closed when NODEFS closes the descriptor, and all that are left when the database closes.
 * The price is a second descriptor per file Postgres holds open (at most
 * `max_files_per_process`, 1,000). A system that gives no inode numbers, or a file that cannot
 * be opened again, gets NODEFS's own answer, as before; every other seek is NODEFS's.
 *
 * And the size is asked again only after something may have changed it: every NODEFS
 * operation but the few that only read (a write, a truncation, an open, a rename, …) counts as
 * a change, and a descriptor's last answer stands until the next one. Only this process
 * changes these files (db/embedded.ts: one writer per DATA_DIR, under an OS lock), and only
 * through NODEFS, so between changes no size can move. On a page that only reads, that is no
 * system call at all after the first view: the handles' `seekSync` was still 11% of the busy
 * time on /leads.
 */
import fs from "node:fs";

const SEEK_END = 2;
const EINVAL = 28;

/** The part of an Emscripten NODEFS stream this reads. */
interface NodefsStream {
  nfd: number;
  node: { mode: number };
}

type Llseek = (stream: NodefsStream, offset: number, whence: number) => number;
type Close = (stream: NodefsStream) => void;
// deno-lint-ignore no-explicit-any
type Operation = (...args: any[]) => any;

/** The part of PGlite's Emscripten module this patches (`pg.Module`). */
export interface PgliteFsModule {
  FS: {
    isFile(mode: number): boolean;
    ErrnoError: new (errno: number) => Error;
  };
  NODEFS: {
    realPath(node: unknown): string;
    node_ops: Record<string, Operation>;
    stream_ops: Record<string, Operation> & { llseek: Llseek; close: Close };
  };
}

// The close-all of each module patched, by its NODEFS stream operations.
const patched = new WeakMap<object, () => void>();

// NODEFS operations that cannot change any file's size; every other one (write, truncate,
// open, create, rename, unlink, mmap, …, and any a later PGlite adds) counts as a change.
const NODE_READS = new Set(["getattr", "lookup", "readdir", "readlink", "statfs"]);
const STREAM_READS = new Set(["getattr", "read", "llseek", "close", "dup"]);

/** A descriptor's second handle, and the size it last read with the change count then. */
interface Sizer {
  file: Deno.FsFile | null;
  size: number;
  changes: number;
}

/**
 * Makes NODEFS's SEEK_END read the size from a second handle on the same file (see the file's
 * comment). Once per module; NODEFS's operations are shared by every file and directory of the
 * module. Returns what closes the handles still open, for when the database closes.
 */
export function fastSeekEnd(module: PgliteFsModule): () => void {
  const { node_ops: nodeOps, stream_ops: streamOps } = module.NODEFS;
  const already = patched.get(streamOps);
  if (already) return already;
  const sizers = new Map<NodefsStream, Sizer>();
  const closeAll = () => {
    for (const sizer of sizers.values()) sizer.file?.close();
    sizers.clear();
  };
  patched.set(streamOps, closeAll);

  // Operations that may have changed a file's size since the last SEEK_END.
  let changes = 0;
  for (const [ops, reads] of [[nodeOps, NODE_READS], [streamOps, STREAM_READS]] as const) {
    for (const [name, op] of Object.entries<Operation>(ops)) {
      if (reads.has(name) || typeof op !== "function") continue;
      ops[name] = function (this: unknown, ...args: unknown[]) {
        changes++;
        return op.apply(this, args);
      };
    }
  }
  const nodefsLlseek = streamOps.llseek;
  const nodefsClose = streamOps.close;

  // A read-only handle on the file `stream` has open, or null when none can vouch for it.
  function handleFor(stream: NodefsStream): Deno.FsFile | null {
    let file: Deno.FsFile | undefined;
    try {
      file = Deno.openSync(module.NODEFS.realPath(stream.node), { read: true });
      const ours = file.statSync();
      const theirs = fs.fstatSync(stream.nfd);
      if (ours.ino !== null && ours.ino === theirs.ino && ours.dev === theirs.dev) return file;
    } catch {
      // Not there, or not readable: NODEFS's answer every time.
    }
    file?.close();
    return null;
  }

  streamOps.llseek = function (stream, offset, whence) {
    if (whence !== SEEK_END || !module.FS.isFile(stream.node.mode)) {
      return nodefsLlseek.call(this, stream, offset, whence);
    }
    let sizer = sizers.get(stream);
    if (sizer === undefined) {
      sizer = { file: handleFor(stream), size: 0, changes: -1 };
      sizers.set(stream, sizer);
    }
    if (sizer.file === null) return nodefsLlseek.call(this, stream, offset, whence);
    if (sizer.changes !== changes) {
      sizer.size = sizer.file.seekSync(0, Deno.SeekMode.End);
      sizer.changes = changes;
    }
    const position = offset + sizer.size;
    if (position < 0) throw new module.FS.ErrnoError(EINVAL);
    return position;
  };

  streamOps.close = function (stream) {
    const sizer = sizers.get(stream);
    if (sizer !== undefined) {
      sizers.delete(stream);
      sizer.file?.close();
    }
    return nodefsClose.call(this, stream);
  };
  return closeAll;
}

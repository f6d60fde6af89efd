/**
 * A relation's size, as PGlite's files answer it, without node:fs `fstatSync`.
 *
 * Postgres asks a relation file's size with `lseek(fd, 0, SEEK_END)` (md.c `mdnblocks`) at every
 * scan and at every rescan of one: the inner side of a nested loop asks once per outer row, so
 * /leads asks about a hundred times per view. On a data directory on disk PGlite's files are
 * Emscripten's NODEFS, whose `llseek` answers SEEK_END with node:fs `fstatSync(fd).size`: 8.4
 * µs per call under Deno 2.9 (`Deno.statSync` of the path: 1.1 µs; a real `lseek` on Postgres:
 * a fraction of one). It was a quarter of the embedded server's busy time on /leads
 * (bench/signed_in_pages.ts --profile: `op_node_fs_fstat_sync`, 24.6%, and the Stats object
 * it builds, 2.5%).
 *
 * Here a file's first SEEK_END opens the same file again, read-only, as a `Deno.FsFile`, and
 * keeps it beside NODEFS's descriptor if both are the very same file (the same device and
 * inode from both `fstat`s); from then on SEEK_END is that file's `seekSync(0, End)`, 0.2 µs,
 * exact as `lseek` is: an open file is its inode whatever happens to its path, and a file's
 * size is its inode's. Its offset is its own (NODEFS reads and writes at explicit positions).
 * It is closed when NODEFS closes the descriptor, and all that are left when the database
 * closes. The price is a second descriptor per file Postgres holds open (Postgres keeps at most
 * `max_files_per_process`, 1,000). A system that gives no inode numbers, or a file that cannot
 * be opened again, gets NODEFS's own answer, as before; every other seek is NODEFS's.
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

/** The part of PGlite's Emscripten module this patches (`pg.Module`). */
export interface PgliteFsModule {
  FS: {
    isFile(mode: number): boolean;
    ErrnoError: new (errno: number) => Error;
  };
  NODEFS: {
    realPath(node: unknown): string;
    stream_ops: { llseek: Llseek; close: Close };
  };
}

// The close-all of each module patched, by its NODEFS stream operations.
const patched = new WeakMap<object, () => void>();

/**
 * Makes NODEFS's SEEK_END read the size from a second handle on the same file (see the file's
 * comment). Once per module; NODEFS's stream operations are shared by every file of the
 * module. Returns what closes the handles still open, for when the database closes.
 */
export function fastSeekEnd(module: PgliteFsModule): () => void {
  const streamOps = module.NODEFS.stream_ops;
  const already = patched.get(streamOps);
  if (already) return already;
  const sizers = new Map<NodefsStream, Deno.FsFile | null>();
  const closeAll = () => {
    for (const file of sizers.values()) file?.close();
    sizers.clear();
  };
  patched.set(streamOps, closeAll);
  const nodefsLlseek = streamOps.llseek;
  const nodefsClose = streamOps.close;

  // A read-only handle on the file `stream` has open, or null when none can vouch for it.
  function sizerFor(stream: NodefsStream): Deno.FsFile | null {
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
      sizer = sizerFor(stream);
      sizers.set(stream, sizer);
    }
    if (sizer === null) return nodefsLlseek.call(this, stream, offset, whence);
    const position = offset + sizer.seekSync(0, Deno.SeekMode.End);
    if (position < 0) throw new module.FS.ErrnoError(EINVAL);
    return position;
  };

  streamOps.close = function (stream) {
    const sizer = sizers.get(stream);
    if (sizer !== undefined) {
      sizers.delete(stream);
      sizer?.close();
    }
    return nodefsClose.call(this, stream);
  };
  return closeAll;
}

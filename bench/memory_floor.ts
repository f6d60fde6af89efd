/**
 * The floors under bench/memory.ts's figures, each run by it in a process of its own (this file
 * imports nothing at start, so the process holds only what is measured):
 *
 *   --bare-serve         a bare `Deno.serve` after one request: this runtime's own cost
 *   --pglite <dir>       PGlite alone, opened on <dir> with the server's settings and extensions,
 *                        then a read of every table and a few sorts
 *   --mail               what the first emails add: every template's sample rendered once
 *                        (the components and jsx-email's renderer load on the first email)
 *   --mail-worker        the same, rendered in a Worker that is then ended: what a renderer
 *                        that leaves when idle would give back (it gives back nothing; below)
 *   --with-app           (after --mail or --mail-worker) first import the server's modules
 *                        (main.ts), so the figures are those of the server's process
 *
 * MEMORY_ROOT (a file: URL) is the checkout whose db/embedded.ts gives PGlite's settings.
 */
const ROOT = new URL(Deno.env.get("MEMORY_ROOT") ?? "../", import.meta.url);
const MB = 1024 * 1024;
const sleep = (s: number) => new Promise((r) => setTimeout(r, s * 1000));

async function procStatusMb(field: "VmRSS" | "VmHWM"): Promise<number> {
  const status = await Deno.readTextFile("/proc/self/status");
  return Number(new RegExp(`${field}:\\s+(\\d+)\\s+kB`).exec(status)?.[1] ?? NaN) / 1024;
}

/** Resident memory of this process, and its peak, in MB. */
async function ownRss(): Promise<{ rss: number; peak: number }> {
  return {
    rss: await procStatusMb("VmRSS"),
    peak: await procStatusMb("VmHWM"),
  };
}

/**
 * The runtime's floor: a bare `Deno.serve` after one request (this process). The request is
 * written on a plain TCP connection: `fetch` would load Deno's HTTP client and TLS roots, which
 * the server never does (about 16 MB more).
 */
async function bareServeProbe(): Promise<void> {
  const server = Deno.serve({ port: 0, onListen: () => {} }, () => new Response("ok"));
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
  await conn.write(
    new TextEncoder().encode("GET / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n"),
  );
  await conn.readable.pipeTo(new WritableStream());
  await sleep(1);
  const { rss, peak } = await ownRss();
  console.log(
    `  floor: bare Deno.serve (own process)        ${rss.toFixed(0)} MB (peak ${peak.toFixed(0)})`,
  );
  await server.shutdown();
}

/**
 * PGlite's floor: opened on `dataDir` (a copy of the server's, migrated) with the server's
 * settings and extensions, then a read of every table and a few sorts (this process).
 */
async function pgliteProbe(dataDir: string): Promise<void> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { cube } = await import("@electric-sql/pglite/contrib/cube");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { PGLITE_SETTINGS } = await import(new URL("db/embedded.ts", ROOT).href);
  const pg = await PGlite.create(dataDir, {
    extensions: { cube, pg_trgm },
    startParams: [
      ...PGlite.defaultStartParams,
      ...(PGLITE_SETTINGS as string[]).flatMap((s) => ["-c", s]),
    ],
  });
  const opened = await ownRss();
  const tables = await pg.query<{ name: string }>(
    "select tablename as name from pg_tables where schemaname = 'public'",
  );
  for (const { name } of tables.rows) await pg.query(`select * from "${name}" limit 100`);
  for (let i = 0; i < 50; i++) {
    await pg.query("select md5(g::text) from generate_series(1, 5000) g order by 1 limit 5");
  }
  await sleep(1);
  const used = await ownRss();
  const wasm = pg.Module.wasmMemory.buffer.byteLength / MB;
  const m = Deno.memoryUsage();
  console.log(
    `  floor: PGlite alone (own process)           ${opened.rss.toFixed(0)} MB opened, ` +
      `${used.rss.toFixed(0)} MB after queries (peak ${used.peak.toFixed(0)}); JS heap ` +
      `${(m.heapUsed / MB).toFixed(0)} MB, external ${(m.external / MB).toFixed(0)} MB, ` +
      `WASM ${wasm.toFixed(0)} MB`,
  );
  await pg.close();
}

/**
 * V8's collector (--expose-gc-as in the server's flags renames what --expose-gc exposes), after
 * the server's modules are imported when `withApp`, so that what follows is measured on top of
 * them as in the server's process.
 */
async function collector(withApp: boolean): Promise<() => void> {
  if (withApp) await import(new URL("main.ts", ROOT).href);
  const global = globalThis as { gc?: () => void; __meridianGc?: () => void };
  return (global.gc ?? global.__meridianGc)!;
}

/** Heap used and resident memory after full collections and a pause. */
async function settled(gc: () => void): Promise<{ heap: number; rss: number }> {
  for (let i = 0; i < 3; i++) {
    gc();
    await sleep(0.2);
  }
  return { heap: Deno.memoryUsage().heapUsed / MB, rss: (await ownRss()).rss };
}

/**
 * The email renderer's cost: JS heap used and resident memory before and after every template's
 * sample is rendered once (this process, after full collections).
 */
async function mailProbe(withApp: boolean): Promise<void> {
  const gc = await collector(withApp);
  const { renderEmail, TEMPLATES, TEMPLATE_IDS } = await import(
    new URL("lib/mail/render.tsx", ROOT).href
  );
  const before = await settled(gc);
  for (const id of TEMPLATE_IDS) await renderEmail(id, TEMPLATES[id].sample);
  const after = await settled(gc);
  console.log(
    `  email renderer (own process${withApp ? ", server's modules loaded" : ""}): +${
      (after.heap - before.heap).toFixed(1)
    } MB heap used, ` +
      `+${(after.rss - before.rss).toFixed(0)} MB resident (${TEMPLATE_IDS.length} templates)`,
  );
}

/**
 * The email renderer in a Worker, ended once every template's sample is rendered: heap used and
 * resident memory before, while the worker lives and after it ended (this process, after full
 * collections and a pause). Measured with --with-app: the worker's start and first emails take
 * 0.9–1.9 s, and after it ended the process holds 27–30 MB more than before, where rendering in
 * the process itself (--mail --with-app) leaves 18–19 MB (the ended isolate's memory stays with
 * the process's allocator). So rendering outside the server's own isolate would cost memory,
 * not save it.
 */
async function mailWorkerProbe(withApp: boolean): Promise<void> {
  const gc = await collector(withApp);
  const before = await settled(gc);
  const started = performance.now();
  const source = `
    const { renderEmail, TEMPLATES, TEMPLATE_IDS } = await import(${
    JSON.stringify(new URL("lib/mail/render.tsx", ROOT).href)
  });
    for (const id of TEMPLATE_IDS) await renderEmail(id, TEMPLATES[id].sample);
    self.postMessage(TEMPLATE_IDS.length);`;
  const worker = new Worker(
    `data:application/typescript,${encodeURIComponent(source)}`,
    { type: "module" },
  );
  const templates = await new Promise<number>((resolve, reject) => {
    worker.onmessage = (e) => resolve(e.data);
    worker.onerror = (e) => reject(new Error(e.message));
  });
  const ms = performance.now() - started;
  const alive = (await ownRss()).rss;
  worker.terminate();
  await sleep(2);
  const after = await settled(gc);
  console.log(
    `  email renderer in a worker, then ended${withApp ? " (server's modules loaded)" : ""}: ${
      ms.toFixed(0)
    } ms to start and render, ` +
      `+${(alive - before.rss).toFixed(0)} MB resident while it lived, ` +
      `+${(after.rss - before.rss).toFixed(0)} MB after it ended, ` +
      `+${(after.heap - before.heap).toFixed(1)} MB heap used (${templates} templates)`,
  );
}

if (import.meta.main) {
  if (Deno.args[0] === "--bare-serve") await bareServeProbe();
  else if (Deno.args[0] === "--pglite") await pgliteProbe(Deno.args[1]);
  else if (Deno.args[0] === "--mail") await mailProbe(Deno.args[1] === "--with-app");
  else if (Deno.args[0] === "--mail-worker") await mailWorkerProbe(Deno.args[1] === "--with-app");
  else {
    throw new Error(
      "usage: memory_floor.ts --bare-serve | --pglite <dir> | --mail | --mail-worker [--with-app]",
    );
  }
  Deno.exit(0);
}

/**
 * Buffered stdout logger for the per-request line: a synchronous write per request costs more
 * than the request itself under load, so lines are batched and flushed every 100 ms, at 256
 * lines, or at exit.
 */
const encoder = new TextEncoder();
let buffer: string[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;

/** Writes everything buffered now. */
export function flushLog(): void {
  if (timer !== undefined) {
    clearTimeout(timer);
    timer = undefined;
  }
  if (buffer.length === 0) return;
  const text = buffer.join("\n") + "\n";
  buffer = [];
  const bytes = encoder.encode(text);
  let written = 0;
  while (written < bytes.length) written += Deno.stdout.writeSync(bytes.subarray(written));
}

/** Queues one log line. */
export function logLine(line: string): void {
  buffer.push(line);
  if (buffer.length >= 256) flushLog();
  else if (timer === undefined) {
    timer = setTimeout(flushLog, 100);
    Deno.unrefTimer(timer);
  }
}

globalThis.addEventListener("unload", flushLog);

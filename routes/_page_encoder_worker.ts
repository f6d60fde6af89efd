/**
 * The page encoder's worker (routes/_page_encoder.ts): encodes and gzips the pages the main
 * thread renders, on another core, and hands the bytes back (transferred, not copied).
 */
import { encodePage } from "./_page_encoding.ts";

/** A job: a rendered page and its gzip level. */
export interface EncodeJob {
  id: number;
  text: string;
  level: number;
}

/** The answer to a job: the page's bytes, or why there are none. */
export type EncodeAnswer =
  | { id: number; html: Uint8Array<ArrayBuffer>; gzip: Uint8Array<ArrayBuffer>; etag: string }
  | { id: number; error: string };

// The worker's global scope, typed here: deno.json's libs are the window's (dom), not a worker's.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<EncodeJob>) => void) | null;
  postMessage(message: EncodeAnswer, transfer?: Transferable[]): void;
};

scope.onmessage = ({ data: { id, text, level } }) => {
  let answer: EncodeAnswer;
  try {
    answer = { id, ...encodePage(text, level) };
  } catch (err) {
    scope.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
    return;
  }
  scope.postMessage(answer, [answer.html.buffer, answer.gzip.buffer]);
};

/**
 * A server that only parses uploads, for bench/upload_memory.ts: `deno run -A
 * bench/_upload_parser.ts <module URL> <port>` loads a lib/multipart.ts (the busboy reader, or
 * the hand-written one it replaced, whose API differs) and answers every POST with the bytes of
 * its file parts, each read to its end and dropped. GET answers 200 (ready).
 */
const [moduleUrl, port] = Deno.args;
const parser = await import(moduleUrl);
const isLegacy = typeof parser.readTextPart === "function";

async function countFileBytes(req: Request): Promise<number> {
  const contentType = req.headers.get("content-type") ?? "";
  const options = { maxBytes: 30 * 1024 * 1024, maxParts: 8 };
  const parts = isLegacy
    ? parser.parseMultipart(req.body, {
      ...options,
      boundary: parser.multipartBoundary(contentType),
    })
    : parser.parseMultipart(req.body, { ...options, contentType });
  let bytes = 0;
  for await (const part of parts) {
    if (isLegacy ? part.filename === undefined : part.type === "field") {
      if (isLegacy) await parser.readTextPart(part, 200);
      continue;
    }
    for await (const chunk of part.body as ReadableStream<Uint8Array>) bytes += chunk.byteLength;
  }
  return bytes;
}

Deno.serve({ port: Number(port), hostname: "127.0.0.1", onListen() {} }, async (req) => {
  if (req.method !== "POST") return new Response("ready");
  try {
    return Response.json({ bytes: await countFileBytes(req) });
  } catch (err) {
    return Response.json({ message: String(err) }, { status: 400 });
  }
});

/**
 * The S3 stand-in's process (tests/_s3rver.ts starts it; no test module may import this one):
 * `deno run -A tests/_s3rver_process.ts DIR BUCKET` serves BUCKET from DIR with s3rver on a free
 * port of 127.0.0.1, prints `{"port": N}` once listening, and stops when its stdin closes.
 */
import S3rver from "s3rver";

const [directory, bucket] = Deno.args;
const server = new S3rver({
  port: 0,
  address: "127.0.0.1",
  silent: true,
  directory,
  configureBuckets: [{ name: bucket }],
});
const { port } = await server.run();
console.log(JSON.stringify({ port }));
// Until the test closes stdin (or ends).
for await (const _ of Deno.stdin.readable) { /* nothing is sent */ }
await server.close();

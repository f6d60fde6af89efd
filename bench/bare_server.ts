/**
 * The baseline: Deno.serve returning fixed bytes — the landing page's body and headers as the
 * app sent them. Usage: bare_server.ts <body file> <headers json file> <port>
 */
const [file, headersFile, port] = Deno.args;
const body = await Deno.readFile(file);
const headers = new Headers(JSON.parse(await Deno.readTextFile(headersFile)));
Deno.serve(
  { port: Number(port), hostname: "127.0.0.1", onListen: () => console.log("ready") },
  () => new Response(body, { headers }),
);

/**
 * The site's public URL when PUBLIC_URL is not set (issue 19): the address the server really
 * listens on, so the URL it prints, the links in its emails and the origin its CSRF check
 * accepts are one and the same. On a loopback (or every-interface) address the other loopback
 * spellings of that origin reach the same server and are accepted too. With PUBLIC_URL set,
 * nothing here widens anything: that origin alone is accepted.
 */
import type { Config } from "./config.ts";
import { readHolder } from "../db/embedded.ts";

/** The host names and addresses that always mean this machine. */
const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

/** Whether `host` (a HOST value or a URL hostname) is a loopback name or address. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}

/** Whether `host` means every interface (0.0.0.0, ::), which includes loopback. */
export function isWildcardHost(host: string): boolean {
  const h = host.replace(/^\[(.*)\]$/, "$1");
  return h === "0.0.0.0" || /^[0:]+$/.test(h);
}

/**
 * `http://HOST:PORT`, the URL a browser on this machine opens to reach a server listening on
 * HOST and PORT: an IPv6 address in brackets, and `localhost` for the every-interface hosts,
 * which are not addresses a browser can open (Chromium refuses 0.0.0.0).
 */
export function listenUrl(host: string, port: number): string {
  let h = host;
  if (isWildcardHost(host)) h = "localhost";
  else if (host.includes(":") && !host.startsWith("[")) h = `[${host}]`;
  return new URL(`http://${h}:${port}`).href.replace(/\/$/, "");
}

/**
 * `config` once the server listens on `port` (the real one, which PORT=0 leaves to the OS):
 * without PUBLIC_URL its public URL becomes `http://HOST:port`. With PUBLIC_URL it is
 * returned as it is.
 */
export function withListenPort(config: Config, port: number): Config {
  if (config.isPublicUrlSet) return config;
  return { ...config, PUBLIC_URL: listenUrl(config.HOST, port) };
}

/**
 * "Meridian listening on <url>": the URL to open, which is where the server listens on `port`
 * unless PUBLIC_URL says otherwise (a proxy) or it listens on every interface; then both.
 */
export function listeningLine(config: Config, port: number): string {
  const isSame = !isWildcardHost(config.HOST) &&
    new URL(listenUrl(config.HOST, port)).origin === new URL(config.PUBLIC_URL).origin;
  if (isSame) return `Meridian listening on ${config.PUBLIC_URL}`;
  const host = config.HOST.includes(":") && !config.HOST.startsWith("[")
    ? `[${config.HOST}]`
    : config.HOST;
  return `Meridian listening on ${host}:${port}; open ${config.PUBLIC_URL}`;
}

/**
 * The origins a state-changing request may come from: PUBLIC_URL's origin; without
 * PUBLIC_URL, also the loopback spellings of it on the same port when the server listens on
 * loopback (a loopback HOST, or every interface). A server on a LAN address gets no loopback
 * origins: it cannot be reached there, so a page on this machine's loopback is another
 * program's, and stays cross-site.
 */
export function acceptedOrigins(config: Pick<Config, "PUBLIC_URL" | "isPublicUrlSet" | "HOST">) {
  const url = new URL(config.PUBLIC_URL);
  const origins = new Set([url.origin]);
  const isListeningOnLoopback = isLoopbackHost(config.HOST) || isWildcardHost(config.HOST);
  if (!config.isPublicUrlSet && isListeningOnLoopback && url.protocol === "http:") {
    // A port of "" is http's 80, spelt without it in an Origin too.
    const port = url.port ? `:${url.port}` : "";
    for (const host of LOOPBACK_HOSTS) origins.add(`http://${host}${port}`);
  }
  return origins;
}

/**
 * The one warning line for a production server without PUBLIC_URL on a host other people
 * reach (not loopback), or undefined when there is nothing to warn about.
 */
export function publicUrlWarning(config: Config): string | undefined {
  if (config.NODE_ENV !== "production" || config.isPublicUrlSet || isLoopbackHost(config.HOST)) {
    return undefined;
  }
  return `Warning: PUBLIC_URL is not set, so with HOST=${config.HOST} links in emails name ` +
    "this server's listening address and sign-in and forms are refused from any other; set " +
    "PUBLIC_URL to the address people open (for example PUBLIC_URL=https://meridian.example.com).";
}

/**
 * The URL a command (`deno task seed`, `deno task user`) prints for the site: PUBLIC_URL when
 * set; else, on the embedded database, the URL the server running on DATA_DIR recorded
 * (db/embedded.ts); else `http://HOST:PORT` from the same environment, or undefined when
 * PORT is 0 (the port is the OS's choice, known only to the server). Call it after opening
 * the database: a command that took DATA_DIR itself (no server running) finds its own record.
 */
export async function commandPublicUrl(config: Config): Promise<string | undefined> {
  if (config.isPublicUrlSet) return config.PUBLIC_URL;
  if (!config.DATABASE_URL) {
    const holder = await readHolder(config.DATA_DIR);
    if (holder && holder.pid !== Deno.pid && typeof holder.url === "string") return holder.url;
  }
  return config.PORT === 0 ? undefined : config.PUBLIC_URL;
}

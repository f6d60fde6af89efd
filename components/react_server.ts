/**
 * React's `renderToString`, from the copy of react-dom's server build in vendor/react-dom-server/
 * whose one change writes every character above U+00FF (an em dash, an ellipsis, a minus sign,
 * a star) as a numeric character reference, so that a page is a one-byte string in V8. Every
 * server render of the app goes through here; the browser reads the same text either way.
 *
 * Why (vendor/react-dom-server/README.md has the figures): one such character made the whole
 * page a two-byte string, and every copy of it (React's result, the islands' props written in,
 * the document around it) twice as large; Deno then sends it through a slower path. Every heavy
 * signed-in page had some ("—" for a missing value, "Change status…", "−$39").
 *
 * The build is chosen as `react-dom/server` chooses it: production when NODE_ENV is
 * "production" at first import, development otherwise (its warnings, as before). React itself
 * is the app's own copy (the vendored file requires "react" and "react-dom" from node_modules).
 */
import type { ReactNode } from "react";
import type { ServerOptions } from "react-dom/server";

interface LegacyServer {
  renderToString(node: ReactNode, options?: ServerOptions): string;
  version: string;
}

const server: LegacyServer = Deno.env.get("NODE_ENV") === "production"
  ? (await import("../vendor/react-dom-server/react-dom-server-legacy.node.production.cjs"))
    .default
  : (await import("../vendor/react-dom-server/react-dom-server-legacy.node.development.cjs"))
    .default;

/** `renderToString` of react-dom/server, writing characters above U+00FF as references. */
export const renderToString: (node: ReactNode, options?: ServerOptions) => string =
  server.renderToString;

/** The React version of the vendored build (it must equal the app's React: a test checks). */
export const serverRendererVersion: string = server.version;

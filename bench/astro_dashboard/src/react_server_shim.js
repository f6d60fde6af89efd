// Stands in for Meridian's components/react_server.ts under node (see astro.config.mjs).
export { renderToString } from "react-dom/server";

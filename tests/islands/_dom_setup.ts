/**
 * Installs happy-dom's globals when it loads (tests/islands/_dom.ts). The island tests' shared
 * isolate imports it first (tests/_run.ts): a module that reads the DOM when it loads must find
 * it, and with top-level await a later file's static imports (React DOM, which decides once
 * whether the `input` event exists) may be evaluated while an earlier file awaits, before that
 * file's own `setupDom()` call.
 */
import { setupDom } from "./_dom.ts";

setupDom();

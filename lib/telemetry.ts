/**
 * OpenTelemetry on Deno's built-in exporter (`OTEL_DENO=true`): Deno makes a span for every
 * HTTP request and ships spans, logs and metrics over OTLP by itself. This module adds what
 * only the app knows: the request id and route on the request's span, and a span per SQL
 * statement so database time shows in the trace. With OTEL_DENO unset nothing here is
 * installed and the request path pays one boolean test.
 */
import { type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { Sql } from "../db/client.ts";

/** Whether Deno exports telemetry in this process (it accepts only the value "true"). */
export const isTelemetryOn: boolean = readOtelFlag();

function readOtelFlag(): boolean {
  try {
    return Deno.env.get("OTEL_DENO") === "true";
  } catch {
    // No env permission: Deno could not have been told to export either.
    return false;
  }
}

/** Attribute naming the app's request id (the `X-Request-Id` answer header) on a span. */
export const REQUEST_ID_ATTRIBUTE = "meridian.request_id";

const tracer = trace.getTracer("meridian");

/**
 * Tags the current request's span with its request id, so a log line or a user's error
 * report leads straight to the trace. A no-op when telemetry is off.
 */
export function tagRequestSpan(requestId: string): void {
  if (!isTelemetryOn) return;
  trace.getActiveSpan()?.setAttribute(REQUEST_ID_ATTRIBUTE, requestId);
}

/**
 * Names the current request's span after its route pattern (`GET /api/surveys/:id`) and sets
 * `http.route`: Deno names it by the method alone, which groups every endpoint together.
 * A no-op when telemetry is off or no route matched.
 */
export function nameRequestSpan(method: string, route: string | undefined): void {
  if (!isTelemetryOn || !route) return;
  const span = trace.getActiveSpan();
  if (!span) return;
  span.setAttribute("http.route", route);
  span.updateName(`${method} ${route}`);
}

// The postgres.js query object runs when first awaited: `handle()` is the one door every
// execution goes through (then/catch/finally/execute/forEach), on the pool, in transactions
// and in `sql.unsafe` alike. Marked on the prototype so a second install is a no-op.
const INSTALLED = Symbol.for("meridian.telemetry.queries");
const MAX_STATEMENT_CHARS = 2000;

interface QueryLike {
  executed: boolean;
  strings: TemplateStringsArray | string;
  resolve: (value: unknown) => unknown;
  reject: (error: unknown) => unknown;
  handle(): Promise<void>;
}

/**
 * Wraps every SQL statement in a client span (`db.system.name` postgresql, the statement with
 * its placeholders in `db.query.text`; never the parameter values), child of whatever span is
 * active, usually the request's. Does nothing unless telemetry is on. Safe to call more than
 * once and for several pools: all postgres.js queries share one prototype.
 */
export function instrumentQueries(sql: Sql): void {
  if (!isTelemetryOn) return;
  // Building a query does not run it: only awaiting does.
  const proto = Object.getPrototypeOf(sql`select 1`) as QueryLike & { [INSTALLED]?: true };
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  const handle = proto.handle;
  proto.handle = function (this: QueryLike) {
    if (!this.executed) startQuerySpan(this);
    return handle.call(this);
  };
}

function startQuerySpan(query: QueryLike): void {
  const text = typeof query.strings === "string"
    ? query.strings
    : query.strings.reduce((acc, part, i) => `${acc}$${i}${part}`);
  const operation = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? "QUERY";
  const span = tracer.startSpan(`db ${operation}`, {
    kind: SpanKind.CLIENT,
    attributes: {
      "db.system.name": "postgresql",
      "db.operation.name": operation,
      "db.query.text": text.slice(0, MAX_STATEMENT_CHARS),
    },
  });
  const { resolve, reject } = query;
  query.resolve = (value) => {
    endSpan(span);
    return resolve(value);
  };
  query.reject = (error) => {
    endSpan(span, error);
    return reject(error);
  };
}

function endSpan(span: Span, error?: unknown): void {
  if (error !== undefined) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (typeof code === "string") span.setAttribute("db.response.status_code", code);
    span.setStatus({ code: SpanStatusCode.ERROR, message: String(message ?? error) });
  }
  span.end();
}

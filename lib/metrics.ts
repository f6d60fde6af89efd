/**
 * Prometheus metrics of one server process: requests counted by method, route pattern and
 * status, a latency histogram per route, and, read at scrape time, the email outbox and job
 * queue depths (those come from the shared database, so every instance reports the same).
 * Rendered in the Prometheus text exposition format 0.0.4.
 */
import type { Db } from "../db/client.ts";
import { countJobsByState, countOutboxByStatus } from "../db/metrics.ts";
import type { AdmissionStats } from "./admission.ts";
import { memoryBreakdown } from "./memory.ts";

/** Upper bounds (seconds) of the latency histogram's buckets; `+Inf` is added. */
export const LATENCY_BUCKETS_SECONDS = [
  0.005,
  0.01,
  0.025,
  0.05,
  0.1,
  0.25,
  0.5,
  1,
  2.5,
  5,
  10,
] as const;

/** The `route` label of a request no route matched (never the raw path: scanners would
 * make one series per probed URL). */
export const UNMATCHED_ROUTE = "(unmatched)";

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** One answered request, as `observe` takes it. */
export interface ObservedRequest {
  method: string;
  /** The route pattern (`/api/surveys/:id`), or `UNMATCHED_ROUTE`. */
  route: string;
  status: number;
  seconds: number;
}

interface Latency {
  method: string;
  route: string;
  /** Counts per bucket (not cumulative; summed when rendered). */
  buckets: number[];
  sum: number;
  count: number;
}

/** Request counters and latency histograms of one app. */
export class RequestMetrics {
  #requests = new Map<string, { method: string; route: string; status: string; n: number }>();
  #latency = new Map<string, Latency>();

  /** Counts one answered request. Unknown methods are counted as `OTHER`. */
  observe({ method, route, status, seconds }: ObservedRequest): void {
    const m = METHODS.has(method) ? method : "OTHER";
    const status3 = String(status);
    const key = `${m} ${route} ${status3}`;
    const counter = this.#requests.get(key);
    if (counter) counter.n++;
    else this.#requests.set(key, { method: m, route, status: status3, n: 1 });
    const latencyKey = `${m} ${route}`;
    let latency = this.#latency.get(latencyKey);
    if (!latency) {
      latency = {
        method: m,
        route,
        buckets: LATENCY_BUCKETS_SECONDS.map(() => 0),
        sum: 0,
        count: 0,
      };
      this.#latency.set(latencyKey, latency);
    }
    const bucket = LATENCY_BUCKETS_SECONDS.findIndex((le) => seconds <= le);
    if (bucket !== -1) latency.buckets[bucket]++;
    latency.sum += seconds;
    latency.count++;
  }

  /** The counters and histograms in the text format, with their HELP and TYPE lines. */
  render(): string {
    const lines = [
      "# HELP meridian_http_requests_total HTTP requests answered, by method, route and status.",
      "# TYPE meridian_http_requests_total counter",
    ];
    for (const { method, route, status, n } of this.#requests.values()) {
      lines.push(`meridian_http_requests_total${labels({ method, route, status })} ${n}`);
    }
    lines.push(
      "# HELP meridian_http_request_duration_seconds Time to the answer's headers, by route.",
      "# TYPE meridian_http_request_duration_seconds histogram",
    );
    for (const { method, route, buckets, sum, count } of this.#latency.values()) {
      let cumulative = 0;
      LATENCY_BUCKETS_SECONDS.forEach((le, i) => {
        cumulative += buckets[i];
        lines.push(
          `meridian_http_request_duration_seconds_bucket${
            labels({ method, route, le: String(le) })
          } ${cumulative}`,
        );
      });
      const base = labels({ method, route });
      lines.push(
        `meridian_http_request_duration_seconds_bucket${
          labels({ method, route, le: "+Inf" })
        } ${count}`,
        `meridian_http_request_duration_seconds_sum${base} ${sum}`,
        `meridian_http_request_duration_seconds_count${base} ${count}`,
      );
    }
    return lines.join("\n") + "\n";
  }
}

// Keyed by the app's deps object, like lib/background.ts: each app (every test builds its
// own) counts its own requests.
const registries = new WeakMap<object, RequestMetrics>();

/** The request metrics of the app built from `deps` (created on first use). */
export function requestMetrics(deps: object): RequestMetrics {
  let metrics = registries.get(deps);
  if (!metrics) registries.set(deps, metrics = new RequestMetrics());
  return metrics;
}

/**
 * The whole scrape: request metrics of this process, the outbox and job queue depths read
 * from `db` now, and the process's memory and start time. Throws when the database does not
 * answer (the route turns that into its usual 503).
 */
export async function renderMetrics(
  db: Db,
  metrics: RequestMetrics,
  admission?: AdmissionStats,
): Promise<string> {
  const [outbox, jobs] = await Promise.all([countOutboxByStatus(db), countJobsByState(db)]);
  const memory = memoryBreakdown();
  const lines = [
    ...(admission ? admissionLines(admission) : []),
    "# HELP meridian_email_outbox_messages Outbox messages not delivered yet, by status.",
    "# TYPE meridian_email_outbox_messages gauge",
    ...Object.entries(outbox).map(([status, n]) =>
      `meridian_email_outbox_messages${labels({ status })} ${n}`
    ),
    "# HELP meridian_jobs Background jobs not done, by state (due, running, scheduled, failed).",
    "# TYPE meridian_jobs gauge",
    ...Object.entries(jobs).map(([state, n]) => `meridian_jobs${labels({ state })} ${n}`),
    "# HELP process_resident_memory_bytes Resident memory size in bytes.",
    "# TYPE process_resident_memory_bytes gauge",
    `process_resident_memory_bytes ${memory.rss}`,
    "# HELP meridian_js_heap_bytes The JavaScript heap: used by live objects, and reserved.",
    "# TYPE meridian_js_heap_bytes gauge",
    `meridian_js_heap_bytes${labels({ kind: "used" })} ${memory.heapUsed}`,
    `meridian_js_heap_bytes${labels({ kind: "total" })} ${memory.heapTotal}`,
    "# HELP meridian_js_external_bytes Memory outside the JavaScript heap held by its objects.",
    "# TYPE meridian_js_external_bytes gauge",
    `meridian_js_external_bytes ${memory.external}`,
    "# HELP meridian_pglite_wasm_memory_bytes The embedded database's WebAssembly memory.",
    "# TYPE meridian_pglite_wasm_memory_bytes gauge",
    `meridian_pglite_wasm_memory_bytes ${memory.pgliteWasm}`,
    "# HELP process_start_time_seconds Start time of the process since the Unix epoch.",
    "# TYPE process_start_time_seconds gauge",
    `process_start_time_seconds ${PROCESS_START_SECONDS}`,
  ];
  return metrics.render() + lines.join("\n") + "\n";
}

/** Admission control (lib/admission.ts): where it stands and what it did. */
function admissionLines(a: AdmissionStats): string[] {
  return [
    "# HELP meridian_requests_in_flight Requests being worked on (admission control).",
    "# TYPE meridian_requests_in_flight gauge",
    `meridian_requests_in_flight ${a.inFlight}`,
    "# HELP meridian_requests_queued Requests waiting for a slot (admission control).",
    "# TYPE meridian_requests_queued gauge",
    `meridian_requests_queued ${a.queued}`,
    "# HELP meridian_requests_admitted_total Requests admitted by admission control.",
    "# TYPE meridian_requests_admitted_total counter",
    `meridian_requests_admitted_total ${a.admitted}`,
    "# HELP meridian_requests_shed_total Requests refused with a 503 for overload.",
    "# TYPE meridian_requests_shed_total counter",
    `meridian_requests_shed_total ${a.refused}`,
  ];
}

const PROCESS_START_SECONDS = Math.round((Date.now() - performance.now()) / 1000);

/** `{a="1",b="2"}` with values escaped as the text format asks (\\, \", \n). */
function labels(values: Record<string, string>): string {
  const parts = Object.entries(values).map(([name, value]) =>
    `${name}="${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`
  );
  return `{${parts.join(",")}}`;
}

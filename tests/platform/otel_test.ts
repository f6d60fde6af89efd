/**
 * OpenTelemetry end to end: the real server with OTEL_DENO=true exports over OTLP/HTTP JSON
 * to a fake collector started here. A request's span carries its request id and route, and
 * the SQL it ran shows as child spans in the same trace.
 */
import { assert, assertEquals } from "../_assert.ts";
import { startServer } from "./_server.ts";

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: string };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: OtlpAttribute[];
}

/** A collector that keeps every span posted to /v1/traces (other signals are accepted). */
function fakeCollector() {
  const spans: OtlpSpan[] = [];
  const serviceNames = new Set<string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.text();
    if (new URL(req.url).pathname === "/v1/traces") {
      const parsed = JSON.parse(body);
      for (const resource of parsed.resourceSpans ?? []) {
        for (const attr of resource.resource?.attributes ?? []) {
          if (attr.key === "service.name") serviceNames.add(attr.value.stringValue);
        }
        for (const scope of resource.scopeSpans ?? []) spans.push(...(scope.spans ?? []));
      }
    }
    return Response.json({});
  });
  return {
    endpoint: `http://127.0.0.1:${server.addr.port}`,
    spans,
    serviceNames,
    close: () => server.shutdown(),
  };
}

function attribute(span: OtlpSpan, key: string): string | undefined {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? value?.intValue;
}

async function eventually<T>(what: string, find: () => T | undefined): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`no ${what} within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

Deno.test({
  name: "[otel] a request's span carries its request id and route, its SQL as child spans",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const collector = fakeCollector();
    const server = await startServer({
      OTEL_DENO: "true",
      OTEL_SERVICE_NAME: "meridian",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: "100",
    });
    try {
      // /readyz is honest: on a loaded machine a fresh server's first KV write or `select 1`
      // can miss its bound and answer 503 (CI once did). The spans are this test's subject, so
      // it asks again, each time under a new id, until the server says it is ready.
      let requestId = "";
      let res: Response | undefined;
      for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
        requestId = `otel-test-${crypto.randomUUID()}`;
        res = await fetch(`${server.origin}/readyz`, { headers: { "x-request-id": requestId } });
        await res.body?.cancel();
        if (res.status === 200) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      assertEquals(res?.status, 200);
      assertEquals(res?.headers.get("x-request-id"), requestId);

      const request = await eventually(
        "request span with the request id",
        () => collector.spans.find((s) => attribute(s, "meridian.request_id") === requestId),
      );
      assertEquals(request.name, "GET /readyz");
      assertEquals(attribute(request, "http.route"), "/readyz");
      assert(collector.serviceNames.has("meridian"), [...collector.serviceNames].join());

      // /readyz asks Postgres `select 1`: a child span of the request, inside its time.
      const query = await eventually(
        "database span in the request's trace",
        () =>
          collector.spans.find((s) =>
            s.traceId === request.traceId && attribute(s, "db.system.name") === "postgresql"
          ),
      );
      assertEquals(query.parentSpanId, request.spanId);
      assertEquals(query.name, "db SELECT");
      assertEquals(attribute(query, "db.query.text"), "select 1");
      assert(BigInt(query.startTimeUnixNano) >= BigInt(request.startTimeUnixNano));
      assert(BigInt(query.endTimeUnixNano) <= BigInt(request.endTimeUnixNano));
    } finally {
      await server.cleanUp();
      await collector.close();
    }
  },
});

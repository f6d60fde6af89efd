import { assertEquals } from "../_assert.ts";
import { test } from "../_helpers.ts";
import { AdmissionGate, admissionLimits } from "../../lib/admission.ts";

test("[admission] default limits follow the database pool; configuration overrides them", () => {
  assertEquals(admissionLimits({}, 10), { maxInFlight: 40, maxQueued: 40, queueTimeoutMs: 250 });
  assertEquals(admissionLimits({}, 1), { maxInFlight: 32, maxQueued: 32, queueTimeoutMs: 250 });
  assertEquals(
    admissionLimits(
      { MAX_IN_FLIGHT_REQUESTS: 5, MAX_QUEUED_REQUESTS: 0, REQUEST_QUEUE_TIMEOUT_MS: 10 },
      10,
    ),
    { maxInFlight: 5, maxQueued: 0, queueTimeoutMs: 10 },
  );
});

test("[admission] waiting requests are admitted in order; one whose client went away leaves the queue", async () => {
  const gate = new AdmissionGate({ maxInFlight: 1, maxQueued: 2, queueTimeoutMs: 60_000 });
  assertEquals(gate.enter(), true);
  const gone = new AbortController();
  const first = gate.enter(gone.signal);
  const second = gate.enter();
  assertEquals(gate.enter(), false, "the queue is full");
  gone.abort();
  assertEquals(await first, false);
  assertEquals(gate.stats(), { inFlight: 1, queued: 1, admitted: 1, refused: 2 });
  gate.leave();
  assertEquals(await second, true);
  assertEquals(gate.stats(), { inFlight: 1, queued: 0, admitted: 2, refused: 2 });
  gate.leave();
  assertEquals(gate.stats().inFlight, 0);
  assertEquals(gate.enter(), true, "a free slot is taken at once");
  gate.leave();
});

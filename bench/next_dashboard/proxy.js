// Meridian's headers on every answer: the security headers of routes/_middleware.ts and the
// signed-in pages' Cache-Control, as the bench read them from Meridian's own dashboard
// (BENCH_NEXT_HEADERS, a JSON list of [name, value]), plus a request id like Meridian's.
// Next 16's proxy (formerly middleware) runs on node before every route.
import { NextResponse } from "next/server";

const headers = JSON.parse(process.env.BENCH_NEXT_HEADERS ?? "[]");

export function proxy() {
  const response = NextResponse.next();
  for (const [name, value] of headers) response.headers.set(name, value);
  response.headers.set("X-Request-Id", crypto.randomUUID());
  return response;
}

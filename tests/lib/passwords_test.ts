import { assert, assertEquals, assertMatch, assertNotEquals, assertRejects } from "../_assert.ts";
import {
  DUMMY_HASH,
  generatePassword,
  hashPassword,
  PASSWORD_MAX_LENGTH,
  PasswordLengthError,
  timingSafeEqual,
  verifyDummyPassword,
  verifyPassword,
} from "../../lib/passwords.ts";

Deno.test("[passwords] hashes are argon2id with the OWASP parameters and a fresh salt", async () => {
  const a = await hashPassword("hunter22");
  const b = await hashPassword("hunter22");
  assertMatch(a, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
  assertNotEquals(a, b);
  assert(!a.includes("hunter22"));
});

Deno.test("[passwords] the right password verifies, a wrong one does not", async () => {
  const hash = await hashPassword("correct horse");
  assertEquals(await verifyPassword("correct horse", hash), true);
  assertEquals(await verifyPassword("correct horsE", hash), false);
  assertEquals(await verifyPassword("correct hors", hash), false);
  assertEquals(await verifyPassword("", hash), false);
});

Deno.test("[passwords] long passwords are not truncated", async () => {
  const long = "a".repeat(PASSWORD_MAX_LENGTH);
  const hash = await hashPassword(long);
  assertEquals(await verifyPassword(long, hash), true);
  assertEquals(await verifyPassword("a".repeat(PASSWORD_MAX_LENGTH - 1) + "b", hash), false);
  assertEquals(await verifyPassword("a".repeat(72), hash), false);
});

Deno.test("[passwords] unicode passwords round-trip", async () => {
  const hash = await hashPassword("pässwörd-🔑");
  assertEquals(await verifyPassword("pässwörd-🔑", hash), true);
  assertEquals(await verifyPassword("passwörd-🔑", hash), false);
});

Deno.test("[passwords] lengths outside 6..128 are refused when hashing", async () => {
  const short = await assertRejects(() => hashPassword("12345"));
  assert(short instanceof PasswordLengthError);
  const long = await assertRejects(() => hashPassword("x".repeat(129)));
  assert(long instanceof PasswordLengthError);
  assertMatch(await hashPassword("123456"), /^\$argon2id\$/);
});

Deno.test("[passwords] over-long or malformed input never verifies", async () => {
  const hash = await hashPassword("x".repeat(128));
  assertEquals(await verifyPassword("x".repeat(129), hash), false);
  for (
    const bad of ["", "plain", "$argon2i$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA", "$2b$10$abc"]
  ) {
    assertEquals(await verifyPassword("whatever", bad), false, bad);
  }
});

Deno.test("[passwords] the dummy verification always fails", async () => {
  const real = await hashPassword("anything");
  assertEquals(DUMMY_HASH.split("$").slice(0, 4), real.split("$").slice(0, 4), "same cost");
  assertEquals(DUMMY_HASH.length, real.length);
  assertEquals(await verifyDummyPassword("anything"), false);
  assertEquals(await verifyDummyPassword("x".repeat(10_000)), false);
});

Deno.test("[passwords] constant-time comparison compares whole arrays", () => {
  assertEquals(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3])), true);
  assertEquals(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4])), false);
  assertEquals(timingSafeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2, 0])), false);
  assertEquals(timingSafeEqual(new Uint8Array([]), new Uint8Array([])), true);
});

Deno.test("[passwords] generated passwords are 20 random URL-safe characters", async () => {
  const a = generatePassword();
  assertMatch(a, /^[A-Za-z0-9_-]{20}$/);
  assertNotEquals(a, generatePassword());
  assertEquals(await verifyPassword(a, await hashPassword(a)), true);
});

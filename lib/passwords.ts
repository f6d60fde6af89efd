/**
 * Password hashing with argon2id (hash-wasm: pure WebAssembly, so it runs in Deno without
 * native add-ons). Parameters are OWASP's first recommendation: 19 MiB, 2 passes, 1 lane.
 */
import { argon2id } from "hash-wasm";

/** Spec section 9: password minimum length 6. */
export const PASSWORD_MIN_LENGTH = 6;
/** Upper bound so a huge password cannot be used to burn CPU; nothing is ever truncated. */
export const PASSWORD_MAX_LENGTH = 128;

/** argon2id cost parameters (memory in KiB). */
export const ARGON2_PARAMS = { memorySize: 19456, iterations: 2, parallelism: 1 } as const;
const SALT_BYTES = 16;
const HASH_BYTES = 32;

/** Thrown by `hashPassword` for a password outside 6..128 characters. */
export class PasswordLengthError extends Error {}

/**
 * Hashes `password` with a fresh 16-byte salt. Returns the encoded PHC string
 * (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`). Throws `PasswordLengthError` when the
 * password is shorter than 6 or longer than 128 characters.
 */
export async function hashPassword(password: string): Promise<string> {
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    throw new PasswordLengthError(
      `Password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`,
    );
  }
  return await argon2id({
    password,
    salt: crypto.getRandomValues(new Uint8Array(SALT_BYTES)),
    ...ARGON2_PARAMS,
    hashLength: HASH_BYTES,
    outputType: "encoded",
  });
}

interface ParsedHash {
  memorySize: number;
  iterations: number;
  parallelism: number;
  salt: Uint8Array;
  hash: Uint8Array;
}

function fromBase64NoPad(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9+/]+$/.test(text)) return null;
  const padded = text + "=".repeat((4 - (text.length % 4)) % 4);
  try {
    return Uint8Array.from(atob(padded), (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

function parseArgon2id(encoded: string): ParsedHash | null {
  const match = /^\$argon2id\$v=19\$m=(\d{1,7}),t=(\d{1,3}),p=(\d{1,3})\$([^$]+)\$([^$]+)$/
    .exec(encoded);
  if (!match) return null;
  const salt = fromBase64NoPad(match[4]);
  const hash = fromBase64NoPad(match[5]);
  if (!salt || !hash || salt.length < 8 || hash.length < 16) return null;
  return {
    memorySize: Number(match[1]),
    iterations: Number(match[2]),
    parallelism: Number(match[3]),
    salt,
    hash,
  };
}

/** Compares two byte arrays in time that depends only on their lengths. */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/**
 * True when `password` matches the encoded argon2id hash. Recomputes the hash with the stored
 * parameters and compares in constant time (hash-wasm's own `argon2Verify` compares strings
 * with `===`). A malformed hash or an over-long password is simply false.
 */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const parsed = parseArgon2id(encoded);
  if (!parsed || password.length > PASSWORD_MAX_LENGTH) return false;
  // hash-wasm refuses an empty password; no stored password is empty, so hash a stand-in
  // (same cost) and fail.
  const computed = await argon2id({
    password: password === "" ? "\u0000" : password,
    salt: parsed.salt,
    memorySize: parsed.memorySize,
    iterations: parsed.iterations,
    parallelism: parsed.parallelism,
    hashLength: parsed.hash.length,
    outputType: "binary",
  });
  return timingSafeEqual(computed, parsed.hash) && password !== "";
}

/**
 * The hash of a random password nobody knows, with the same parameters as real hashes. Fixed
 * so the very first unknown-identifier login costs exactly one verification, like the rest.
 */
export const DUMMY_HASH =
  "$argon2id$v=19$m=19456,t=2,p=1$FjJV14JwkOH2wCyG0Ua0ZA$iE07Mj+mR/sgimG+e4ssgnuM8hqaLxy16r7jE7wn97Q";

/**
 * Runs a full verification against a throwaway hash and returns false. Login calls it for an
 * unknown identifier so that answer takes as long as a wrong password for a real account.
 */
export async function verifyDummyPassword(password: string): Promise<false> {
  await verifyPassword(password.slice(0, PASSWORD_MAX_LENGTH), DUMMY_HASH);
  return false;
}

/** A random password for accounts created by an operator: 20 URL-safe characters. */
export function generatePassword(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(15));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_");
}

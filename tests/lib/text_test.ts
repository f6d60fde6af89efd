import type { z } from "zod";
import { assert, assertEquals } from "../_assert.ts";
import { hasDisallowedCharacters, multiLine, secret, singleLine } from "../../lib/text.ts";

/** The parsed value, or the messages of every issue. */
function run(schema: z.ZodType, input: unknown): { value: unknown } | { errors: string[] } {
  const result = schema.safeParse(input);
  return result.success
    ? { value: result.data }
    : { errors: result.error.issues.map((issue) => issue.message) };
}

function firstError(schema: z.ZodType, input: unknown): string | undefined {
  const result = run(schema, input);
  return "errors" in result ? result.errors[0] : undefined;
}

const hex = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

// Every C0 control but tab and newline, DEL and every C1 control.
const CONTROLS = [
  ...Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)),
  "\u007f",
  ...Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(0x80 + i)),
];
const TAB_NEWLINE = ["\t", "\n"];
const OTHER_CONTROLS = CONTROLS.filter((c) => !TAB_NEWLINE.includes(c) && c !== "\r");
const LONE_SURROGATES = ["\ud800", "\udbff", "\udc00", "\udfff", "\udc00\ud800"];

const name = singleLine("Full name", { min: 1, max: 100 });
const notes = multiLine("Notes", { max: 2000 });
const password = secret("Password", { min: 6, max: 128 });

Deno.test("[text] a single line is trimmed and NFC-normalised; valid text passes unchanged", () => {
  assertEquals(run(name, "  Casey Client \n"), { value: "Casey Client" });
  // "é" as e + COMBINING ACUTE ACCENT is stored as the one precomposed character.
  assertEquals(run(name, "Rene\u0301e"), { value: "Ren\u00e9e" });
  for (const text of ["José Núñez", "Zoë 王 😀", "O'Brien-Smith", "Åsa \u00a0Ng"]) {
    assertEquals(run(name, text), { value: text.normalize("NFC").trim() }, text);
  }
});

Deno.test("[text] NUL and every other control character is refused in a single line", () => {
  for (const c of CONTROLS) {
    // Inside the value: trimming must not be what saves it.
    assertEquals(
      firstError(name, `Casey${c}Client`),
      "Full name contains characters that are not allowed",
      hex(c),
    );
  }
});

Deno.test("[text] lone surrogates are refused everywhere; surrogate pairs (emoji) are fine", () => {
  for (const s of LONE_SURROGATES) {
    for (const schema of [name, notes, password]) {
      const error = firstError(schema, `abcdef${s}ghi`);
      assert(error?.endsWith("contains characters that are not allowed"), `${hex(s)}: ${error}`);
    }
  }
  assertEquals(run(name, "Casey \ud83d\ude00"), { value: "Casey 😀" });
  assertEquals(hasDisallowedCharacters("\ud83d\ude00"), false);
  assertEquals(hasDisallowedCharacters("\ude00\ud83d"), true);
});

Deno.test("[text] multi-line text keeps tab and newline, stores CRLF and CR as LF", () => {
  assertEquals(run(notes, "Gate code 1234\r\n\tDog in the yard\rBack gate"), {
    value: "Gate code 1234\n\tDog in the yard\nBack gate",
  });
  for (const c of OTHER_CONTROLS) {
    assertEquals(
      firstError(notes, `line one${c}line two`),
      "Notes contains characters that are not allowed",
      hex(c),
    );
  }
  for (const c of TAB_NEWLINE) {
    assertEquals(
      firstError(name, `Casey${c}Client`),
      "Full name contains characters that are not allowed",
      `${hex(c)} is only allowed in multi-line text`,
    );
  }
});

Deno.test("[text] a secret is kept exactly as typed but refuses control characters", () => {
  assertEquals(run(password, "  pass word  "), { value: "  pass word  " });
  assertEquals(run(password, "Rene\u0301e!"), { value: "Rene\u0301e!" });
  for (const c of CONTROLS) {
    assertEquals(
      firstError(password, `secret${c}word`),
      "Password contains characters that are not allowed",
      hex(c),
    );
  }
});

Deno.test("[text] default messages name the field; length counts after trimming", () => {
  assertEquals(firstError(name, undefined), "Full name is required");
  assertEquals(firstError(name, ""), "Full name is required");
  assertEquals(firstError(name, "   "), "Full name is required");
  for (const wrong of [42, null, true, ["Casey"], { a: { b: {} } }]) {
    assertEquals(firstError(name, wrong), "Full name must be text", JSON.stringify(wrong));
  }
  assertEquals(firstError(name, "x".repeat(101)), "Full name must be at most 100 characters");
  assertEquals(run(name, ` ${"x".repeat(100)} `), { value: "x".repeat(100) });
  assertEquals(firstError(password, "12345"), "Password must be at least 6 characters");
  assertEquals(run(notes, ""), { value: "" }, "min defaults to 0");
});

Deno.test("[text] a field keeps its own wording when it gives messages", () => {
  const address = singleLine("Address", {
    min: 5,
    max: 300,
    messages: {
      type: "Enter the property address",
      min: "Enter the full property address",
      max: "Address must be 300 characters or fewer",
    },
  });
  assertEquals(firstError(address, undefined), "Enter the property address");
  assertEquals(firstError(address, 7), "Enter the property address");
  assertEquals(firstError(address, "1 Rd"), "Enter the full property address");
  assertEquals(firstError(address, "x".repeat(301)), "Address must be 300 characters or fewer");
  assertEquals(
    firstError(address, "1200 Barton\u0000 Springs Rd"),
    "Address contains characters that are not allowed",
  );
  const input = singleLine("Address", {
    max: 200,
    messages: { missing: "input is required", type: "input must be text", chars: "Bad input" },
  });
  assertEquals(firstError(input, undefined), "input is required");
  assertEquals(firstError(input, ["a", "b"]), "input must be text");
  assertEquals(firstError(input, "a\u0001"), "Bad input");
});

Deno.test("[text] the builders chain like any zod string", () => {
  const code = singleLine("Code", { max: 40 }).regex(/^[A-Z0-9]+$/, "Letters and digits only");
  assertEquals(run(code.optional(), undefined), { value: undefined });
  assertEquals(firstError(code, "ab c"), "Letters and digits only");
  assertEquals(run(singleLine("Phone", { max: 30 }).nullable(), null), { value: null });
});

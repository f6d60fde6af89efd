/**
 * Browser runtime: finds `[data-island]` markers, waits per `data-hydrate`, then imports the
 * island's chunk and React (`_hydrate.ts`) and hydrates it as its own root with the server's
 * identifierPrefix. This file itself holds no React: a page whose islands all hydrate on
 * `interaction` loads only this until a visitor touches one of them.
 *
 * What a visitor does to an island before it hydrates is never lost, whatever the hydration
 * mode and however slow the chunk (`EarlyInput`): typed, pasted or autofilled text, checked
 * boxes, chosen options and files, with the caret and focus where they were, and presses of
 * its buttons, which are held and replayed once the island can answer them.
 */

import type { EarlySubmit } from "./_early.ts";

// Imported on demand: for eager islands the page preloads its chunk (manifest `boot.preload`).
const runtime = () => import("./_hydrate.ts");

/** A form control whose state the visitor can change. */
type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
/** A control holding text (any input but boxes, files and buttons, or a textarea). */
type TextControl = HTMLInputElement | HTMLTextAreaElement;
/** Selection start, end and direction. */
type Caret = [number, number, "forward" | "backward" | "none"];

const CONTROLS = "input, textarea, select";
const NOT_TEXT = new Set(["checkbox", "radio", "file", "submit", "button", "image", "reset"]);
/** What a press is held for: controls whose click does nothing, or the wrong thing, without JS. */
const PRESSABLE = [
  "button",
  'input[type="submit"]',
  'input[type="button"]',
  'input[type="image"]',
  'input[type="reset"]',
  '[role="button"]',
  '[role="option"]',
  '[role="tab"]',
  '[role="switch"]',
  '[role^="menuitem"]',
].join(", ");

function isTextControl(node: unknown): node is TextControl {
  return node instanceof HTMLTextAreaElement ||
    (node instanceof HTMLInputElement && !NOT_TEXT.has(node.type));
}

function caretOf(field: TextControl): Caret | null {
  // null for input types without a text selection (email, number…).
  if (field.selectionStart === null || field.selectionEnd === null) return null;
  return [field.selectionStart, field.selectionEnd, field.selectionDirection ?? "none"];
}

/** Sets `prop` through the element's prototype, past the setter React puts on the element. */
function setUnseen(field: TextControl, prop: "value" | "checked", value: string | boolean) {
  const proto = field instanceof HTMLTextAreaElement
    ? HTMLTextAreaElement.prototype
    : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, prop)?.set?.call(field, value);
}

/** Whether the visitor chose other options than the ones the page was rendered with. */
function isSelectChanged(select: HTMLSelectElement): boolean {
  const options = Array.from(select.options);
  if (select.multiple) return options.some((o) => o.selected !== o.defaultSelected);
  const initial = options.find((o) => o.defaultSelected) ?? options[0];
  return initial ? !initial.selected : false;
}

/**
 * After hydration React's state holds what it rendered (the field's `defaultValue`), while the
 * field shows `value`: React would put its own value back at its next render, which is how the
 * quote form lost the first characters typed. React learns a value only from an input event
 * whose value differs from the one it last saw, so its last-seen value is set to its own
 * (through the setter it put on the field), the visitor's text is put back past that setter,
 * and an input event tells the island, as if the visitor had just typed it.
 */
function adoptText(field: TextControl, value: string, caret: Caret | null) {
  if (field.value === value && field.defaultValue === value) return;
  field.value = field.defaultValue;
  setUnseen(field, "value", value);
  field.dispatchEvent(new Event("input", { bubbles: true }));
  if (caret && field.value === value && field.selectionStart !== null) {
    field.setSelectionRange(...caret);
  }
}

/** Boxes, options and files: React hears of them through a click or a change event. */
function adoptChoice(field: Control) {
  if (field instanceof HTMLSelectElement) {
    if (isSelectChanged(field)) field.dispatchEvent(new Event("change", { bubbles: true }));
  } else if (field instanceof HTMLInputElement && field.type === "file") {
    if (field.files?.length) field.dispatchEvent(new Event("change", { bubbles: true }));
  } else if (field instanceof HTMLInputElement && (field.type === "checkbox" || field.checked)) {
    // A radio group changes through the radio now checked; its sibling follows.
    if (field.checked === field.defaultChecked) return;
    field.checked = field.defaultChecked;
    field.click();
  }
}

/**
 * Keeps what the visitor does to one island before it hydrates, and hands it over after.
 * Listening starts when the page boots; `record` runs right before hydrateRoot and `adopt`
 * once the island is live; `release` gives held presses back to the browser if the island
 * never loads, so a plain-HTML form still submits. Submissions `_early.ts` held before this
 * script ran are held here too, and sent once like the presses.
 */
class EarlyInput {
  /** The newest text and caret of each text field, as the visitor left them. */
  #typed = new Map<TextControl, { value: string; caret: Caret | null }>();
  #controls: Control[] = [];
  #focused: Element | null = null;
  #composing = new Set<EventTarget>();
  #held: (() => void)[] = [];
  #done = false;
  /** Forms `_early.ts` marked as waiting; the mark goes before React sees the form. */
  #earlyForms: HTMLFormElement[] = [];
  readonly el: HTMLElement;

  constructor(el: HTMLElement, early: EarlySubmit[]) {
    this.el = el;
    for (const [type, fn] of this.#listeners) el.addEventListener(type, fn, true);
    for (const { form, submitter } of early) {
      if (!el.contains(form)) continue;
      this.#earlyForms.push(form);
      const index = Array.from(el.querySelectorAll("form")).indexOf(form);
      this.#held.push(() => resubmit(el, form, index, submitter));
    }
  }

  #remember = (field: TextControl) =>
    this.#typed.set(field, { value: field.value, caret: caretOf(field) });

  #listeners: [string, (e: Event) => void][] = [
    ["input", (e) => isTextControl(e.target) && this.#remember(e.target)],
    ["focusin", (e) => this.#focused = e.target as Element],
    ["compositionstart", (e) => e.target && this.#composing.add(e.target)],
    ["compositionend", (e) => e.target && this.#composing.delete(e.target)],
    ["click", (e) => {
      const target = (e.target as Element | null)?.closest?.(PRESSABLE);
      if (!(target instanceof HTMLElement) || !this.el.contains(target) || e.defaultPrevented) {
        return;
      }
      e.preventDefault();
      this.#held.push(() => target.click());
    }],
    ["submit", (e) => {
      // Enter in a form without a submit button; with one, its held click stands for this.
      const form = e.target as HTMLFormElement;
      const submitter = (e as SubmitEvent).submitter;
      e.preventDefault();
      this.#held.push(() => submitter ? form.requestSubmit(submitter) : form.requestSubmit());
    }],
  ];

  /** Whether the visitor has already focused, filled or submitted a form of the island. */
  get isTouched(): boolean {
    return this.#earlyForms.length > 0 || this.el.contains(document.activeElement) ||
      Array.from(this.el.querySelectorAll<Control>(CONTROLS)).some((f) =>
        isTextControl(f) ? f.value !== f.defaultValue : false
      );
  }

  /** Right before hydrateRoot: the fields as they are, in case React replaces them. */
  record() {
    this.#unmark();
    this.#controls = Array.from(this.el.querySelectorAll<Control>(CONTROLS));
    for (const field of this.#controls) if (isTextControl(field)) this.#remember(field);
    if (this.el.contains(document.activeElement)) this.#focused = document.activeElement;
  }

  /** Once React owns the island: its state takes what is on screen, then held presses run. */
  adopt() {
    if (this.#done) return;
    this.#stop();
    const now = Array.from(this.el.querySelectorAll<Control>(CONTROLS));
    // Hydration keeps the server's elements; after a mismatch React renders new ones.
    const isSame = this.#controls.every((c) => c.isConnected);
    const before = (field: Control, i: number) =>
      isSame ? field : this.#controls.find((c) => c.id && c.id === field.id) ?? this.#controls[i];
    let focus: { field: Control; caret: Caret | null } | undefined;
    now.forEach((field, i) => {
      const old = before(field, i);
      if (!old) return;
      if (isTextControl(field) && isTextControl(old)) {
        const typed = this.#typed.get(old);
        // React sets a textarea back to its server text while hydrating it (not an input).
        const isReset = typed !== undefined && old.value !== typed.value &&
          old.value === old.defaultValue;
        const value = isReset || old !== field ? typed?.value ?? old.value : old.value;
        const caret = isReset || old !== field ? typed?.caret ?? null : caretOf(old);
        // Mid-composition (an IME) the text is not final: hand over what it ends as.
        if (this.#composing.has(old)) {
          old.addEventListener("compositionend", () => adoptText(field, field.value, null), {
            once: true,
          });
        } else adoptText(field, value, caret);
        if (old === this.#focused) focus = { field, caret };
      } else {
        if (old !== field && old instanceof HTMLInputElement && field instanceof HTMLInputElement) {
          field.checked = old.checked;
        }
        adoptChoice(field);
        if (old === this.#focused) focus = { field, caret: null };
      }
    });
    if (focus && document.activeElement !== focus.field && !isSame) {
      focus.field.focus();
      if (focus.caret && isTextControl(focus.field)) focus.field.setSelectionRange(...focus.caret);
    }
    this.el.dataset.hydrated = "";
    this.#replay();
  }

  /** The island could not load: held presses do what they do without JavaScript. */
  release() {
    if (this.#done) return;
    this.#stop();
    this.#replay();
  }

  #unmark() {
    for (const form of this.#earlyForms) form.removeAttribute("data-early-submit");
  }

  #stop() {
    this.#done = true;
    this.#unmark();
    for (const [type, fn] of this.#listeners) this.el.removeEventListener(type, fn, true);
  }

  #replay() {
    const held = this.#held;
    this.#held = [];
    for (const press of held) press();
  }
}

/**
 * Submits a form held before the runtime ran, once: through the submitter pressed when it is
 * still in the page, else the island's form in the same place (after a hydration mismatch
 * React renders new elements).
 */
function resubmit(
  el: HTMLElement,
  form: HTMLFormElement,
  index: number,
  submitter: HTMLElement | null,
) {
  const now = form.isConnected ? form : el.querySelectorAll("form")[index];
  if (!now) return;
  if (submitter?.isConnected && now.contains(submitter)) now.requestSubmit(submitter);
  else now.requestSubmit();
}

/**
 * The island's props: the JSON of the `<script type="application/json">` the server writes
 * right after its marker (components/Island.tsx), or none.
 */
function readProps(el: HTMLElement): Record<string, unknown> {
  const script = el.nextElementSibling;
  return script instanceof HTMLScriptElement && script.type === "application/json"
    ? JSON.parse(script.textContent || "{}")
    : {};
}

function hydrate(el: HTMLElement, early: EarlyInput) {
  const name = el.dataset.island!;
  const props = readProps(el);
  Promise.all([runtime(), import(el.dataset.src!)])
    .then(([{ hydrateIsland }, mod]) => {
      early.record();
      hydrateIsland(el, mod.default, props, () => early.adopt());
    })
    .catch((err) => {
      early.release();
      console.error(`Island ${name} failed to load`, err);
    });
}

function whenVisible(el: HTMLElement, run: () => void) {
  const targets = Array.from(el.children);
  if (!("IntersectionObserver" in window) || targets.length === 0) return run();
  const observer = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) {
      observer.disconnect();
      run();
    }
  }, { rootMargin: "200px" });
  for (const t of targets) observer.observe(t);
}

function whenIdle(run: () => void) {
  if ("requestIdleCallback" in window) requestIdleCallback(run, { timeout: 2000 });
  else setTimeout(run, 200);
}

/**
 * The first sign that the visitor is about to use the island: a pointer over it, a touch,
 * focus moving into it, a key, or text put in by the browser's autofill. The marker is
 * `display: contents`, so it has no box of its own but still sees its children's events.
 * Nothing is swallowed: the listeners are passive, the text typed while the chunk loads stays
 * in the field and `EarlyInput` hands it to React; a press meanwhile is held and replayed.
 * A field already focused or filled before this script ran counts as a touch.
 */
function whenInteracted(el: HTMLElement, early: EarlyInput, run: () => void) {
  if (early.isTouched) return run();
  const events = ["pointerover", "pointerdown", "touchstart", "focusin", "keydown", "input"];
  const start = () => {
    for (const type of events) el.removeEventListener(type, start, true);
    run();
  };
  for (const type of events) el.addEventListener(type, start, { capture: true, passive: true });
}

// Submissions `_early.ts` held while this module was on its way; from here on `EarlyInput` holds them.
const earlySubmits = globalThis.takeEarlySubmits?.() ?? [];
for (const el of document.querySelectorAll<HTMLElement>("[data-island]")) {
  const early = new EarlyInput(el, earlySubmits);
  const run = () => hydrate(el, early);
  switch (el.dataset.hydrate) {
    case "load":
      run();
      break;
    case "visible":
      whenVisible(el, run);
      break;
    case "interaction":
      whenInteracted(el, early, run);
      break;
    default:
      whenIdle(run);
  }
}

/**
 * The "what changed" part of the email copy editor: each field (subject, then the blocks in
 * display order) whose text differs between two versions, as a word diff. Removed words are
 * struck through in `<del>`, added words underlined in `<ins>`, and each run starts with a
 * visually hidden "Removed:" / "Added:" so the change never depends on colour or on a screen
 * reader announcing del/ins (most do not).
 */
import type { CopyTexts } from "../lib/mail/copy.ts";
import { type CopyShape, diffWords } from "../lib/mail/template_copy.ts";

/** One field that changed: its label and the diff of its text. */
export interface FieldChange {
  field: string;
  label: string;
  parts: ReturnType<typeof diffWords>;
}

/** The fields whose text differs from `before` to `after`, subject first. */
export function changedFields(
  shape: CopyShape,
  before: CopyTexts,
  after: CopyTexts,
): FieldChange[] {
  const fields = [
    { field: "subject", label: "Subject", a: before.subject, b: after.subject },
    ...shape.blocks.map((block) => ({
      field: `blocks.${block.key}`,
      label: block.label,
      a: before.blocks[block.key] ?? block.defaultText,
      b: after.blocks[block.key] ?? block.defaultText,
    })),
  ];
  return fields.filter((f) => f.a !== f.b).map((f) => ({
    field: f.field,
    label: f.label,
    parts: diffWords(f.a, f.b),
  }));
}

// Spoken around each run (visually hidden): most screen readers say nothing for del and ins.
const SPOKEN = {
  del: { start: "Removed: ", end: " (end removed) " },
  ins: { start: "Added: ", end: " (end added) " },
} as const;

/** The diff of one field's text. */
export function DiffText({ parts }: { parts: FieldChange["parts"] }) {
  return (
    <p className="email-diff__text">
      {parts.map((part, i) => {
        if (part.kind === "same") return <span key={i}>{part.text}</span>;
        const Tag = part.kind;
        return (
          <Tag key={i} className={`email-diff__${part.kind}`}>
            <span className="visually-hidden">{SPOKEN[part.kind].start}</span>
            {part.text}
            <span className="visually-hidden">{SPOKEN[part.kind].end}</span>
          </Tag>
        );
      })}
    </p>
  );
}

/** Every changed field with its diff, or a line saying nothing changed. */
export function CopyDiff(
  { shape, before, after }: { shape: CopyShape; before: CopyTexts; after: CopyTexts },
) {
  const changes = changedFields(shape, before, after);
  if (changes.length === 0) return <p className="muted">The words are the same.</p>;
  return (
    <>
      <p className="muted email-diff__legend">
        Struck-through words were removed; underlined words were added. Fields not listed are
        unchanged.
      </p>
      <dl className="email-diff">
        {changes.map((change) => (
          <div key={change.field} className="email-diff__field">
            <dt>{change.label}</dt>
            <dd>
              <DiffText parts={change.parts} />
            </dd>
          </div>
        ))}
      </dl>
    </>
  );
}

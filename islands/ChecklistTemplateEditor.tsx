/**
 * The admin's editor of one survey type's checklist template (/admin/checklists/{surveyType}):
 * the items in order, each with its label, key, kind (check, number, text, photo), unit (number
 * items), help and whether it is required; add, remove and move items up or down, then save.
 * Saving sends the whole list to `POST /api/checklist-templates/{surveyType}`, which stores it
 * as the next version; checklists already instantiated for surveys keep the version they were
 * copied from, which the page says.
 *
 * Checked here first (label, key pattern, unique keys) so most mistakes show at the field; the
 * server's per-field errors (`items.{n}.{field}`) land on the same fields.
 */
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { ApiError, apiJson, errorMessage } from "./_api.ts";
import { toast } from "./_toast.ts";
import { CheckedForm, SelectField, TextareaField, TextField } from "./_fields.tsx";
import {
  CHECKLIST_ITEM_KINDS,
  CHECKLIST_KIND_LABELS,
  CHECKLIST_TEMPLATE_MAX_ITEMS,
  type ChecklistItemKind,
  type ChecklistTemplateItem,
  type ChecklistTemplateView,
} from "../lib/checklist_types.ts";

/** Props of ChecklistTemplateEditor (plain JSON). */
export interface ChecklistTemplateEditorProps {
  surveyType: string;
  /** The type's name, e.g. "Boundary Survey". */
  surveyTypeName: string;
  template: ChecklistTemplateView;
}

/** The toast after a save. */
export const TEMPLATE_SAVED = "Checklist template saved";
/** The toast title when a save fails. */
export const TEMPLATE_SAVE_FAILED = "Failed to save checklist template";

const KEY_PATTERN = /^[a-z][a-z0-9_]{0,79}$/;

interface Row {
  /** Local id for React keys and focus, never sent. */
  rowId: string;
  key: string;
  /** True once the admin typed the key, so it stops following the label. */
  isKeyEdited: boolean;
  label: string;
  kind: ChecklistItemKind;
  unit: string;
  help: string;
  isRequired: boolean;
}

type RowErrors = Partial<Record<"key" | "label" | "unit" | "help", string>>;

let nextRow = 0;
function rowOf(item: ChecklistTemplateItem): Row {
  return {
    rowId: `row-${nextRow++}`,
    key: item.key,
    isKeyEdited: true,
    label: item.label,
    kind: item.kind,
    unit: item.unit ?? "",
    help: item.help ?? "",
    isRequired: item.isRequired,
  };
}

/** A key from a label: "Lowest floor (C2.a)" → "lowest_floor_c2_a". */
export function keyFromLabel(label: string): string {
  const slug = label.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "").replace(/^(\d)/, "item_$1").slice(0, 80).replace(/_+$/, "");
  return slug || "item";
}

function check(rows: Row[]): Record<string, RowErrors> {
  const errors: Record<string, RowErrors> = {};
  const seen = new Set<string>();
  for (const row of rows) {
    const e: RowErrors = {};
    if (row.label.trim() === "") e.label = "Label is required";
    else if (row.label.trim().length > 200) e.label = "Label must be at most 200 characters";
    if (!KEY_PATTERN.test(row.key)) {
      e.key = "Lowercase letters, digits and underscores, starting with a letter";
    } else if (row.key.startsWith("alta_table_a_")) {
      e.key = "Keys starting with alta_table_a_ are kept for ALTA Table A items";
    } else if (seen.has(row.key)) e.key = `Another item has the key ${row.key}`;
    seen.add(row.key);
    if (row.kind === "number" && row.unit.trim().length > 20) {
      e.unit = "Unit must be at most 20 characters";
    }
    if (row.help.trim().length > 500) e.help = "Help must be at most 500 characters";
    if (Object.keys(e).length > 0) errors[row.rowId] = e;
  }
  return errors;
}

function itemsOf(rows: Row[]): ChecklistTemplateItem[] {
  return rows.map((row) => ({
    key: row.key,
    label: row.label.trim(),
    kind: row.kind,
    ...(row.kind === "number" && row.unit.trim() ? { unit: row.unit.trim() } : {}),
    ...(row.help.trim() ? { help: row.help.trim() } : {}),
    isRequired: row.isRequired,
  }));
}

/** Server field errors (`items.3.key`) by row. */
function serverErrors(rows: Row[], err: unknown): Record<string, RowErrors> {
  if (!(err instanceof ApiError)) return {};
  try {
    const body = JSON.parse(err.body);
    const out: Record<string, RowErrors> = {};
    for (const [path, message] of Object.entries(body?.errors ?? {})) {
      const match = /^items\.(\d+)\.(key|label|unit|help)$/.exec(path);
      const row = match ? rows[Number(match[1])] : undefined;
      if (row && match) {
        out[row.rowId] = { ...out[row.rowId], [match[2]]: String(message) };
      }
    }
    return out;
  } catch {
    return {};
  }
}

/** The template editor (see the file's comment). */
export default function ChecklistTemplateEditor(
  { surveyType, surveyTypeName, template }: ChecklistTemplateEditorProps,
) {
  const [rows, setRows] = useState<Row[]>(() => template.items.map(rowOf));
  const [version, setVersion] = useState(template.version);
  const [errors, setErrors] = useState<Record<string, RowErrors>>({});
  const [isPending, setPending] = useState(false);
  const [isHydrated, setHydrated] = useState(false);
  const [isDirty, setDirty] = useState(false);
  const focusAfter = useRef<string | null>(null);
  const id = useId();
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (!focusAfter.current) return;
    document.getElementById(focusAfter.current)?.focus();
    focusAfter.current = null;
  });

  function update(rowId: string, change: Partial<Row>) {
    setDirty(true);
    setRows((old) =>
      old.map((row) => {
        if (row.rowId !== rowId) return row;
        const next = { ...row, ...change };
        if (change.label !== undefined && !row.isKeyEdited) next.key = keyFromLabel(change.label);
        return next;
      })
    );
  }

  function move(index: number, by: -1 | 1, base: string) {
    setDirty(true);
    const to = index + by;
    // Keep focus on the button that moved, or on its twin once it reached an end (disabled).
    const control = to === 0
      ? `${base}-down`
      : to === rows.length - 1
      ? `${base}-up`
      : by < 0
      ? `${base}-up`
      : `${base}-down`;
    setRows((old) => {
      const next = [...old];
      const [row] = next.splice(index, 1);
      next.splice(index + by, 0, row);
      return next;
    });
    focusAfter.current = control;
  }

  function remove(index: number) {
    setDirty(true);
    const left = rows.filter((_, i) => i !== index);
    setRows(left);
    // Focus the item that took its place (or the one before), else the Add button.
    const neighbour = left[Math.min(index, left.length - 1)];
    focusAfter.current = neighbour ? `${id}-${neighbour.rowId}-label` : `${id}-add`;
  }

  function add() {
    setDirty(true);
    const row: Row = {
      rowId: `row-${nextRow++}`,
      key: "",
      isKeyEdited: false,
      label: "",
      kind: "check",
      unit: "",
      help: "",
      isRequired: true,
    };
    setRows((old) => [...old, row]);
    focusAfter.current = `${id}-${row.rowId}-label`;
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    const found = check(rows);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    if (rows.length === 0) {
      toast({
        title: TEMPLATE_SAVE_FAILED,
        description: "A checklist needs at least one item",
        variant: "destructive",
      });
      return;
    }
    setPending(true);
    try {
      const data = await apiJson<{ template: ChecklistTemplateView }>(
        "POST",
        `/api/checklist-templates/${encodeURIComponent(surveyType)}`,
        { items: itemsOf(rows) },
      );
      if (!data?.template) throw new Error("Empty answer");
      setVersion(data.template.version);
      setRows(data.template.items.map(rowOf));
      setDirty(false);
      toast({
        title: TEMPLATE_SAVED,
        description:
          `${surveyTypeName}: version ${data.template.version} is now used for new assignments.`,
      });
    } catch (err) {
      setErrors(serverErrors(rows, err));
      toast({
        title: TEMPLATE_SAVE_FAILED,
        description: errorMessage(err, "Could not save the checklist. Please try again."),
        variant: "destructive",
      });
    } finally {
      setPending(false);
    }
  }

  const disabled = !isHydrated || isPending;
  return (
    <CheckedForm
      errors={errors}
      isPending={isPending}
      onSubmit={save}
      className="stack template-editor"
    >
      <p className="template-editor__version">
        {`Current version: ${version}. `}
        <span className="muted">
          {isDirty
            ? "Unsaved changes."
            : "Saving makes a new version; jobs in progress keep theirs."}
        </span>
      </p>
      <ol className="template-editor__items">
        {rows.map((row, index) => {
          const base = `${id}-${row.rowId}`;
          const e = errors[row.rowId] ?? {};
          const name = row.label.trim() || "New item";
          return (
            <li key={row.rowId} className="template-editor__item">
              <fieldset className="template-editor__fieldset">
                <legend>{`Item ${index + 1}: ${name}`}</legend>
                <TextField
                  id={`${base}-label`}
                  label="Label"
                  value={row.label}
                  maxLength={200}
                  error={e.label}
                  onValue={(label) => update(row.rowId, { label })}
                />
                <div className="template-editor__row">
                  <SelectField
                    id={`${base}-kind`}
                    label="Kind"
                    value={row.kind}
                    placeholder={null}
                    choices={CHECKLIST_ITEM_KINDS.map((kind) => ({
                      id: kind,
                      label: CHECKLIST_KIND_LABELS[kind],
                    }))}
                    onValue={(kind) => update(row.rowId, { kind: kind as ChecklistItemKind })}
                  />
                  {row.kind === "number"
                    ? (
                      <TextField
                        id={`${base}-unit`}
                        label="Unit"
                        optional
                        value={row.unit}
                        maxLength={20}
                        error={e.unit}
                        hint="e.g. ft, ea"
                        onValue={(unit) => update(row.rowId, { unit })}
                      />
                    )
                    : null}
                  <TextField
                    id={`${base}-key`}
                    label="Key"
                    value={row.key}
                    maxLength={80}
                    error={e.key}
                    hint="Stable id in reports"
                    autoComplete="off"
                    spellCheck={false}
                    onValue={(key) => update(row.rowId, { key, isKeyEdited: true })}
                  />
                </div>
                <TextareaField
                  id={`${base}-help`}
                  label="Help for the crew"
                  optional
                  rows={2}
                  maxLength={500}
                  value={row.help}
                  error={e.help}
                  onValue={(help) => update(row.rowId, { help })}
                />
                <div className="template-editor__actions">
                  <label className="field--check template-editor__required">
                    <input
                      type="checkbox"
                      checked={row.isRequired}
                      disabled={disabled}
                      onChange={(ev) => update(row.rowId, { isRequired: ev.currentTarget.checked })}
                    />
                    <span>Required</span>
                  </label>
                  <div className="cluster">
                    <button
                      type="button"
                      id={`${base}-up`}
                      className="btn btn--secondary btn--sm"
                      disabled={disabled || index === 0}
                      aria-label={`Move item ${index + 1} up`}
                      onClick={() => move(index, -1, base)}
                    >
                      Up
                    </button>
                    <button
                      type="button"
                      id={`${base}-down`}
                      className="btn btn--secondary btn--sm"
                      disabled={disabled || index === rows.length - 1}
                      aria-label={`Move item ${index + 1} down`}
                      onClick={() => move(index, 1, base)}
                    >
                      Down
                    </button>
                    <button
                      type="button"
                      className="btn btn--ghost btn--sm"
                      disabled={disabled}
                      aria-label={`Remove item ${index + 1}: ${name}`}
                      onClick={() => remove(index)}
                    >
                      Remove
                    </button>
                  </div>
                </div>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <div className="cluster template-editor__footer">
        <button
          type="button"
          id={`${id}-add`}
          className="btn btn--secondary"
          disabled={disabled || rows.length >= CHECKLIST_TEMPLATE_MAX_ITEMS}
          onClick={add}
        >
          Add item
        </button>
        <button type="submit" className="btn btn--primary" disabled={disabled}>
          {isPending ? "Saving…" : `Save as version ${version + 1}`}
        </button>
      </div>
    </CheckedForm>
  );
}

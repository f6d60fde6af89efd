/**
 * The admin's editor of one email's words (/admin/email-templates/{id}, issue 13): the subject
 * and each copy block as plain text with `{variables}`, the variables listed beside the editor
 * with their sample values, and a live preview of the draft rendered by the server with the
 * template's sample data (POST …/preview) as HTML in a sandboxed iframe (no scripts, at phone
 * or desktop width) and as plain text; the saved words' HTML is read by the frame from its own
 * address (GET /admin/email-templates/{id}/preview) rather than carried in the page. The layout, links and escaping stay in the email's code.
 *
 * Saving makes a new version (POST …/versions); "Send me a test" queues the draft to the
 * admin's own address through the outbox (POST …/test); "Reset to default" (confirmed in a
 * dialog) makes a version that sends the code's defaults again. The saved versions are listed
 * with who saved them and when, and the newest is compared word by word with the one before.
 *
 * A `{variable}` the email does not have is marked at its field as it is typed, and the server
 * refuses it on save with the same message.
 */
import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from "react";
import { ApiError, apiJson, errorMessage } from "./_api.ts";
import { toast } from "./_toast.ts";
import { emailNoticeToast, type EmailNoticeView } from "./_email_notice.ts";
import { CheckedForm, TextareaField, TextField } from "./_fields.tsx";
import { CopyDiff } from "./_email_diff.tsx";
import {
  type EmailTemplateEditorProps,
  type EmailTemplateState,
  formatSavedAt,
  type PreviewView,
  savedBy,
} from "./_email_template.ts";
import type { CopyTexts } from "../lib/mail/copy.ts";
import {
  blockMax,
  cleanCopy,
  copyErrors,
  defaultTexts,
  SUBJECT_MAX,
} from "../lib/mail/template_copy.ts";

export type { EmailTemplateEditorProps } from "./_email_template.ts";

/** Toast titles. */
export const EDITOR_TOASTS = {
  saved: "Email template saved",
  saveFailed: "Could not save the email",
  reset: "Email reset to default",
  resetFailed: "Could not reset the email",
  testQueued: "Test email queued",
  testFailed: "Could not queue the test email",
  invalid: "Fix the marked fields first",
} as const;

/** Preview widths: a phone's screen, and the 600 px column email clients show on a desktop. */
export const PREVIEW_WIDTHS = { phone: 375, desktop: 600 } as const;
type PreviewWidth = keyof typeof PREVIEW_WIDTHS;

/** How long the draft must stay unchanged before the preview is rendered again. */
export const PREVIEW_DELAY_MS = 400;

/** The texts the app sends for `state` (the defaults when never saved or reset). */
function sentTexts(state: EmailTemplateState, defaults: CopyTexts): CopyTexts {
  const current = state.current;
  return current && !current.isReset
    ? { subject: current.subject, blocks: { ...defaults.blocks, ...current.blocks } }
    : defaults;
}

function sameTexts(a: CopyTexts, b: CopyTexts): boolean {
  return a.subject === b.subject &&
    Object.keys({ ...a.blocks, ...b.blocks }).every((k) => a.blocks[k] === b.blocks[k]);
}

/** Server field errors (`subject`, `blocks.{key}`) from a 400. */
function serverErrors(err: unknown): Record<string, string> {
  if (!(err instanceof ApiError) || err.status !== 400) return {};
  try {
    const errors = JSON.parse(err.body)?.errors;
    return errors && typeof errors === "object" ? errors : {};
  } catch {
    return {};
  }
}

/** The editor (see the file's comment). */
export default function EmailTemplateEditor(props: EmailTemplateEditorProps) {
  const { templateId, templateName, shape, variables, adminEmail } = props;
  const defaults = useMemo(() => defaultTexts(shape), [shape]);
  const [state, setState] = useState(props.state);
  const saved = sentTexts(state, defaults);
  const [draft, setDraft] = useState<CopyTexts>(saved);
  const [fromServer, setFromServer] = useState<Record<string, string>>({});
  // A new object only on submit, so the form moves focus to a bad field then, not while typing.
  const [submitErrors, setSubmitErrors] = useState<Record<string, string>>({});
  const [preview, setPreview] = useState<PreviewView>(props.preview);
  const [previewState, setPreviewState] = useState<"ready" | "updating" | "failed">("ready");
  const [width, setWidth] = useState<PreviewWidth>("desktop");
  const [busy, setBusy] = useState<null | "save" | "test" | "reset">(null);
  const [isHydrated, setHydrated] = useState(false);
  const resetDialog = useRef<HTMLDialogElement>(null);
  const previewed = useRef<CopyTexts>(saved);
  const id = useId();
  const base = `${id}-copy`;
  useEffect(() => setHydrated(true), []);

  const errors = { ...copyErrors(shape, draft), ...fromServer };
  const isDirty = !sameTexts(cleanCopy(shape, draft), saved);
  const current = state.current;
  const version = current?.version ?? 0;
  const isDefault = !current || current.isReset;

  // Renders the draft again once typing pauses; an answer for an older draft is dropped.
  useEffect(() => {
    if (sameTexts(draft, previewed.current)) return;
    let isStale = false;
    const timer = setTimeout(async () => {
      setPreviewState("updating");
      try {
        const next = await apiJson<PreviewView>(
          "POST",
          `/api/admin/email-templates/${encodeURIComponent(templateId)}/preview`,
          draft,
        );
        if (isStale) return;
        if (!next) throw new Error("Empty answer");
        previewed.current = draft;
        setPreview(next);
        setPreviewState("ready");
      } catch {
        if (!isStale) setPreviewState("failed");
      }
    }, PREVIEW_DELAY_MS);
    return () => {
      isStale = true;
      clearTimeout(timer);
    };
  }, [draft, templateId]);

  function edit(field: string, change: Partial<CopyTexts>) {
    setDraft((old) => ({
      subject: change.subject ?? old.subject,
      blocks: { ...old.blocks, ...change.blocks },
    }));
    if (fromServer[field]) {
      setFromServer(({ [field]: _, ...rest }) => rest);
    }
  }

  /** True when the draft may be sent; else marks the fields and moves focus to the first. */
  function checkDraft(failedTitle: string): boolean {
    const found = copyErrors(shape, draft);
    setSubmitErrors({ ...found });
    if (Object.keys(found).length === 0) return true;
    toast({
      title: failedTitle,
      description: Object.values(found)[0],
      variant: "destructive",
    });
    return false;
  }

  function applyState(next: EmailTemplateState) {
    setState(next);
    const texts = sentTexts(next, defaults);
    setDraft(texts);
    setFromServer({});
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!checkDraft(EDITOR_TOASTS.saveFailed)) return;
    setBusy("save");
    try {
      const data = await apiJson<{ state: EmailTemplateState }>(
        "POST",
        `/api/admin/email-templates/${encodeURIComponent(templateId)}/versions`,
        { ...cleanCopy(shape, draft), baseVersion: version },
      );
      if (!data?.state?.current) throw new Error("Empty answer");
      applyState(data.state);
      toast({
        title: EDITOR_TOASTS.saved,
        description:
          `Version ${data.state.current.version} is used for every ${templateName} email from now on.`,
      });
    } catch (err) {
      const found = serverErrors(err);
      setFromServer(found);
      setSubmitErrors({ ...found });
      toast({
        title: EDITOR_TOASTS.saveFailed,
        description: errorMessage(err, "Please try again."),
        variant: "destructive",
      });
    } finally {
      setBusy(null);
    }
  }

  async function sendTest() {
    if (!checkDraft(EDITOR_TOASTS.testFailed)) return;
    setBusy("test");
    try {
      const data = await apiJson<{ to: string; email?: EmailNoticeView }>(
        "POST",
        `/api/admin/email-templates/${encodeURIComponent(templateId)}/test`,
        cleanCopy(shape, draft),
      );
      const words = `With sample data${isDirty ? " and your unsaved words" : ""}.`;
      const notice = emailNoticeToast(data?.email, {
        queued: EDITOR_TOASTS.testQueued,
        notSent: EDITOR_TOASTS.testQueued,
      });
      toast({
        ...notice,
        description: notice.description
          ? `${notice.description} ${words}`
          : `It is in the outbox for ${data?.to ?? adminEmail}. ${words}`,
      });
    } catch (err) {
      const found = serverErrors(err);
      setFromServer(found);
      setSubmitErrors({ ...found });
      toast({
        title: EDITOR_TOASTS.testFailed,
        description: errorMessage(err, "Please try again."),
        variant: "destructive",
      });
    } finally {
      setBusy(null);
    }
  }

  async function reset() {
    setBusy("reset");
    try {
      const data = await apiJson<{ state: EmailTemplateState }>(
        "POST",
        `/api/admin/email-templates/${encodeURIComponent(templateId)}/reset`,
        { baseVersion: version },
      );
      if (!data?.state) throw new Error("Empty answer");
      applyState(data.state);
      resetDialog.current?.close();
      toast({
        title: EDITOR_TOASTS.reset,
        description: `${templateName} emails use the default words again (version ${
          data.state.current?.version ?? version + 1
        }).`,
      });
    } catch (err) {
      resetDialog.current?.close();
      toast({
        title: EDITOR_TOASTS.resetFailed,
        description: errorMessage(err, "Please try again."),
        variant: "destructive",
      });
    } finally {
      setBusy(null);
    }
  }

  const disabled = !isHydrated || busy !== null;
  const status = isDirty
    ? "Unsaved changes: the preview shows them; emails keep the saved words until you save."
    : isDefault
    ? "Emails use the default words."
    : `Emails use version ${version}.`;
  const previousTexts = state.previous
    ? sentTexts({ current: state.previous, previous: null, versions: [] }, defaults)
    : defaults;

  return (
    <div className="email-editor" data-hydrated={isHydrated ? "" : undefined}>
      <div className="email-editor__main">
        <section className="card" aria-labelledby={`${id}-words`}>
          <div className="card__header">
            <h2 id={`${id}-words`}>Words</h2>
            <span className="badge badge--neutral">
              {isDefault ? "Default" : `Version ${version}`}
            </span>
          </div>
          <div className="card__body">
            <CheckedForm
              errors={submitErrors}
              isPending={busy === "save"}
              onSubmit={save}
              className="stack"
            >
              <p className="muted" role="status">{status}</p>
              <TextField
                id={`${base}-subject`}
                label="Subject"
                value={draft.subject}
                maxLength={SUBJECT_MAX}
                error={errors.subject}
                autoComplete="off"
                onValue={(subject) => edit("subject", { subject })}
              />
              {shape.blocks.map((block) => {
                const field = `blocks.${block.key}`;
                const value = draft.blocks[block.key] ?? "";
                const common = {
                  id: `${base}-${block.key}`,
                  label: block.label,
                  value,
                  maxLength: blockMax(block),
                  error: errors[field],
                  optional: block.defaultText.trim() === "",
                  onValue: (text: string) => edit(field, { blocks: { [block.key]: text } }),
                };
                return block.isMultiline
                  ? (
                    <TextareaField
                      key={block.key}
                      {...common}
                      rows={Math.min(10, Math.max(3, value.split("\n").length + 1))}
                      hint="Leave a blank line between paragraphs."
                    />
                  )
                  : <TextField key={block.key} {...common} autoComplete="off" />;
              })}
              <div className="cluster email-editor__actions">
                <button type="submit" className="btn btn--primary" disabled={disabled || !isDirty}>
                  {busy === "save" ? "Saving…" : `Save as version ${version + 1}`}
                </button>
                <button
                  type="button"
                  className="btn btn--secondary"
                  disabled={disabled}
                  onClick={sendTest}
                >
                  {busy === "test" ? "Queueing…" : "Send me a test"}
                </button>
                <button
                  type="button"
                  className="btn btn--ghost"
                  disabled={disabled || isDefault}
                  onClick={() => resetDialog.current?.showModal()}
                >
                  Reset to default
                </button>
                {isDirty
                  ? (
                    <button
                      type="button"
                      className="btn btn--ghost"
                      disabled={disabled}
                      onClick={() => {
                        setDraft(saved);
                        setFromServer({});
                      }}
                    >
                      Discard changes
                    </button>
                  )
                  : null}
              </div>
              <p className="muted email-editor__note">
                Tests go to {adminEmail}.
              </p>
            </CheckedForm>
          </div>
        </section>

        <section className="card" aria-labelledby={`${id}-preview`}>
          <div className="card__header">
            <h2 id={`${id}-preview`}>Preview</h2>
            <div className="cluster" role="group" aria-label="Preview width">
              {(Object.keys(PREVIEW_WIDTHS) as PreviewWidth[]).map((w) => (
                <button
                  key={w}
                  type="button"
                  className={`btn btn--sm ${width === w ? "btn--primary" : "btn--secondary"}`}
                  aria-pressed={width === w}
                  disabled={!isHydrated}
                  onClick={() => setWidth(w)}
                >
                  {w === "phone" ? "Phone" : "Desktop"}
                  <span className="visually-hidden">{` (${PREVIEW_WIDTHS[w]} px)`}</span>
                </button>
              ))}
            </div>
          </div>
          <div className="card__body email-preview">
            <p className="muted">
              {previewState === "updating"
                ? "Updating the preview…"
                : previewState === "failed"
                ? "The preview could not be updated; it shows the last words that rendered."
                : "With sample data. Not sent to anyone."}
            </p>
            <dl className="email-preview__meta">
              <dt>Subject</dt>
              <dd className="email-editor__subject">{preview.subject}</dd>
            </dl>
            <h3>HTML</h3>
            {/* Wider than a phone screen in Desktop mode: this box scrolls, never the page. */}
            <div
              className="email-editor__frame-box"
              role="region"
              aria-label={`HTML preview, ${width} width`}
              tabIndex={0}
            >
              {
                /* sandbox="": no scripts, forms or navigation. The saved words' HTML comes from
                their preview address; a draft's, rendered by the API, as srcdoc. */
              }
              <iframe
                className="email-preview__frame email-editor__frame"
                title={`${templateName} email, HTML preview`}
                sandbox=""
                {...(preview.html === undefined
                  ? { src: props.previewSrc }
                  : { srcDoc: preview.html })}
                style={{ width: `${PREVIEW_WIDTHS[width]}px` }}
                data-width={width}
              />
            </div>
            {/* The list page's "Plain text" links land here. */}
            <h3 id="plain-text">Plain text</h3>
            <pre
              className="email-preview__text"
              tabIndex={0}
              aria-label={`${templateName} email, plain text preview`}
            >
              {preview.text}
            </pre>
          </div>
        </section>
      </div>

      <aside className="email-editor__side" aria-label="Variables and versions">
        <section className="card" aria-labelledby={`${id}-variables`}>
          <div className="card__header">
            <h2 id={`${id}-variables`}>Variables</h2>
          </div>
          <div className="card__body">
            <p className="muted">
              Type a variable with its braces; each email fills in its own value. The preview uses
              the sample values.
            </p>
            <dl className="email-editor__variables">
              {variables.map((v) => (
                <div key={v.name}>
                  <dt>
                    <code>{`{${v.name}}`}</code>
                  </dt>
                  <dd>
                    {v.description}
                    <span className="muted email-editor__sample">Sample: {v.sample}</span>
                  </dd>
                </div>
              ))}
            </dl>
          </div>
        </section>

        <section className="card" aria-labelledby={`${id}-changes`}>
          <div className="card__header">
            <h2 id={`${id}-changes`}>Last change</h2>
          </div>
          <div className="card__body">
            {current
              ? (
                <>
                  <p>
                    {`Version ${current.version}${
                      current.isReset ? " (reset to default)" : ""
                    } compared with ${
                      state.previous ? `version ${state.previous.version}` : "the default words"
                    }.`}
                  </p>
                  <CopyDiff
                    shape={shape}
                    before={previousTexts}
                    after={sentTexts({ current, previous: null, versions: [] }, defaults)}
                  />
                </>
              )
              : <p className="muted">Never edited: this email uses the default words.</p>}
          </div>
        </section>

        <section className="card" aria-labelledby={`${id}-history`}>
          <div className="card__header">
            <h2 id={`${id}-history`}>Versions</h2>
          </div>
          <div className="card__body">
            {state.versions.length
              ? (
                <ol className="email-editor__history">
                  {state.versions.map((v) => (
                    <li key={v.version}>
                      <strong>{`Version ${v.version}`}</strong>
                      {v.isReset ? " · Reset to default" : ""}
                      {v.version === version ? " · In use" : ""}
                      <br />
                      <span className="muted">
                        {`Saved by ${savedBy(v)}, ${formatSavedAt(v.createdAt)}`}
                      </span>
                    </li>
                  ))}
                </ol>
              )
              : <p className="muted">No saved versions yet.</p>}
          </div>
        </section>
      </aside>

      <dialog
        ref={resetDialog}
        className="confirm-dialog"
        aria-labelledby={`${id}-reset-title`}
        aria-describedby={`${id}-reset-text`}
      >
        <h2 id={`${id}-reset-title`} className="confirm-dialog__title">
          Reset to the default words?
        </h2>
        <p id={`${id}-reset-text`}>
          {`${templateName} emails will use the default subject and text again, from now on. Version ${version} stays in the history${
            isDirty ? "; your unsaved changes are discarded" : ""
          }.`}
        </p>
        <div className="form-actions">
          <button
            type="button"
            className="btn btn--ghost"
            autoFocus
            disabled={busy === "reset"}
            onClick={() => resetDialog.current?.close()}
          >
            Keep my words
          </button>
          <button
            type="button"
            className="btn btn--danger"
            disabled={busy === "reset"}
            onClick={reset}
          >
            {busy === "reset" ? "Resetting…" : "Reset to default"}
          </button>
        </div>
      </dialog>
    </div>
  );
}

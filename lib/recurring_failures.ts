/**
 * The failures of one recurring pass (the job worker's, the outbox sender's, a sweep), logged
 * without flooding the log while they repeat. A server whose database was dropped under it
 * logged a full stack trace for every job pass, storage sweep, password-reset pass and
 * statistics pass, several a second, for as long as it ran: here the first failure is logged in
 * full, the same failure again (the same error name, code and message) is only counted, and
 * the count is told in one line when the pass fails another way or works again.
 */
export class RecurringFailures {
  #label: string;
  #log: (...data: unknown[]) => void;
  #last: string | undefined;
  #repeats = 0;

  /**
   * `label` names the pass in each line ("[jobs] Job pass"); `log` writes a line
   * (`console.error`).
   */
  constructor(label: string, log: (...data: unknown[]) => void = console.error) {
    this.#label = label;
    this.#log = log;
  }

  /** The pass failed with `err`: logged in full unless it is the failure logged last. */
  failed(err: unknown): void {
    const key = failureKey(err);
    if (key === this.#last) {
      this.#repeats++;
      return;
    }
    this.#tellRepeats();
    this.#last = key;
    this.#log(`${this.#label} failed`, err);
  }

  /** The pass worked: after failures, says how many went untold and that it works again. */
  succeeded(): void {
    if (this.#last === undefined) return;
    this.#tellRepeats();
    this.#last = undefined;
    this.#log(`${this.#label} works again`);
  }

  #tellRepeats(): void {
    if (this.#repeats === 0) return;
    this.#log(
      `${this.#label} failed ${this.#repeats} more time${
        this.#repeats === 1 ? "" : "s"
      } the same way`,
    );
    this.#repeats = 0;
  }
}

/** What makes two failures the same: the error's name, code and message. */
function failureKey(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return `${err.name}\u0000${typeof code === "string" ? code : ""}\u0000${err.message}`;
  }
  return `\u0001${String(err)}`;
}

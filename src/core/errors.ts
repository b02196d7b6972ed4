/**
 * Typed errors. Every error Aerie raises on purpose carries a stable `code` the UI turns into a sentence a
 * user can act on, and the numbers that explain it in `details`.
 */

/** Base class of Aerie's own errors. */
export class AerieError<Code extends string = string> extends Error {
  readonly code: Code;
  readonly details: Readonly<Record<string, unknown>>;
  constructor(code: Code, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.details = details;
  }
}

/** A vector of the wrong length, an empty input where data is needed, and similar misuse of the numeric API. */
export class DimensionError extends AerieError<'DIMENSION_MISMATCH' | 'EMPTY_INPUT'> {}

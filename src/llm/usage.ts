/** Token accounting: one response's counts, and their sums across many requests (one tree build, one answer). */

/** Token counts reported by the server for one response. */
export interface TokenUsage {
  /** Input tokens (OpenAI `prompt_tokens`, Anthropic `input_tokens`). */
  promptTokens: number;
  /** Generated tokens (OpenAI `completion_tokens`, Anthropic `output_tokens`). */
  completionTokens: number;
}

/** Totals of an accumulator at one moment. */
export interface UsageTotals extends TokenUsage {
  /** promptTokens + completionTokens. */
  totalTokens: number;
  /** Successful responses counted. */
  requests: number;
  /** Responses whose server reported no usage (their tokens are missing from the totals). */
  unreported: number;
}

/** Sums the token usage of successful responses; create one per build and one per answer. */
export class UsageAccumulator {
  promptTokens = 0;
  completionTokens = 0;
  requests = 0;
  unreported = 0;

  /** Counts one successful response; `undefined` when the server did not report usage. */
  add(usage: TokenUsage | undefined): void {
    this.requests++;
    if (!usage) {
      this.unreported++;
      return;
    }
    this.promptTokens += usage.promptTokens;
    this.completionTokens += usage.completionTokens;
  }

  /** Adds another accumulator's totals (e.g. an answer's into a session's). */
  merge(other: UsageAccumulator | UsageTotals): void {
    this.promptTokens += other.promptTokens;
    this.completionTokens += other.completionTokens;
    this.requests += other.requests;
    this.unreported += other.unreported;
  }

  /** promptTokens + completionTokens. */
  get totalTokens(): number {
    return this.promptTokens + this.completionTokens;
  }

  /** A plain copy of the totals (safe to store or post to another thread). */
  snapshot(): UsageTotals {
    return {
      promptTokens: this.promptTokens,
      completionTokens: this.completionTokens,
      totalTokens: this.totalTokens,
      requests: this.requests,
      unreported: this.unreported,
    };
  }
}

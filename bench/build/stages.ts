import type { BuildRunResult } from '../browser/build-page';

/** When each recorded stage ended (ms on the build's clock): the next stage's start, the last at "done". */
export function stageEnds(result: BuildRunResult): number[] {
  return [...result.stages.slice(1).map((s) => s.startMs), result.doneMs];
}

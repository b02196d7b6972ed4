/**
 * Where a build's models ran, as the build card, the library row and Statistics say it: "Embeddings ran on WebGPU
 * (google swiftshader): 40 texts; then WASM (2 threads, cross-origin isolated): 62 texts (the GPU … was lost …)";
 * and where a question's passages were reranked, as its results say it.
 */
import { placementLabel, usesLabel, type DeviceUse, type ModelPlacement } from '../../models/device';
import type { RunDevices } from '../../protocol/build';

/** One sentence per model that ran in this browser (none for an endpoint or an imported tree). */
export function devicesLines(devices: RunDevices | undefined): string[] {
  const lines: string[] = [];
  if (devices?.embedding?.length)
    lines.push(`Embeddings ran on ${usesLabel(devices.embedding, ['text', 'texts'])}.`);
  if (devices?.summaries?.length)
    lines.push(`Summaries were written on ${usesLabel(devices.summaries, ['token', 'tokens'])}.`);
  return lines;
}

/** The notice of a model that moved to the CPU mid-build (its title and body). */
export function deviceFallbackNotice(
  model: 'embedding' | 'summaries',
  to: ModelPlacement,
  message: string,
): { title: string; body: string } {
  const what = model === 'embedding' ? 'Embeddings' : 'Summaries';
  return {
    title: `${what} moved from WebGPU to ${placementLabel(to)}`,
    body:
      `${message.charAt(0).toUpperCase()}${message.slice(1)}. The build goes on from where it was: nothing ` +
      'already embedded or written is lost or done again.',
  };
}

/** The device that did most of a model's work (for short labels), if any. */
export function mainDevice(uses: readonly DeviceUse[] | undefined): ModelPlacement | undefined {
  if (!uses?.length) return undefined;
  return uses.reduce((best, u) => (u.count > best.count ? u : best)).placement;
}

/** The note of a question's reranked results: "Reranked on WebGPU (google swiftshader)." (and why not, if not). */
export function rerankedOnNote(info: { placement: ModelPlacement; fallback?: { message: string } }): string {
  const why = info.fallback ? ` (${info.fallback.message})` : '';
  return `Reranked on ${placementLabel(info.placement)}${why}.`;
}

/**
 * A load of the app's own model and a load of a hub model in one worker (the embedding worker loads both when a
 * warm-up of the offline model is still running as a build asks for the default hub model). transformers.js
 * steers every file by its realm's switches as the file is fetched, so before the source gate the hub load's
 * switches sent the offline model's later files to the hub, and the offline model — the one the build falls back
 * to — failed ("Failed to fetch" in the browser). Real transformers.js and ONNX Runtime in Node, the committed tiny
 * model; the hub is one that refuses connections (a closed local port), as an unreachable hub does.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { env } from '@huggingface/transformers';
import { configureRuntime, TransformersEmbedder } from '../../../src/models/embed';
import { splitRows } from '../../../src/models/embed/rows';

const MODELS = fileURLToPath(new URL('../../../public/models/', import.meta.url));
configureRuntime({ localModelPath: MODELS });
const remoteHost = env.remoteHost;

afterEach(() => {
  env.remoteHost = remoteHost;
});

describe('loads from the app and from the hub in one realm', () => {
  it('the app’s model loads whole while a hub model’s load starts beside it (and that one is told the hub is unreachable)', async () => {
    env.remoteHost = 'http://127.0.0.1:9/';
    const local = TransformersEmbedder.load('local:aerie-tiny-random', { dtype: 'fp32', device: 'cpu' });
    const hub = TransformersEmbedder.load('Xenova/all-MiniLM-L6-v2', { dtype: 'fp32', device: 'cpu' });
    const [localResult, hubResult] = await Promise.allSettled([local, hub]);
    expect(localResult.status === 'rejected' ? String(localResult.reason) : 'loaded').toBe('loaded');
    expect(hubResult.status).toBe('rejected');
    expect((hubResult as PromiseRejectedResult).reason).toMatchObject({ code: 'HUB_UNREACHABLE' });
    const embedder = await local;
    const [vector] = splitRows(await embedder.embed(['The prince found the slipper.']));
    expect(vector!.length).toBe(embedder.info.dim);
    expect(Math.hypot(...vector!)).toBeCloseTo(1, 5);
    await embedder.dispose();
  });
});
